package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"cms/content/pagecache"
	"cms/runtime/config"
)

// cmdCache operates the static page cache (docs/static-cache.md):
//
//	cms cache clear [--site DIR]   remove every page the file driver stored
//	cms cache warm [--site DIR] [--handle H] [--concurrency N]
//	                               request every routed published page (cachewarm.go)
func cmdCache(ctx context.Context, e env, args []string) error {
	usage := "usage: cms " + commands()["cache"].usage
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, usage)
		return exitError(2)
	}
	sub, args := args[0], args[1:]
	if strings.HasPrefix(sub, "-") { // -h, or flags before the subcommand
		fl := newFlags("cache", e)
		fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
		if err := fl.Parse(append([]string{sub}, args...)); err != nil {
			return err
		}
		fmt.Fprintln(e.stderr, usage)
		return exitError(2)
	}
	fl := newFlags("cache "+sub, e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	var handle *string
	var conc *int
	if sub == "warm" {
		handle = fl.String("handle", "", "warm only this configured site (its handle; default every site)")
		conc = fl.Int("concurrency", 4, "pages requested at once (1 to 64)")
	}
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() != 0 {
		fmt.Fprintln(e.stderr, usage)
		return exitError(2)
	}
	switch sub {
	case "clear":
		return cacheClear(e, *site)
	case "warm":
		return cacheWarm(ctx, e, *site, *handle, *conc)
	}
	fmt.Fprintln(e.stderr, usage)
	return fmt.Errorf("unknown cache command %q", sub)
}

func cacheClear(e env, site string) error {
	cfg, _, err := config.Load(site, e.getenv)
	if err != nil {
		return err
	}
	if err := requireSite(cfg, "--site"); err != nil {
		return err
	}
	if cfg.StaticCache.Driver != "file" {
		return fmt.Errorf("cache clear: staticCache.driver is %s: its pages live in the serving process, which a restart clears", cfg.StaticCache.Driver)
	}
	dir := cfg.StaticCache.StoragePath
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cfg.SiteDir, dir)
	}
	d, err := pagecache.OpenFile(dir, pagecache.FileOptions{})
	if err != nil {
		return err
	}
	defer d.Close()
	n, err := d.Clear()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: cleared %d cached pages\n", dir, n)
	return nil
}
