package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"syscall"
	"time"

	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/serve"
	"cms/runtime/wire"
)

func cmdServe(ctx context.Context, e env, args []string) error {
	fl := newFlags("serve", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	addr := fl.String("addr", "", "listen address HOST:PORT (default :$PORT, else 127.0.0.1:3000 in development, :3000 in production)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	return serveSite(ctx, e, *site, *addr, e.ready)
}

// serveSite loads the configuration, builds every group and serves until ctx ends.
func serveSite(ctx context.Context, e env, site, addr string, ready func(net.Addr)) error {
	cfg, warns, err := config.Load(site, e.getenv)
	if err != nil {
		return err
	}
	// Access lines are batched once serving: a write system call per request costs more than
	// the line.
	logOut := serve.NewLogBuffer(e.stdout, 64<<10, 50*time.Millisecond)
	defer logOut.Close()
	log := wire.NewLogger(cfg, logOut)
	for _, w := range warns {
		log.Warn(string(w))
	}
	if err := requireSite(cfg, "--site"); err != nil {
		log.Warn("serving an empty site", "problem", err.Error()) // an empty folder may be a start
	}
	wire.SetMemoryLimit(cfg.Memory.LimitMiB, e.getenv, log)
	if a := e.getenv("CMS_PPROF_ADDR"); a != "" {
		stop, err := servePprof(a, log)
		if err != nil {
			return err
		}
		defer stop()
	}
	svc, err := withStartupGC(func() (*wire.Services, error) { return wire.NewServices(withIndexProgress(ctx, e), cfg, log) })
	if err != nil {
		return err
	}
	defer svc.Close()
	wire.SetDefaultMemoryLimit(ctx, cfg.Memory.LimitMiB, cfg.Memory.CacheMiB, svc.CachedBytes, e.getenv, log)
	for _, p := range append(svc.Store.Problems(), checkBlueprintLists(svc.Store, cfg)...) {
		log.Warn("site problem", "file", p.File, "problem", p.Message)
	}
	mux, err := groups.Mux(svc)
	if err != nil {
		return err
	}
	listen := listenAddr(addr, e.getenv, cfg.Port, cfg.Production())
	lim := serve.Limits{MaxConns: cfg.Server.MaxConnections, MaxConnsPerAddr: cfg.Server.MaxConnectionsPerAddress, BodyTimeout: cfg.Server.BodyTimeout}
	err = serve.Local(ctx, listen, serve.Stack(mux, log), log, lim, func(a net.Addr) {
		log.Info("serving", "site", cfg.SiteDir, "addr", a.String(), "env", cfg.Env, "read_only", svc.Config.ReadOnly)
		printAddresses(e.stdout, svc.Config, a)
		logOut.Batch() // from here on, mostly access lines
		if ready != nil {
			ready(a)
		}
	})
	if errors.Is(err, syscall.EADDRINUSE) {
		alt := otherPort(listen)
		return fmt.Errorf("%w (another server is using it; choose another address: --addr %s, or make dev ADDR=%s)", err, alt, alt)
	}
	return err
}

// otherPort suggests the next port on addr's host (loopback when the host is empty).
func otherPort(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	p, perr := strconv.Atoi(port)
	if err != nil || perr != nil || p <= 0 || p >= 65535 {
		return "127.0.0.1:3001"
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, strconv.Itoa(p+1))
}

// printAddresses tells the user where the Control Panel and the APIs are.
func printAddresses(w io.Writer, cfg config.Config, a net.Addr) {
	host := a.String()
	if h, port, err := net.SplitHostPort(host); err == nil {
		if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
			host = net.JoinHostPort("localhost", port)
		}
	}
	base := "http://" + host
	fmt.Fprintf(w, "cms is serving %s at %s\n", cfg.SiteDir, base)
	fmt.Fprintf(w, "  website:       %s/\n", base)
	if cfg.CP.Enabled {
		fmt.Fprintf(w, "  Control Panel: %s%s\n", base, cfg.CP.Path)
	} else {
		fmt.Fprintln(w, "  Control Panel: off")
	}
	fmt.Fprintf(w, "  public API:    %s%s/entries/{collection}\n", base, cfg.Public.BasePath)
	if cfg.GraphQL.Enabled {
		fmt.Fprintf(w, "  GraphQL:       %s%s\n", base, cfg.GraphQL.Path)
	}
}

// servePprof exposes net/http/pprof on its own loopback listener when CMS_PPROF_ADDR is set
// (opt-in, for profiling under `make bench`); it never shares the service's mux or port.
func servePprof(addr string, log *slog.Logger) (stop func(), err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("CMS_PPROF_ADDR: %w", err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("CMS_PPROF_ADDR %q: profiling is only served on a loopback address", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("CMS_PPROF_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("pprof listener stopped", "err", err)
		}
	}()
	log.Info("pprof enabled", "addr", ln.Addr().String())
	return func() { srv.Close() }, nil
}

// startupMemoryLimit bounds the heap while the entry index is built with the collector paused.
const startupMemoryLimit = 320 << 20

// startupGarbage is what a build must have allocated before its garbage is worth handing back
// at once: a start from the index snapshot allocates far less, and a forced collection there
// cost more than the rest of its start-up.
const startupGarbage = 64 << 20

// withStartupGC runs build (which reads every entry of the site when there is no index
// snapshot) with garbage collection deferred until the heap nears startupMemoryLimit, then
// restores the defaults and, when build allocated much, hands the garbage back in the
// background, so serving does not wait for the collection. Start-up allocates mostly
// short-lived parsing garbage next to a growing index, and collecting it every time the heap
// doubles cost about a fifth of a cold start on the 100,000-entry benchmark site. This is
// process-wide tuning, so it lives in main, not in the store.
func withStartupGC(build func() (*wire.Services, error)) (*wire.Services, error) {
	gc := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startupMemoryLimit)
	before := heapAllocated()
	defer func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
		if heapAllocated()-before >= startupGarbage {
			go debug.FreeOSMemory()
		}
	}()
	return build()
}

// heapAllocated is the bytes the process allocated on the heap so far (a cumulative count).
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
