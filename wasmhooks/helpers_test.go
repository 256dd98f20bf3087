package wasmhooks_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/wasmhooks"
)

// newHost returns a Host with test limits, closed when the test ends. Zero fields of opts get
// the defaults of the tests: the timeouts are callTimeout, generous enough for a loaded
// machine, and the log is discarded.
func newHost(t testing.TB, opts wasmhooks.Options) *wasmhooks.Host {
	t.Helper()
	if opts.Limits.CallTimeout == 0 {
		opts.Limits.CallTimeout = callTimeout
	}
	if opts.Limits.InitTimeout == 0 {
		opts.Limits.InitTimeout = callTimeout
	}
	if opts.Limits.CompileTimeout == 0 {
		opts.Limits.CompileTimeout = callTimeout
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	h, err := wasmhooks.New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if raceEnabled {
		wasmhooks.UseInterpreter(h)
	}
	t.Cleanup(func() {
		if err := h.Close(t.Context()); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return h
}

// readModule returns testdata/{name}.wasm.
func readModule(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".wasm"))
	if err != nil {
		t.Fatalf("read module: %v (rebuild with go generate)", err)
	}
	return b
}

// moduleOf names wasm as a stored module would.
func moduleOf(name string, wasm []byte) wasmhooks.Module {
	sum := sha256.Sum256(wasm)
	return wasmhooks.Module{
		Name:   name,
		SHA256: hex.EncodeToString(sum[:]),
		Load:   func() ([]byte, error) { return wasm, nil },
	}
}

// testModule is moduleOf for testdata/{name}.wasm.
func testModule(t testing.TB, name string) wasmhooks.Module {
	t.Helper()
	return moduleOf(name, readModule(t, name))
}

// wantError fails the test unless err is a *content.Error of kind k.
func wantError(t testing.TB, err error, k content.Kind) *content.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("error = nil, want a %v error", k)
	}
	ce, ok := errors.AsType[*content.Error](err)
	if !ok {
		t.Fatalf("error = %v (%T), want a *content.Error", err, err)
	}
	if ce.Kind != k {
		t.Fatalf("error kind = %v, want %v; error: %v", ce.Kind, k, err)
	}
	return ce
}

// validate calls h.Validate with value and arg, failing the test on an error.
func validate(t testing.TB, h *wasmhooks.Host, m wasmhooks.Module, value any, arg string) wasmhooks.Response {
	t.Helper()
	resp, err := h.Validate(t.Context(), m, request(value, arg))
	if err != nil {
		t.Fatalf("Validate(%v): %v", value, err)
	}
	return resp
}

func request(value any, arg string) wasmhooks.Request {
	return wasmhooks.Request{
		Form:   "contact",
		Field:  "field",
		Value:  value,
		Params: wasmhooks.Params{Arg: arg},
		Data:   map[string]any{"field": value},
		Locale: "en",
	}
}

// trigger stands in for the clock of a Host's time limits (see wasmhooks.SetTimer): a limit
// runs out when the test fires it, not when some time has passed, so that a loaded machine
// cannot make a limit run out early or a test wait for it.
type trigger struct {
	mu    sync.Mutex
	fired chan struct{} // closed by fire; limits started since the last fire run out then
	after time.Duration // if not 0, a limit started while armed runs out this long after
}

func newTrigger() *trigger { return &trigger{fired: make(chan struct{})} }

// fire makes the limits started since the last fire run out.
func (tr *trigger) fire() {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	close(tr.fired)
	tr.fired = make(chan struct{})
}

// arm makes each limit started from now on run out d after it starts; disarm undoes it.
func (tr *trigger) arm(d time.Duration) { tr.mu.Lock(); tr.after = d; tr.mu.Unlock() }
func (tr *trigger) disarm()             { tr.arm(0) }

// timer is the function for wasmhooks.SetTimer.
func (tr *trigger) timer(parent context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
	tr.mu.Lock()
	fired, after := tr.fired, tr.after
	tr.mu.Unlock()
	ctx, cancel := context.WithCancel(parent)
	out := &triggered{Context: ctx}
	var expire <-chan time.Time
	if after > 0 {
		expire = time.After(after)
	}
	go func() {
		select {
		case <-fired:
		case <-expire:
		case <-ctx.Done():
			return
		}
		out.ranOut.Store(true)
		cancel()
	}()
	return out, cancel
}

// triggered is a context whose end, when the trigger fired, is a deadline, as wazero and the
// Host tell a time limit apart from a cancellation by ctx.Err().
type triggered struct {
	context.Context
	ranOut atomic.Bool
}

func (c *triggered) Err() error {
	if c.ranOut.Load() {
		return context.DeadlineExceeded
	}
	return c.Context.Err()
}

// hostWithTrigger is newHost whose time limits run out only when tr says so.
func hostWithTrigger(t testing.TB, opts wasmhooks.Options, tr *trigger) *wasmhooks.Host {
	t.Helper()
	h := newHost(t, opts)
	wasmhooks.SetTimer(h, tr.timer)
	return h
}
