package wasmhooks_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/wasmhooks"
)

// wantHookFailure checks that err is the Internal error of a failed hook and that its cause
// mentions each of parts.
func wantHookFailure(t testing.TB, err error, parts ...string) {
	t.Helper()
	ce := wantError(t, err, content.Internal)
	if ce.Message != "validation hook failed" {
		t.Errorf("Message = %q, want the generic one", ce.Message)
	}
	if ce.Err == nil {
		t.Fatalf("error has no cause")
	}
	for _, p := range parts {
		if !strings.Contains(ce.Err.Error(), p) {
			t.Errorf("cause = %q, want it to mention %q", ce.Err, p)
		}
	}
}

// wantWorks checks that m still answers after a failure: the broken instance was replaced.
func wantWorks(t testing.TB, h *wasmhooks.Host, m wasmhooks.Module) {
	t.Helper()
	if got := validate(t, h, m, "fine", ""); !got.Valid {
		t.Errorf("next call = %+v, want valid", got)
	}
}

// TestEndlessLoopIsStopped checks that CallTimeout stops a guest that loops for ever and that
// the module goes on serving. The limit runs out on a trigger, not a clock (see trigger): the
// hand-assembled guest fires it itself as it starts looping, by reading the clock; the Go guest
// gives no such sign, so its limit runs out shortTimeout after the looping call starts.
func TestEndlessLoopIsStopped(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		module wasmhooks.Module
		loop   string // the value that makes it loop
		clock  bool   // the guest reads the clock as it starts looping
	}{
		{name: "hand-assembled", module: moduleOf("clock-loop", clockLoopModule()), loop: strings.Repeat("x", 200), clock: true},
		{name: "go", module: testModule(t, "loop"), loop: "loop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := newTrigger()
			opts := wasmhooks.Options{Limits: wasmhooks.Limits{CallTimeout: callTimeout}}
			if tt.clock {
				opts.Now = func() time.Time {
					tr.fire()
					return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
				}
			}
			h := hostWithTrigger(t, opts, tr)
			wantWorks(t, h, tt.module) // so that the pool holds an instance, which the loop must not poison

			if !tt.clock {
				tr.arm(shortTimeout)
			}
			_, err := h.Validate(t.Context(), tt.module, request(tt.loop, ""))
			tr.disarm()
			wantHookFailure(t, err, fmt.Sprintf("call timed out after %v", callTimeout))
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("errors.Is(err, context.DeadlineExceeded) = false for %v", err)
			}
			wantWorks(t, h, tt.module)
		})
	}
}

// TestCallerCancels checks that the caller's context stops a running call. The guest reads
// the clock as it starts looping, and that is when the test cancels: not after some time,
// which on a loaded machine could pass before the call has even started.
func TestCallerCancels(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var looping atomic.Bool // set for the call that loops
	now := func() time.Time {
		if looping.Load() {
			cancel()
		}
		return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	h := newHost(t, wasmhooks.Options{Now: now, Limits: wasmhooks.Limits{CallTimeout: callTimeout}})
	m := moduleOf("clock-loop", clockLoopModule())
	wantWorks(t, h, m) // an idle instance, so that the call starts at once
	looping.Store(true)
	_, err := h.Validate(ctx, m, request(strings.Repeat("x", 200), ""))
	wantHookFailure(t, err, "call stopped in validate: context canceled")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("errors.Is(err, context.Canceled) = false for %v", err)
	}
}

func TestMemoryHogIsCapped(t *testing.T) {
	t.Parallel()
	// A generous time limit, so that it is the memory limit of 16 MiB that stops the guest.
	h := newHost(t, wasmhooks.Options{Limits: wasmhooks.Limits{MemoryLimitPages: 256, CallTimeout: time.Minute}})
	m := testModule(t, "hog")
	_, err := h.Validate(t.Context(), m, request("hog", ""))
	// The Go runtime sees memory.grow fail, reports it on stderr and aborts.
	wantHookFailure(t, err, "call trapped in validate", "fatal error: out of memory")
	wantWorks(t, h, m)
}

func TestTrap(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	tests := []struct {
		name   string
		module wasmhooks.Module
		parts  []string // in the cause
	}{
		// A Go panic that nothing recovers makes the Go runtime print it and abort.
		{"go panic", testModule(t, "trap"), []string{"call trapped in validate: wasm error: unreachable", "panic: trap: asked to panic"}},
		{"unreachable", moduleOf("unreachable", hookModule([]byte{opUnreachable}).bytes()), []string{"call trapped in validate: wasm error: unreachable"}},
		{"stderr", moduleOf("stderr", stderrTrapModule()), []string{"wasm error: unreachable", `guest stderr: "boom\n"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := h.Validate(t.Context(), tt.module, request("panic", ""))
			wantHookFailure(t, err, tt.parts...)
			if tt.name == "go panic" {
				wantWorks(t, h, tt.module)
			}
		})
	}
}

func TestBadResponses(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	m := testModule(t, "garbage")
	tests := []struct {
		value string
		cause string
	}{
		{"notjson", "call returned a bad response: response is not a JSON object of ABI v1"},
		{"novalid", `response has no "valid" field`},
		{"longmsg", "response message has 513 characters, more than 512"},
		{"badcode", `response code "not a code" has a character other than`},
		{"outside", "call failed: response at 0xffffff00+512 lies outside memory"},
		{"huge", "call failed: response of 1048576 bytes is larger than 4 KiB"},
		{"zero", "call failed: validate reported a guest error"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			t.Parallel()
			_, err := h.Validate(t.Context(), m, request(tt.value, ""))
			wantHookFailure(t, err, tt.cause)
			wantWorks(t, h, m)
		})
	}
}

func TestRequestTooLarge(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	m := moduleOf("minimal", minimalModule())
	m.Load = func() ([]byte, error) {
		t.Error("Load called for a request that is too large")
		return nil, errors.New("not needed")
	}
	_, err := h.Validate(t.Context(), m, request(strings.Repeat("x", 64<<10), ""))
	if ce := wantError(t, err, content.Invalid); !strings.Contains(ce.Message, "64 KiB") {
		t.Errorf("Message = %q, want it to name the limit", ce.Message)
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	wasm := minimalModule()

	t.Run("once", func(t *testing.T) {
		t.Parallel()
		h := newHost(t, wasmhooks.Options{})
		var loads atomic.Int32
		m := moduleOf("minimal", wasm)
		m.Load = func() ([]byte, error) {
			loads.Add(1)
			return wasm, nil
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { validate(t, h, m, "x", "") })
		}
		wg.Wait()
		if n := loads.Load(); n != 1 {
			t.Errorf("Load called %d times, want 1", n)
		}
	})
	t.Run("kind kept", func(t *testing.T) {
		t.Parallel()
		h := newHost(t, wasmhooks.Options{})
		m := moduleOf("gone", wasm)
		m.Load = func() ([]byte, error) {
			return nil, content.NotFoundf("fsstore.ReadHook", "resources/hooks/gone.wasm", "hook gone is not installed")
		}
		_, err := h.Validate(t.Context(), m, request("x", ""))
		if ce := wantError(t, err, content.NotFound); ce.Message != "hook gone is not installed" {
			t.Errorf("Message = %q", ce.Message)
		}
		// The failure is not cached: once the file is back, the hook works.
		m.Load = func() ([]byte, error) { return wasm, nil }
		validate(t, h, m, "x", "")
	})
	t.Run("other error", func(t *testing.T) {
		t.Parallel()
		h := newHost(t, wasmhooks.Options{})
		m := moduleOf("broken", wasm)
		m.Load = func() ([]byte, error) { return nil, os.ErrPermission }
		_, err := h.Validate(t.Context(), m, request("x", ""))
		wantHookFailure(t, err)
		if !errors.Is(err, os.ErrPermission) {
			t.Errorf("error %v does not wrap the cause", err)
		}
	})
	t.Run("sha256 mismatch", func(t *testing.T) {
		t.Parallel()
		h := newHost(t, wasmhooks.Options{})
		m := moduleOf("changed", wasm)
		m.Load = func() ([]byte, error) { return abiVersionModule(1), nil }
		_, err := h.Validate(t.Context(), m, request("x", ""))
		wantHookFailure(t, err, "module bytes have sha256")
	})
	t.Run("no sha256", func(t *testing.T) {
		t.Parallel()
		h := newHost(t, wasmhooks.Options{})
		m := moduleOf("nameless", wasm)
		m.SHA256 = ""
		_, err := h.Validate(t.Context(), m, request("x", ""))
		wantHookFailure(t, err, "SHA256")
	})
	t.Run("bad module", func(t *testing.T) {
		t.Parallel()
		h := newHost(t, wasmhooks.Options{})
		_, err := h.Validate(t.Context(), moduleOf("abi2", abiVersionModule(2)), request("x", ""))
		wantHookFailure(t, err, "abi_version returned 2")
	})
}

// TestConcurrentCalls checks that concurrent callers each get their own answer, from a Go
// guest and, with more calls than the race detector allows for it, from a hand-assembled one.
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	goroutines, goCalls := 32, 4
	if raceEnabled {
		goroutines = 16 // each interpreted Go guest costs 0.1 s of CPU to start
	}
	vats := []struct {
		vat   string
		valid bool
	}{
		{"DE136695976", true}, {"DE136695977", false},
		{"ATU13585627", true}, {"ATU13585626", false},
		{"IT00743110157", true}, {"NL123456783B01", false},
	}
	t.Run("go", func(t *testing.T) {
		t.Parallel()
		// A pool as large as the number of callers, so that instances are reused, not replaced.
		h := newHost(t, wasmhooks.Options{PoolSize: goroutines})
		m := testModule(t, "vat-number")
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i := range goCalls {
					v := vats[(g+i)%len(vats)]
					resp, err := h.Validate(t.Context(), m, request(v.vat, ""))
					if err != nil {
						t.Errorf("Validate(%s): %v", v.vat, err)
						return
					}
					if resp.Valid != v.valid {
						t.Errorf("Validate(%s) = %+v, want valid %v", v.vat, resp, v.valid)
					}
				}
			})
		}
		wg.Wait()
	})
	t.Run("hand-assembled", func(t *testing.T) {
		t.Parallel()
		h := newHost(t, wasmhooks.Options{}) // the default pool, smaller than the callers
		m := moduleOf("parity", parityModule())
		// Values one byte apart make requests one byte apart, so the answers alternate.
		ask := func(n int) (wasmhooks.Response, error) {
			return h.Validate(t.Context(), m, wasmhooks.Request{Value: strings.Repeat("x", n)})
		}
		resp, err := ask(1)
		if err != nil {
			t.Fatal(err)
		}
		first := resp.Valid
		var wg sync.WaitGroup
		for g := range 32 {
			wg.Go(func() {
				for i := range 32 {
					n := 1 + (g+i)%7
					want := first == (n%2 == 1)
					resp, err := ask(n)
					if err != nil {
						t.Errorf("Validate: %v", err)
						return
					}
					if resp.Valid != want {
						t.Errorf("Validate(%d bytes) = %+v, want valid %v", n, resp, want)
					}
				}
			})
		}
		wg.Wait()
	})
}

func TestCompilationCacheDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A hand-assembled module on the compiler, even under the race detector: the interpreter
	// has nothing to cache. BenchmarkCheck4MB shows what the cache saves for a Go module.
	m := moduleOf("minimal", minimalModule())
	for i := range 2 {
		h, err := wasmhooks.New(wasmhooks.Options{CacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if got := validate(t, h, m, "x", ""); !got.Valid {
			t.Errorf("host %d: Validate = %+v, want valid", i, got)
		}
		if err := h.Close(t.Context()); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if entries, err := os.ReadDir(dir); err != nil || len(entries) == 0 {
			t.Errorf("host %d left the cache dir empty (%v)", i, err)
		}
	}
}

// TestModuleCacheIsBounded fills the cache with distinct modules and checks that the least
// recently used one is dropped, and loaded again when it is next asked for.
func TestModuleCacheIsBounded(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	var loads atomic.Int32
	variant := func(i int) wasmhooks.Module {
		// Each alloc returns another address, so each module has another sha256.
		m := hookModule(i64Const(validAt<<32 | int64(len(validJSON))))
		m.funcs[0].body = i32Const(int32(1024 + i))
		mod := moduleOf(fmt.Sprint("variant-", i), m.bytes())
		load := mod.Load
		mod.Load = func() ([]byte, error) {
			loads.Add(1)
			return load()
		}
		return mod
	}
	first := variant(0)
	validate(t, h, first, "x", "")
	for i := 1; i < wasmhooks.MaxModules; i++ {
		validate(t, h, variant(i), "x", "")
		validate(t, h, first, "x", "") // keep the first one recently used
	}
	if n := loads.Load(); n != wasmhooks.MaxModules {
		t.Fatalf("%d loads for %d modules", n, wasmhooks.MaxModules)
	}
	validate(t, h, variant(wasmhooks.MaxModules), "x", "") // drops variant 1
	validate(t, h, first, "x", "")
	if n := loads.Load(); n != wasmhooks.MaxModules+1 {
		t.Errorf("first module loaded again although it was used last: %d loads", n)
	}
	validate(t, h, variant(1), "x", "")
	if n := loads.Load(); n != wasmhooks.MaxModules+2 {
		t.Errorf("variant 1 was not dropped: %d loads", n)
	}
}

// TestBrokenModuleIsRemembered checks that a stored module that breaks the ABI is not
// compiled again on every call, while a failing Load is retried.
func TestBrokenModuleIsRemembered(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	var loads atomic.Int32
	m := moduleOf("no-memory", func() []byte {
		nm := hookModule(i64Const(0))
		nm.memExport = ""
		return nm.bytes()
	}())
	load := m.Load
	m.Load = func() ([]byte, error) {
		loads.Add(1)
		return load()
	}
	for range 3 {
		_, err := h.Validate(t.Context(), m, request("x", ""))
		wantHookFailure(t, err, "module does not export memory")
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("broken module loaded %d times, want 1", n)
	}
}

func TestClock(t *testing.T) {
	t.Parallel()
	m := moduleOf("clock", clockModule())
	fixed := newHost(t, wasmhooks.Options{}) // the guest sees 2022
	if got := validate(t, fixed, m, "x", ""); got.Valid {
		t.Errorf("with the fixed clock the guest sees 2025 or later")
	}
	now := func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	set := newHost(t, wasmhooks.Options{Now: now})
	if got := validate(t, set, m, "x", ""); !got.Valid {
		t.Errorf("with Options.Now the guest sees a time before 2025")
	}
}

func TestClose(t *testing.T) {
	t.Parallel()
	m := moduleOf("minimal", minimalModule())

	h := newHost(t, wasmhooks.Options{})
	validate(t, h, m, "x", "")
	for range 2 {
		if err := h.Close(t.Context()); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	_, err := h.Validate(t.Context(), m, request("x", ""))
	wantHookFailure(t, err)
	if !errors.Is(err, wasmhooks.ErrClosed) {
		t.Errorf("Validate after Close = %v, want ErrClosed", err)
	}
	_, err = h.Check(t.Context(), minimalModule())
	if !errors.Is(err, wasmhooks.ErrClosed) {
		t.Errorf("Check after Close = %v, want ErrClosed", err)
	}

	unused := newHost(t, wasmhooks.Options{})
	if err := unused.Close(t.Context()); err != nil {
		t.Errorf("Close of an unused host: %v", err)
	}
}

func TestNoPool(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{PoolSize: -1})
	m := moduleOf("minimal", minimalModule())
	for range 3 {
		validate(t, h, m, "x", "")
	}
}

func TestNewRejectsBadLimits(t *testing.T) {
	t.Parallel()
	for _, l := range []wasmhooks.Limits{
		{CallTimeout: -time.Second},
		{MaxRequestBytes: -1},
		{MemoryLimitPages: 65537},
	} {
		_, err := wasmhooks.New(wasmhooks.Options{Limits: l})
		wantError(t, err, content.Invalid)
	}
}
