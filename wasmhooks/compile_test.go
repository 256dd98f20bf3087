package wasmhooks_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/wasmhooks"
)

// slowModule is a hook that passes the pre-scan but takes seconds to compile: besides alloc
// and validate it has 20 functions of 3,000 br_ifs in a row, each about 0.1 s of CPU for
// wazero's compiler (ten times that under the race detector).
func slowModule() []byte {
	m := hookModule(i64Const(validAt<<32 | int64(len(validJSON))))
	for range 20 {
		m.funcs = append(m.funcs, asmFunc{body: brIfs(3000)})
	}
	return m.bytes()
}

// compilerHost is a Host on wazero's compiler even under the race detector (see newHost):
// only the compiler can be stopped.
func compilerHost(t testing.TB, opts wasmhooks.Options) *wasmhooks.Host {
	t.Helper()
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	h, err := wasmhooks.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

// TestCompileTimeout checks that a compile that outlives CompileTimeout is stopped and the
// module refused, and that the refusal is not remembered: a loaded machine may have caused it.
// The limit runs out 50 ms after the compile starts: the compile takes seconds, so a compile
// that were not stopped would succeed.
func TestCompileTimeout(t *testing.T) {
	t.Parallel()
	if err := wasmhooks.Prescan(slowModule()); err != nil {
		t.Fatalf("the slow module must pass the pre-scan: %v", err)
	}
	var compiles atomic.Int32
	log := slog.New(logFunc(func(msg string) {
		if msg == "wasmhooks: compiling module" {
			compiles.Add(1)
		}
	}))
	tr := newTrigger()
	h := compilerHost(t, wasmhooks.Options{Log: log, Limits: wasmhooks.Limits{CompileTimeout: 7 * time.Second}})
	wasmhooks.SetTimer(h, tr.timer)
	tr.arm(50 * time.Millisecond)
	for range 2 {
		_, err := h.Check(t.Context(), slowModule())
		ce := wantError(t, err, content.Invalid)
		if ce.Message != "module did not compile within 7s" {
			t.Errorf("Message = %q", ce.Message)
		}
	}
	if n := compiles.Load(); n != 2 {
		t.Errorf("%d compiles, want 2: a compile that ran out of time is tried again", n)
	}
}

// TestCloseStopsCompile closes a Host while it compiles: the compile stops, and the Check
// waiting for it returns at once with ErrClosed.
func TestCloseStopsCompile(t *testing.T) {
	t.Parallel()
	compiling := make(chan struct{})
	var once sync.Once
	log := slog.New(logFunc(func(msg string) {
		if msg == "wasmhooks: compiling module" {
			once.Do(func() { close(compiling) })
		}
	}))
	h := compilerHost(t, wasmhooks.Options{Log: log, Limits: wasmhooks.Limits{CompileTimeout: time.Hour}})
	done := make(chan error, 1)
	go func() {
		_, err := h.Check(context.Background(), slowModule())
		done <- err
	}()
	<-compiling
	if err := h.Close(t.Context()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	err := <-done
	if !errors.Is(err, wasmhooks.ErrClosed) || !strings.Contains(err.Error(), "compile stopped") {
		t.Errorf("Check = %v, want the compile stopped by Close", err)
	}
}

// TestCallerLeavesCompile checks that a caller whose context ends stops waiting for a compile,
// which goes on for the next caller.
func TestCallerLeavesCompile(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	wasm := minimalModule()
	m := moduleOf("minimal", wasm)
	ctx, cancel := context.WithCancel(t.Context())
	// The compile cannot end before the caller has returned: Load waits for it.
	loaded, returned := make(chan struct{}), make(chan struct{})
	m.Load = func() ([]byte, error) {
		close(loaded)
		<-returned
		return wasm, nil
	}
	go func() { <-loaded; cancel() }()
	_, err := h.Validate(ctx, m, request("x", ""))
	close(returned)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Validate = %v, want the caller's cancellation", err)
	}
	m.Load = func() ([]byte, error) {
		t.Error("the module was loaded again: the compile did not go on")
		return wasm, nil
	}
	if got := validate(t, h, m, "x", ""); !got.Valid {
		t.Errorf("Validate = %+v, want valid", got)
	}
}

// logFunc is a slog.Handler that passes each message to f.
type logFunc func(msg string)

func (f logFunc) Enabled(context.Context, slog.Level) bool { return true }
func (f logFunc) Handle(_ context.Context, r slog.Record) error {
	f(r.Message)
	return nil
}
func (f logFunc) WithAttrs([]slog.Attr) slog.Handler { return f }
func (f logFunc) WithGroup(string) slog.Handler      { return f }
