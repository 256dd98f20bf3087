package main

import (
	"context"
	"fmt"
	"log/slog"

	"cms/content/fsstore"
	"cms/runtime/config"
)

// A checkFunc adds problems found in an open store (blueprint rules, hooks, ...).
type checkFunc func(st *fsstore.Store, cfg config.Config) []fsstore.Problem

// siteChecks are the checks `cms check` runs beyond the store's own load problems.
func siteChecks() []checkFunc {
	return []checkFunc{checkBlueprints, checkFormsAndHooks, checkBlueprintLists}
}

func cmdCheck(ctx context.Context, e env, args []string) error {
	fl := newFlags("check", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	cfg, warns, err := config.Load(*site, e.getenv)
	if err != nil {
		fmt.Fprintln(e.stdout, err)
		return exitError(1)
	}
	for _, w := range warns {
		fmt.Fprintln(e.stdout, "warning:", w)
	}
	st, err := fsstore.Open(withIndexProgress(ctx, e), fsstore.Options{Dir: cfg.SiteDir, ContentDir: cfg.ContentPath, ResourcesDir: cfg.ResourcesPath,
		UsersDir: cfg.UsersPath, AssetsDir: cfg.AssetsPath, ReadOnly: true, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	defer st.Close()
	problems := st.Problems()
	for _, c := range siteChecks() {
		problems = append(problems, c(st, cfg)...)
	}
	for _, p := range problems {
		fmt.Fprintf(e.stdout, "%s: %s\n", p.File, p.Message)
	}
	if len(problems) > 0 {
		fmt.Fprintf(e.stdout, "%d problem(s) found in %s\n", len(problems), cfg.SiteDir)
		return exitError(1)
	}
	fmt.Fprintf(e.stdout, "%s: no problems found (%d collections)\n", cfg.SiteDir, len(st.Collections()))
	return nil
}
