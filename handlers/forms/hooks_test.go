package forms_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"cms/handlers/hooks/hooktest"
)

// The hook tests use tiny hand-made modules (package hooktest): they compile in microseconds,
// also under the race detector. TestGoGuestHook runs a real Go guest.

// hookTimeout is the hosts' time per call: long enough that a busy machine running the race
// detector never fails a call that should pass, short enough for the endless loop's case.
const hookTimeout = time.Second

func TestSubmitWithHook(t *testing.T) {
	t.Parallel()
	// A long note makes the request (which carries all values) long enough to trip the modules.
	long := strings.Repeat("x", hooktest.SmokeSafe)
	tests := []struct {
		name   string
		module hooktest.Module
		note   string
		status int
		msg    string // the email field's message on 422
	}{
		{"valid answer", hooktest.Module{Response: hooktest.Valid}, "", 201, ""},
		{"invalid answer", hooktest.Module{Response: hooktest.Invalid}, "", 422, "Rejected by the test hook"},
		{"answer that is not JSON", hooktest.Module{Response: "nope"}, "", 422, "Could not be validated"},
		{"answer without valid", hooktest.Module{Response: `{"message":"x"}`}, "", 422, "Could not be validated"},
		{"trap", hooktest.Module{Response: hooktest.Valid, TrapAbove: hooktest.SmokeSafe}, long, 422, "Could not be validated"},
		{"endless loop", hooktest.Module{Response: hooktest.Valid, LoopAbove: hooktest.SmokeSafe}, long, 422, "Could not be validated"},
		{"unbounded allocation", hooktest.Module{Response: hooktest.Valid, GrowAbove: hooktest.SmokeSafe}, long, 422, "Could not be validated"},
		// Built-in rules run first; a value they reject never reaches the hook.
		{"built-in rule first", hooktest.Module{Response: hooktest.Valid, TrapAbove: 1}, "bad", 422, "Must be a valid email address"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "")
			hooktest.Install(t, e.store, "gate", tc.module.Bytes())
			e = e.with(t, withHooks(t, e.store, newHost(t, hookTimeout)))
			email := "ada@example.com"
			if tc.note == "bad" {
				email, tc.note = "not-an-email", ""
			}
			w := e.postJSON(t, "hooked", map[string]any{"email": email, "note": tc.note})
			// A hook that is not stopped hangs the test; the outcome below says it was stopped.
			if tc.status == 201 {
				wantStatus(t, w, 201)
				if n := e.files(t, "hooked"); n != 1 {
					t.Errorf("%d stored, want 1", n)
				}
				return
			}
			body := wantError(t, w, tc.status, "VALIDATION_ERROR")
			if got := body.Error.Fields["email"]; len(got) != 1 || got[0] != tc.msg {
				t.Errorf("email messages = %q, want [%q]", got, tc.msg)
			}
			if _, ok := body.Error.Fields["note"]; ok {
				t.Errorf("note failed too: %v", body.Error.Fields)
			}
			if n := e.files(t, "hooked"); n != 0 {
				t.Errorf("%d stored, want 0", n)
			}
		})
	}
}

func TestHookFailureDoesNotBreakLaterCalls(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	hooktest.Install(t, e.store, "gate", hooktest.Module{Response: hooktest.Valid, TrapAbove: hooktest.SmokeSafe}.Bytes())
	e = e.with(t, withHooks(t, e.store, newHost(t, hookTimeout)))
	long := strings.Repeat("x", hooktest.SmokeSafe)
	for i := range 3 {
		w := e.postJSON(t, "hooked", map[string]any{"email": "ada@example.com", "note": long})
		wantError(t, w, http.StatusUnprocessableEntity, "VALIDATION_ERROR")
		// The instance that trapped is discarded; the next call gets a working one.
		wantStatus(t, e.postJSON(t, "hooked", map[string]any{"email": "ada@example.com"}), http.StatusCreated)
		if n := e.files(t, "hooked"); n != i+1 {
			t.Fatalf("%d stored, want %d", n, i+1)
		}
	}
}

// TestHookOverLimits is a module dropped into resources/hooks by hand that the upload would
// have refused: compiling it would kill the process (2^32-1 locals) or hold a core for seconds
// (40,000 nested blocks). The submission is refused like one whose hook fails, nothing is
// stored, and the service goes on.
func TestHookOverLimits(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"locals-4g", "nested"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, "")
			hooktest.Install(t, e.store, "gate", readModule(t, "limits/"+name))
			e = e.with(t, withHooks(t, e.store, newHost(t, hookTimeout)))
			for range 2 {
				body := wantError(t, e.postJSON(t, "hooked", map[string]any{"email": "ada@example.com"}), http.StatusUnprocessableEntity, "VALIDATION_ERROR")
				if got := body.Error.Fields["email"]; len(got) != 1 || got[0] != "Could not be validated" {
					t.Errorf("email messages = %q", got)
				}
			}
			if n := e.files(t, "hooked"); n != 0 {
				t.Errorf("%d stored, want 0", n)
			}
			hooktest.Install(t, e.store, "gate", hooktest.Answer(hooktest.Valid))
			wantStatus(t, e.postJSON(t, "hooked", map[string]any{"email": "ada@example.com"}), http.StatusCreated)
		})
	}
}

func TestHookNotInstalled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	// A runner exists, but the form's hook is not installed: refused, nothing stored.
	e = e.with(t, withHooks(t, e.store, newHost(t, hookTimeout)))
	w := e.postJSON(t, "hooked", map[string]any{"email": "ada@example.com"})
	body := wantError(t, w, http.StatusServiceUnavailable, "HOOK_UNAVAILABLE")
	if !strings.Contains(body.Error.Message, `"gate"`) {
		t.Errorf("message %q does not name the hook", body.Error.Message)
	}
	if n := e.files(t, "hooked"); n != 0 {
		t.Errorf("%d stored, want 0", n)
	}
	// Installing it makes the form work without a restart.
	hooktest.Install(t, e.store, "gate", hooktest.Answer(hooktest.Valid))
	wantStatus(t, e.postJSON(t, "hooked", map[string]any{"email": "ada@example.com"}), http.StatusCreated)
	// The definitions stay public.
	wantStatus(t, e.get(t, "/api/forms/gated"), http.StatusOK)
}

func TestGoGuestHook(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a Go guest")
	}
	if raceEnabled {
		t.Skip("compiling a Go guest takes about 16 s under the race detector; plain go test runs this")
	}
	t.Parallel()
	e := newEnv(t, `
-- resources/forms/signup.yaml --
blueprint: signup
-- resources/blueprints/forms/signup.yaml --
fields:
  - handle: email
    field: {type: text, required: true, validate: [email, 'hook:no-disposable-email']}
`)
	hooktest.Install(t, e.store, "no-disposable-email", readModule(t, "disposable-email"))
	e = e.with(t, withHooks(t, e.store, newHost(t, 2*time.Second)))
	wantStatus(t, e.postJSON(t, "signup", map[string]any{"email": "ada@example.com"}), http.StatusCreated)
	w := e.postJSON(t, "signup", map[string]any{"email": "x@mailinator.com"}, "Accept-Language", "de-DE,de;q=0.9")
	body := wantError(t, w, http.StatusUnprocessableEntity, "VALIDATION_ERROR")
	if got := body.Error.Fields["email"]; len(got) != 1 || !strings.Contains(got[0], "Wegwerf") {
		t.Errorf("email messages = %q, want the hook's German message", got)
	}
	if n := e.files(t, "signup"); n != 1 {
		t.Errorf("%d stored, want 1", n)
	}
}
