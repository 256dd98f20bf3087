package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime/debug"
	"strings"
	"time"

	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/serve"
	"cms/runtime/wire"
)

func cmdServe(ctx context.Context, e env, args []string) error {
	fl := newFlags("serve", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	addr := fl.String("addr", "", "listen address HOST:PORT (default :$PORT or :3000)")
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
	log := wire.NewLogger(cfg, e.stdout)
	for _, w := range warns {
		log.Warn(string(w))
	}
	if a := e.getenv("CMS_PPROF_ADDR"); a != "" {
		stop, err := servePprof(a, log)
		if err != nil {
			return err
		}
		defer stop()
	}
	svc, err := withStartupGC(func() (*wire.Services, error) { return wire.NewServices(ctx, cfg, log) })
	if err != nil {
		return err
	}
	defer svc.Close()
	for _, p := range append(svc.Store.Problems(), checkBlueprintLists(svc.Store, cfg)...) {
		log.Warn("site problem", "file", p.File, "problem", p.Message)
	}
	mux, err := groups.Mux(svc)
	if err != nil {
		return err
	}
	listen := listenAddr(addr, e.getenv, cfg.Port)
	return serve.Local(ctx, listen, serve.Stack(mux, log), log, func(a net.Addr) {
		url := a.String()
		if strings.HasPrefix(url, "[::]:") {
			url = "localhost:" + strings.TrimPrefix(url, "[::]:")
		}
		log.Info("serving", "site", cfg.SiteDir, "addr", a.String(), "env", cfg.Env, "read_only", svc.Config.ReadOnly)
		fmt.Fprintf(e.stdout, "cms is serving %s at http://%s (public API: http://%s%s/entries/{collection})\n", cfg.SiteDir, url, url, cfg.Public.BasePath)
		if ready != nil {
			ready(a)
		}
	})
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

// withStartupGC runs build (which reads every entry of the site when there is no index
// snapshot) with garbage collection deferred until the heap nears startupMemoryLimit, then
// restores the defaults and hands the garbage back. Start-up allocates mostly short-lived
// parsing garbage next to a growing index, and collecting it every time the heap doubles cost
// about a fifth of a cold start on the 100,000-entry benchmark site. This is process-wide
// tuning, so it lives in main, not in the store.
func withStartupGC(build func() (*wire.Services, error)) (*wire.Services, error) {
	gc := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startupMemoryLimit)
	defer func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
		debug.FreeOSMemory()
	}()
	return build()
}
