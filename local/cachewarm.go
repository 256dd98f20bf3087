package main

import (
	"context"
	"fmt"
	"log/slog"

	"cms/runtime/cachewarm"
	"cms/runtime/config"
	groupsite "cms/runtime/groups/site"
	"cms/runtime/wire"
)

// maxWarmFailures bounds the failures the summary lists.
const maxWarmFailures = 20

// cacheWarm requests every routed published URL (the home page, each published entry with a
// route, each public term) of the configured sites through the public website in this process,
// so the file driver holds them when the server starts or before traffic arrives.
func cacheWarm(ctx context.Context, e env, dir, handle string, concurrency int) error {
	cfg, _, err := config.Load(dir, e.getenv)
	if err != nil {
		return err
	}
	if err := requireSite(cfg, "--site"); err != nil {
		return err
	}
	switch {
	case !cfg.StaticCache.Enabled:
		return fmt.Errorf("cache warm: staticCache.enabled is false: no process would serve the pages")
	case cfg.StaticCache.Driver != "file":
		return fmt.Errorf("cache warm: staticCache.driver is %s: its pages live in the serving process; warm a file cache", cfg.StaticCache.Driver)
	case concurrency < 1 || concurrency > 64:
		return fmt.Errorf("cache warm: --concurrency must be 1 to 64, not %d", concurrency)
	}
	cfg.Watch = "none"
	svc, err := wire.NewServices(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer svc.Close()
	h, err := groupsite.Build(svc)
	if err != nil {
		return err
	}
	targets, err := cachewarm.Targets(svc, handle)
	if err != nil {
		return err
	}
	progress := max(1, len(targets)/20)
	res, err := cachewarm.Run(ctx, h, targets, concurrency, func(n, total int) {
		if n%progress == 0 || n == total {
			fmt.Fprintf(e.stderr, "cache warm: %d/%d\n", n, total)
		}
	})
	if err != nil {
		return err
	}
	failures := res.Failed
	fmt.Fprintf(e.stdout, "cache warm: %d pages requested: %d stored, %d already cached, %d not stored, %d failed\n",
		res.Requested, res.Stored, res.Cached, res.Requested-res.Stored-res.Cached-len(failures), len(failures))
	if len(failures) == 0 {
		return nil
	}
	for i, f := range failures {
		if i == maxWarmFailures {
			fmt.Fprintf(e.stdout, "  ... and %d more\n", len(failures)-i)
			break
		}
		fmt.Fprintf(e.stdout, "  %s\n", f)
	}
	return fmt.Errorf("cache warm: %d of %d pages failed", len(failures), len(targets))
}
