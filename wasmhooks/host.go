package wasmhooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"cms/content"
)

// ABIVersion is the version of the hook ABI this package implements.
const ABIVersion = 1

// maxModules bounds the compiled modules a Host keeps; a site has a handful of hooks, and
// replaced uploads must not pile up in a long-running process.
const maxModules = 64

// maxCompiles bounds the modules compiled at once. A compile whose callers have gone on keeps
// its slot until it ends, so they cannot pile up.
const maxCompiles = 2

// compileWorkers is the number of goroutines wazero compiles one module with. With more than
// one, wazero checks the compile's context between functions, which is what lets
// Limits.CompileTimeout and Host.Close stop a compile; with one it never looks.
const compileWorkers = 2

// ErrClosed is the cause of the error returned by a Host that has been closed.
var ErrClosed = errors.New("wasmhooks: host is closed")

// Limits bound what a hook may use. A zero field takes its default from [DefaultLimits].
//
// InitTimeout is separate from CallTimeout because a new instance of a Go guest spends about
// 5 ms in _initialize on a fast machine and several times that on a Lambda with a fraction of
// a CPU; it is paid once per instance, not per call, and Check has already run it.
//
// CompileTimeout is a backstop: the pre-scan's limits (docs/hooks.md) already bound what a
// module costs to compile, to a few seconds of CPU at worst. A Go module of 8 MiB compiles in
// about 3 s of CPU, but a 3 MB one took over 20 s on a machine loaded with test suites, and a
// Lambda with a fraction of a CPU is slow too. A compile that runs out of time is not
// remembered: the next call tries again.
type Limits struct {
	MaxModuleBytes   int           // largest module accepted; default 8 MiB
	MemoryLimitPages uint32        // memory per instance in 64 KiB pages; default 1024 (64 MiB)
	CallTimeout      time.Duration // time for one call; default 100ms
	InitTimeout      time.Duration // time to instantiate, run _initialize and abi_version; default 1s
	CompileTimeout   time.Duration // time to compile a module; default 1 min
	MaxRequestBytes  int           // largest request JSON; default 64 KiB
	MaxResponseBytes int           // largest response JSON; default 4 KiB
	StderrBytes      int           // guest stderr kept per call for the log; default 4 KiB
}

// DefaultLimits returns the limits of hook ABI v1.
func DefaultLimits() Limits {
	return Limits{
		MaxModuleBytes:   8 << 20,
		MemoryLimitPages: 1024,
		CallTimeout:      100 * time.Millisecond,
		InitTimeout:      time.Second,
		CompileTimeout:   time.Minute,
		MaxRequestBytes:  64 << 10,
		MaxResponseBytes: 4 << 10,
		StderrBytes:      4 << 10,
	}
}

// withDefaults fills zero fields from DefaultLimits and rejects impossible values.
func (l Limits) withDefaults() (Limits, error) {
	d := DefaultLimits()
	if l.MaxModuleBytes == 0 {
		l.MaxModuleBytes = d.MaxModuleBytes
	}
	if l.MemoryLimitPages == 0 {
		l.MemoryLimitPages = d.MemoryLimitPages
	}
	if l.CallTimeout == 0 {
		l.CallTimeout = d.CallTimeout
	}
	if l.InitTimeout == 0 {
		l.InitTimeout = d.InitTimeout
	}
	if l.CompileTimeout == 0 {
		l.CompileTimeout = d.CompileTimeout
	}
	if l.MaxRequestBytes == 0 {
		l.MaxRequestBytes = d.MaxRequestBytes
	}
	if l.MaxResponseBytes == 0 {
		l.MaxResponseBytes = d.MaxResponseBytes
	}
	if l.StderrBytes == 0 {
		l.StderrBytes = d.StderrBytes
	}
	var errs []error
	if l.MaxModuleBytes < 0 || l.MaxRequestBytes < 0 || l.MaxResponseBytes < 0 || l.StderrBytes < 0 {
		errs = append(errs, errors.New("byte limits must not be negative"))
	}
	if l.CallTimeout < 0 || l.InitTimeout < 0 || l.CompileTimeout < 0 {
		errs = append(errs, errors.New("timeouts must not be negative"))
	}
	if l.MemoryLimitPages > 65536 {
		errs = append(errs, errors.New("MemoryLimitPages must be at most 65536 (4 GiB)"))
	}
	return l, errors.Join(errs...)
}

// Options configure a [Host].
type Options struct {
	// Limits bound each module, instance and call.
	Limits Limits
	// CacheDir holds wazero's compilation cache, so that a new process (a Lambda cold start)
	// skips compiling modules it has seen. It must be writable, e.g. under os.TempDir(); ""
	// keeps compiled code in memory only.
	CacheDir string
	// Log receives debug lines about compilation; nil discards them. Failures are returned,
	// not logged.
	Log *slog.Logger
	// Now is the wall clock guests see. nil gives every instance a fixed clock starting at
	// 2022-01-01T00:00:00Z, so hooks are deterministic.
	Now func() time.Time
	// PoolSize is the number of idle instances kept per module: 0 means 4, a negative value
	// keeps none.
	PoolSize int
}

// Host runs validation hooks. It owns one wazero runtime, the compiled modules and their idle
// instances. Its methods are safe for concurrent use.
type Host struct {
	limits    Limits
	log       *slog.Logger
	now       func() time.Time
	poolSize  int
	cacheDir  string
	interpret bool // tests only, see export_test.go
	// timeout bounds compiles, instantiations and calls: context.WithTimeout, or a timer of
	// the tests'.
	timeout func(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc)

	// engine creates the runtime on first use, so that processes that never validate with a
	// hook pay nothing. It is called with mu held, so that Close cannot miss a runtime.
	engine func() (*engine, error)

	// life ends when the Host closes, stopping the compiles in flight; compiles holds a token
	// for each compile running, and builds counts them so that Close can wait for them.
	life     context.Context
	endLife  context.CancelFunc
	compiles chan struct{}
	builds   sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	started bool
	clock   uint64             // counts module uses, for dropping the least recently used
	modules map[string]*module // by sha256
}

// engine is the lazily created part of a Host.
type engine struct {
	rt    wazero.Runtime
	cache wazero.CompilationCache // nil without Options.CacheDir
	wasi  map[string]signature    // the WASI functions the host provides, by name
}

// wasiModule is the one module hooks may import from.
const wasiModule = wasi_snapshot_preview1.ModuleName

// New returns a Host. It only checks opts; the runtime is created on first use.
func New(opts Options) (*Host, error) {
	const op = "wasmhooks.New"
	limits, err := opts.Limits.withDefaults()
	if err != nil {
		return nil, &content.Error{Kind: content.Invalid, Op: op, Message: "invalid hook limits: " + err.Error(), Err: err}
	}
	h := &Host{
		limits:   limits,
		log:      opts.Log,
		now:      opts.Now,
		poolSize: opts.PoolSize,
		cacheDir: opts.CacheDir,
		timeout:  context.WithTimeout,
		compiles: make(chan struct{}, maxCompiles),
		modules:  make(map[string]*module),
	}
	h.life, h.endLife = context.WithCancel(context.Background())
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	switch {
	case h.poolSize == 0:
		h.poolSize = 4
	case h.poolSize < 0:
		h.poolSize = 0
	}
	h.engine = sync.OnceValues(h.newEngine)
	return h, nil
}

// newEngine creates the wazero runtime and instantiates WASI in it.
func (h *Host) newEngine() (*engine, error) {
	// The runtime outlives any one request, so it gets no request context.
	ctx := context.Background()
	cfg := wazero.NewRuntimeConfig()
	if h.interpret {
		cfg = wazero.NewRuntimeConfigInterpreter()
	}
	// CloseOnContextDone is what stops an endless loop: without it a call ignores its deadline.
	// Without debug info wazero skips a module's DWARF sections instead of keeping them to
	// read source lines into every trap's stack trace, a read an untrusted module could make
	// as slow as it likes, outside any time limit. Hooks are built stripped anyway.
	cfg = cfg.WithCloseOnContextDone(true).WithMemoryLimitPages(h.limits.MemoryLimitPages).WithDebugInfoEnabled(false)
	e := &engine{}
	if h.cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(h.cacheDir)
		if err != nil {
			return nil, fmt.Errorf("open compilation cache %s: %w", h.cacheDir, err)
		}
		e.cache = cache
		cfg = cfg.WithCompilationCache(cache)
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, e.rt); err != nil {
		_ = e.close(ctx) // the instantiation error is the one to report
		return nil, fmt.Errorf("instantiate WASI: %w", err)
	}
	defs := e.rt.Module(wasiModule).ExportedFunctionDefinitions()
	e.wasi = make(map[string]signature, len(defs))
	for name, d := range defs {
		e.wasi[name] = sigOf(d)
	}
	h.log.Debug("wasmhooks: runtime started", "cacheDir", h.cacheDir, "interpreter", h.interpret)
	return e, nil
}

func (e *engine) close(ctx context.Context) error {
	err := e.rt.Close(ctx)
	if e.cache != nil {
		err = errors.Join(err, e.cache.Close(ctx))
	}
	return err
}

// start returns the engine, creating it on first use.
func (h *Host) start() (*engine, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	h.started = true
	return h.engine()
}

// Close closes the runtime, every compiled module and every instance, including those in use:
// their calls fail. It stops the compiles in flight, which wazero does between two functions,
// and waits for them. Later calls of the Host's methods return an error. Close is idempotent.
func (h *Host) Close(ctx context.Context) error {
	h.mu.Lock()
	wasClosed, started := h.closed, h.started
	h.closed = true
	h.modules = nil
	h.mu.Unlock()
	h.endLife()
	if wasClosed || !started {
		return nil
	}
	h.builds.Wait()
	e, err := h.engine()
	if err != nil {
		return nil // the runtime never started, so there is nothing to close
	}
	if err := e.close(ctx); err != nil {
		return content.Internalf("wasmhooks.Close", "", fmt.Errorf("close runtime: %w", err))
	}
	return nil
}
