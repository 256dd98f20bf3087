package wasmhooks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// module is one compiled module with its idle instances.
type module struct {
	sha     string
	ready   chan struct{} // closed when compiling has ended; compiled or err is set by then
	code    wazero.CompiledModule
	exports []string
	err     error

	// Guarded by Host.mu.
	lastUse uint64
	idle    []*instance
	dropped bool // no longer in Host.modules: its instances are closed, not pooled
}

// module returns the compiled module with the given sha256, compiling the bytes from load if
// this Host has not seen it. Concurrent callers asking for the same module share one compile,
// which runs on its own goroutine: a caller whose ctx ends stops waiting, and the compile goes
// on for the next one, within Limits.CompileTimeout. A module that breaks the ABI or a limit
// gives a *hookError, remembered like a compiled module; a failure of load, and a compile that
// ran out of time, are returned and forgotten.
func (h *Host) module(ctx context.Context, e *engine, sha string, load func() ([]byte, error)) (*module, error) {
	for {
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return nil, ErrClosed
		}
		h.clock++
		m, ok := h.modules[sha]
		if ok {
			m.lastUse = h.clock
			h.mu.Unlock()
			if err := h.wait(ctx, m); errors.Is(err, errNotStarted) {
				continue // its first caller left before it could start: try again
			} else if err != nil {
				return nil, err
			}
			return m, m.err
		}
		m = &module{sha: sha, ready: make(chan struct{}), lastUse: h.clock}
		evicted := h.evictLocked()
		h.modules[sha] = m
		h.builds.Add(1) // under mu, so that Close waits for it
		h.mu.Unlock()
		for _, old := range evicted {
			old.close(ctx)
		}
		// Take a compile slot as the caller, so that compiles abandoned by their callers
		// cannot queue up: only maxCompiles run, and no more wait.
		select {
		case h.compiles <- struct{}{}:
		case <-ctx.Done():
			h.finish(m, fmt.Errorf("%w: %w", errNotStarted, ctx.Err()))
			h.builds.Done()
			return nil, fmt.Errorf("wait to compile module %s: %w", sha, ctx.Err())
		case <-h.life.Done():
			h.finish(m, ErrClosed)
			h.builds.Done()
			return nil, ErrClosed
		}
		go func() {
			defer h.builds.Done()
			defer func() { <-h.compiles }()
			h.finish(m, h.compile(e, m, load))
		}()
		if err := h.wait(ctx, m); err != nil {
			return nil, err
		}
		return m, m.err
	}
}

// errNotStarted is the error of a module whose compile never started.
var errNotStarted = errors.New("compile not started")

// wait waits until m has compiled or ctx ends. It reports only the end of ctx and a compile
// that never started; the outcome of the compile is m.err.
func (h *Host) wait(ctx context.Context, m *module) error {
	select {
	case <-m.ready:
		if errors.Is(m.err, errNotStarted) {
			return m.err
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for module %s to compile: %w", m.sha, ctx.Err())
	}
}

// finish records the outcome of compiling m and wakes its waiters.
func (h *Host) finish(m *module, err error) {
	m.err = err
	if he, bad := errors.AsType[*hookError](err); err != nil && (!bad || he.transient) {
		// Forget a failure to load, so that a later call retries: it may be passing. A module
		// that breaks the ABI or a limit stays refused, so it is not compiled again on every call.
		h.mu.Lock()
		if h.modules[m.sha] == m {
			delete(h.modules, m.sha)
		}
		h.mu.Unlock()
	}
	close(m.ready)
}

// evicted is what remains to be closed of a module dropped from the cache.
type evicted struct {
	code wazero.CompiledModule // nil if it failed to compile
	idle []*instance
}

// close closes the idle instances and the compiled code. Instances in use keep working:
// wazero allows closing compiled code under running instances, and release closes them.
func (ev evicted) close(ctx context.Context) {
	for _, in := range ev.idle {
		in.close()
	}
	if ev.code != nil {
		_ = ev.code.Close(ctx) // only frees memory; nothing to report
	}
}

// evictLocked removes the least recently used modules while the Host holds too many, and
// returns what is to be closed once h.mu is released.
func (h *Host) evictLocked() []evicted {
	var out []evicted
	for len(h.modules) >= maxModules {
		var lru *module
		for _, m := range h.modules {
			select {
			case <-m.ready:
			default:
				continue // still compiling: its caller is about to use it
			}
			if lru == nil || m.lastUse < lru.lastUse {
				lru = m
			}
		}
		if lru == nil {
			break
		}
		delete(h.modules, lru.sha)
		lru.dropped = true
		out = append(out, evicted{code: lru.code, idle: lru.idle})
		lru.idle = nil
	}
	return out
}

// compile loads, verifies and compiles a module: its bytes must pass the pre-scan before
// wazero sees them. It runs under the Host's life, not a caller's context, within
// Limits.CompileTimeout.
func (h *Host) compile(e *engine, m *module, load func() ([]byte, error)) error {
	wasm, err := load()
	if err != nil {
		return err
	}
	if err := checkBytes(wasm, h.limits.MaxModuleBytes); err != nil {
		return err
	}
	sum := sha256.Sum256(wasm)
	if got := hex.EncodeToString(sum[:]); got != m.sha {
		return fmt.Errorf("module bytes have sha256 %s, want %s", got, m.sha)
	}
	stats, err := prescan(wasm, h.limits.MemoryLimitPages)
	if err != nil {
		return err
	}
	ctx, cancel := h.timeout(h.life, h.limits.CompileTimeout)
	defer cancel()
	h.log.Debug("wasmhooks: compiling module", "sha256", m.sha, "bytes", len(wasm), "functions", stats.Functions,
		"maxBlocks", stats.MaxBlocks, "compileCost", stats.ModuleCost)
	start := time.Now()
	code, err := e.rt.CompileModule(experimental.WithCompilationWorkers(ctx, compileWorkers), wasm)
	switch {
	case err != nil && h.life.Err() != nil:
		return fmt.Errorf("compile stopped: %w", ErrClosed)
	case err != nil && ctx.Err() != nil:
		// Not remembered: a loaded machine may have been the cause, and the pre-scan has bounded
		// what trying again costs.
		return &hookError{msg: fmt.Sprintf("module did not compile within %v", h.limits.CompileTimeout), err: err, transient: true}
	case err != nil:
		return &hookError{msg: "module does not compile: " + wasmError(err), err: err}
	}
	exports, err := e.inspect(code)
	if err != nil {
		_ = code.Close(h.life)
		return err
	}
	m.code, m.exports = code, exports
	h.log.Debug("wasmhooks: compiled module", "sha256", m.sha, "duration", time.Since(start))
	return nil
}

// checkBytes does the checks that need no compiling.
func checkBytes(wasm []byte, maxBytes int) error {
	if len(wasm) > maxBytes {
		return &hookError{msg: "module is larger than " + formatBytes(maxBytes)}
	}
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return &hookError{msg: "not a WebAssembly module"}
	}
	if v := wasm[4:8]; string(v) != "\x01\x00\x00\x00" {
		return &hookError{msg: fmt.Sprintf("unsupported WebAssembly binary version %d (want 1)", uint32(v[0])|uint32(v[1])<<8|uint32(v[2])<<16|uint32(v[3])<<24)}
	}
	return nil
}

// signature is the type of an ABI function, written as in the package doc.
type signature struct {
	params, results []api.ValueType
}

func (s signature) String() string {
	names := func(ts []api.ValueType) string {
		var b strings.Builder
		b.WriteByte('(')
		for i, t := range ts {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(api.ValueTypeName(t))
		}
		b.WriteByte(')')
		return b.String()
	}
	return names(s.params) + " -> " + names(s.results)
}

func (s signature) matches(d api.FunctionDefinition) bool {
	return slices.Equal(s.params, d.ParamTypes()) && slices.Equal(s.results, d.ResultTypes())
}

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
)

// abiExport is a function export of ABI v1.
type abiExport struct {
	name     string
	sig      signature
	required bool
}

// abiExports lists the function exports of ABI v1 in the order they are checked.
func abiExports() []abiExport {
	return []abiExport{
		{"alloc", signature{[]api.ValueType{i32}, []api.ValueType{i32}}, true},
		{"validate", signature{[]api.ValueType{i32, i32}, []api.ValueType{i64}}, true},
		{"_initialize", signature{}, false},
		{"dealloc", signature{[]api.ValueType{i32, i32}, nil}, false},
		{"abi_version", signature{nil, []api.ValueType{i32}}, false},
	}
}

// inspect checks a compiled module's imports and exports against ABI v1 and returns the names
// of its exports, sorted.
func (e *engine) inspect(code wazero.CompiledModule) ([]string, error) {
	for _, d := range code.ImportedFunctions() {
		mod, name, _ := d.Import()
		if mod != wasiModule {
			return nil, &hookError{msg: fmt.Sprintf("import %s.%s is not allowed: only %s", mod, name, wasiModule)}
		}
		want, ok := e.wasi[name]
		if !ok {
			return nil, &hookError{msg: fmt.Sprintf("import %s.%s is not provided: the host has no such WASI function", mod, name)}
		}
		if !want.matches(d) {
			return nil, &hookError{msg: fmt.Sprintf("import %s.%s has type %s, want %s", mod, name, sigOf(d), want)}
		}
	}
	for _, d := range code.ImportedMemories() {
		mod, name, _ := d.Import()
		return nil, &hookError{msg: fmt.Sprintf("import %s.%s is not allowed: a hook must define its own memory", mod, name)}
	}
	mems := code.ExportedMemories()
	if _, ok := mems["memory"]; !ok {
		return nil, &hookError{msg: "module does not export memory"}
	}
	funcs := code.ExportedFunctions()
	for _, x := range abiExports() {
		d, ok := funcs[x.name]
		if !ok {
			if x.required {
				return nil, &hookError{msg: "module does not export " + x.name}
			}
			continue
		}
		if !x.sig.matches(d) {
			return nil, &hookError{msg: fmt.Sprintf("export %s has type %s, want %s", x.name, sigOf(d), x.sig)}
		}
	}
	names := make([]string, 0, len(funcs)+len(mems))
	for n := range funcs {
		names = append(names, n)
	}
	for n := range mems {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

func sigOf(d api.FunctionDefinition) signature {
	return signature{d.ParamTypes(), d.ResultTypes()}
}

// formatBytes writes a limit the way people read it: 8 MiB, 64 KiB, 100 bytes.
func formatBytes(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
