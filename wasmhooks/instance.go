package wasmhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// hookError is a module that breaks ABI v1 or a guest that fails a call. msg describes the
// problem in terms safe to show whoever uploaded the module; err is the underlying cause.
type hookError struct {
	msg    string
	err    error
	stderr string // what the guest wrote to stderr during the failed call
	limit  string // the limit of the pre-scan the module exceeds, if that is the problem
	max    uint64 // and its value
	// transient marks a failure that may pass on another try, which is not remembered.
	transient bool
}

func (e *hookError) Error() string {
	s := e.msg
	if e.err != nil {
		cause := e.err.Error()
		_, trace, multiline := strings.Cut(cause, "\n")
		switch {
		case multiline && strings.HasSuffix(s, wasmError(e.err)):
			s += "\n" + trace // a trap: msg ends with its first line; keep the stack trace
		case !strings.HasSuffix(s, cause):
			s += ": " + cause
		}
	}
	if e.stderr != "" {
		s += fmt.Sprintf(" (guest stderr: %q)", e.stderr)
	}
	return s
}

func (e *hookError) Unwrap() error { return e.err }

// instance is one instantiated module. It is used by one goroutine at a time.
type instance struct {
	mod      api.Module
	mem      api.Memory
	alloc    api.Function
	validate api.Function
	stderr   *limitedBuffer
	stack    [2]uint64 // reused for every call, so a call allocates nothing in wazero
}

func (in *instance) close() {
	_ = in.mod.Close(context.Background()) // frees memory; there is nothing to report
}

// instance returns an idle instance of m, or a new one.
func (h *Host) instance(ctx context.Context, e *engine, m *module) (*instance, error) {
	h.mu.Lock()
	for len(m.idle) > 0 {
		in := m.idle[len(m.idle)-1]
		m.idle = m.idle[:len(m.idle)-1]
		if !in.mod.IsClosed() {
			h.mu.Unlock()
			return in, nil
		}
	}
	h.mu.Unlock()
	return h.instantiate(ctx, e, m)
}

// release returns a healthy instance to m's idle list, or closes it if the list is full.
func (h *Host) release(m *module, in *instance) {
	h.mu.Lock()
	keep := !h.closed && !m.dropped && len(m.idle) < h.poolSize && !in.mod.IsClosed()
	if keep {
		m.idle = append(m.idle, in)
	}
	h.mu.Unlock()
	if !keep {
		in.close()
	}
}

// instantiate creates an instance of m with the empty WASI configuration of ABI v1, runs its
// _initialize and checks its abi_version, all within InitTimeout.
func (h *Host) instantiate(ctx context.Context, e *engine, m *module) (*instance, error) {
	in := &instance{stderr: &limitedBuffer{max: h.limits.StderrBytes}}
	// An empty name keeps instances anonymous: other modules cannot import from them, and
	// instances of one module do not clash. No WithFS, WithEnv, WithArgs or sockets: the guest
	// gets nothing of the host. Stdout and stdin default to discard and EOF; walltime, nanotime
	// and random numbers default to deterministic fakes.
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions("_initialize").
		WithStderr(in.stderr)
	if now := h.now; now != nil {
		cfg = cfg.WithWalltime(func() (int64, int32) {
			t := now()
			return t.Unix(), int32(t.Nanosecond())
		}, sys.ClockResolution(time.Microsecond))
	}
	callCtx, cancel := h.timeout(ctx, h.limits.InitTimeout)
	defer cancel()
	mod, err := e.rt.InstantiateModule(callCtx, m.code, cfg)
	if err != nil {
		// No function name: the failure may be in linking, a start function or _initialize.
		return nil, callError(ctx, "initialisation", "", h.limits.InitTimeout, err, in.stderr)
	}
	in.mod = mod
	if mod.IsClosed() {
		// _initialize called proc_exit(0): wazero reports no error but closes the module.
		return nil, &hookError{msg: "initialisation exited", stderr: in.stderr.String()}
	}
	in.mem = mod.ExportedMemory("memory")
	in.alloc = mod.ExportedFunction("alloc")
	in.validate = mod.ExportedFunction("validate")
	if f := mod.ExportedFunction("abi_version"); f != nil {
		if err := f.CallWithStack(callCtx, in.stack[:]); err != nil {
			in.close()
			return nil, callError(ctx, "initialisation", "abi_version", h.limits.InitTimeout, err, in.stderr)
		}
		if v := int32(in.stack[0]); v != ABIVersion {
			in.close()
			return nil, &hookError{msg: fmt.Sprintf("abi_version returned %d, but this host speaks ABI %d", v, ABIVersion)}
		}
	}
	return in, nil
}

// call sends one request and returns the decoded response. Any error is a *hookError, and the
// instance must then be closed: its state is unknown.
func (h *Host) call(ctx context.Context, in *instance, what string, req []byte) (Response, error) {
	in.stderr.Reset()
	callCtx, cancel := h.timeout(ctx, h.limits.CallTimeout)
	defer cancel()

	in.stack[0] = uint64(len(req))
	if err := in.alloc.CallWithStack(callCtx, in.stack[:]); err != nil {
		return Response{}, callError(ctx, what, "alloc", h.limits.CallTimeout, err, in.stderr)
	}
	ptr := uint32(in.stack[0])
	if ptr == 0 {
		return Response{}, &hookError{msg: what + " failed: alloc returned 0", stderr: in.stderr.String()}
	}
	if !in.mem.Write(ptr, req) {
		return Response{}, &hookError{msg: fmt.Sprintf("%s failed: alloc returned %#x, which leaves no room for %d bytes in memory of %d bytes", what, ptr, len(req), in.mem.Size())}
	}

	in.stack[0], in.stack[1] = uint64(ptr), uint64(len(req))
	if err := in.validate.CallWithStack(callCtx, in.stack[:]); err != nil {
		return Response{}, callError(ctx, what, "validate", h.limits.CallTimeout, err, in.stderr)
	}
	packed := in.stack[0]
	if packed == 0 {
		return Response{}, &hookError{msg: what + " failed: validate reported a guest error", stderr: in.stderr.String()}
	}
	rptr, rlen := uint32(packed>>32), uint32(packed)
	if int64(rlen) > int64(h.limits.MaxResponseBytes) {
		return Response{}, &hookError{msg: fmt.Sprintf("%s failed: response of %d bytes is larger than %s", what, rlen, formatBytes(h.limits.MaxResponseBytes))}
	}
	view, ok := in.mem.Read(rptr, rlen)
	if !ok {
		return Response{}, &hookError{msg: fmt.Sprintf("%s failed: response at %#x+%d lies outside memory of %d bytes", what, rptr, rlen, in.mem.Size())}
	}
	// The view aliases guest memory, which the next call may change: copy it now.
	resp, err := decodeResponse(bytes.Clone(view))
	if err != nil {
		return Response{}, &hookError{msg: what + " returned a bad response: " + err.Error(), stderr: in.stderr.String()}
	}
	return resp, nil
}

// callError describes a failed call of fn ("" if unknown), which had the given time limit.
// ctx is the caller's context, without that limit, so that a deadline of the caller is told
// apart from it.
func callError(ctx context.Context, what, fn string, limit time.Duration, err error, stderr *limitedBuffer) error {
	where := ""
	if fn != "" {
		where = " in " + fn
	}
	var msg string
	var exit *sys.ExitError
	switch {
	case ctx.Err() != nil:
		msg = fmt.Sprintf("%s stopped%s: %v", what, where, context.Cause(ctx))
		err = errors.Join(err, ctx.Err()) // so that errors.Is finds the caller's reason
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("%s timed out after %v", what, limit)
	case errors.As(err, &exit):
		msg = fmt.Sprintf("%s exited with code %d%s", what, exit.ExitCode(), where)
	case strings.Contains(err.Error(), "wasm error:"):
		msg = fmt.Sprintf("%s trapped%s: %s", what, where, wasmError(err))
	default:
		msg = fmt.Sprintf("%s failed%s: %s", what, where, wasmError(err))
	}
	return &hookError{msg: msg, err: err, stderr: stderr.String()}
}

// wasmError returns the first line of a wazero error from "wasm error:" on, leaving out the
// stack trace and wazero's prefixes.
func wasmError(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	if i := strings.Index(s, "wasm error: "); i >= 0 {
		s = s[i:]
	}
	return s
}

// limitedBuffer keeps the first max bytes written to it and drops the rest, so a guest cannot
// make the host hold more than StderrBytes. Writes always succeed, as the guest expects.
type limitedBuffer struct {
	buf     []byte
	max     int
	dropped int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	n := min(len(p), b.max-len(b.buf))
	b.buf = append(b.buf, p[:n]...)
	b.dropped += len(p) - n
	return len(p), nil
}

// Reset empties the buffer for the next call.
func (b *limitedBuffer) Reset() {
	b.buf, b.dropped = b.buf[:0], 0
}

// String returns what was kept, noting how much was dropped.
func (b *limitedBuffer) String() string {
	if b.dropped > 0 {
		return fmt.Sprintf("%s... (%d more bytes)", b.buf, b.dropped)
	}
	return string(b.buf)
}
