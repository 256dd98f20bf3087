package main

import (
	"context"
	"fmt"
	"net"
	"strings"

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
	return serveSite(ctx, e, *site, *addr, nil)
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
	svc, err := wire.NewServices(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer svc.Close()
	for _, p := range svc.Store.Problems() {
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
