package hooktest_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/handlers/hooks/hooktest"
	"cms/wasmhooks"
)

func TestModulesFollowTheABI(t *testing.T) {
	t.Parallel()
	// 4 MiB of memory: the growing module reaches the limit in a few steps. The time limit is
	// generous, so that no call that should pass runs out of time on a loaded machine; the
	// looping module runs on a host of its own with a short one, which ends it whatever the load.
	newHost := func(timeout time.Duration) *wasmhooks.Host {
		h, err := wasmhooks.New(wasmhooks.Options{Limits: wasmhooks.Limits{CallTimeout: timeout, MemoryLimitPages: 64}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close(t.Context()) })
		return h
	}
	h, short := newHost(time.Minute), newHost(500*time.Millisecond)
	long := strings.Repeat("x", hooktest.SmokeSafe)
	tests := []struct {
		name      string
		mod       hooktest.Module
		checkOK   bool
		value     string
		valid     bool
		callFails bool
		cause     string // in the error's cause, when the call fails
	}{
		{name: "valid", mod: hooktest.Module{Response: hooktest.Valid}, checkOK: true, value: long, valid: true},
		{name: "invalid", mod: hooktest.Module{Response: hooktest.Invalid}, checkOK: true, value: "x", valid: false},
		{name: "trap on long", mod: hooktest.Module{Response: hooktest.Valid, TrapAbove: hooktest.SmokeSafe}, checkOK: true, value: long, callFails: true, cause: "unreachable"},
		{name: "loop on long", mod: hooktest.Module{Response: hooktest.Valid, LoopAbove: hooktest.SmokeSafe}, checkOK: true, value: long, callFails: true, cause: "timed out"},
		{name: "unbounded memory on long", mod: hooktest.Module{Response: hooktest.Valid, GrowAbove: hooktest.SmokeSafe}, checkOK: true, value: long, callFails: true, cause: "unreachable"},
		{name: "forbidden import", mod: hooktest.Module{Response: hooktest.Valid, ImportEnv: true}},
		{name: "no validate", mod: hooktest.Module{Response: hooktest.Valid, NoValidate: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wasm := tc.mod.Bytes()
			h := h
			if tc.mod.LoopAbove > 0 {
				h = short
			}
			info, err := h.Check(t.Context(), wasm)
			if !tc.checkOK {
				if content.KindOf(err) != content.Invalid {
					t.Fatalf("Check = %v, want an Invalid error", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			resp, err := h.Validate(t.Context(), wasmhooks.Module{Name: tc.name, SHA256: info.SHA256, Load: func() ([]byte, error) { return wasm, nil }},
				wasmhooks.Request{Form: "f", Field: "x", Value: tc.value})
			if tc.callFails {
				if err == nil {
					t.Fatalf("Validate = %+v, want an error", resp)
				}
				if cause := errors.Unwrap(err); cause == nil || !strings.Contains(cause.Error(), tc.cause) {
					t.Errorf("cause = %v, want one mentioning %q", cause, tc.cause)
				}
				return
			}
			if err != nil || resp.Valid != tc.valid {
				t.Fatalf("Validate = %+v, %v; want valid %v", resp, err, tc.valid)
			}
		})
	}
}
