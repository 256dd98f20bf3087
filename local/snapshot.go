package main

import (
	"context"
	"fmt"

	"cms/content/fsstore"
	"cms/content/query"
	"cms/runtime/config"
)

// cmdSnapshot writes the entry index snapshot of a site (.cms/index.snapshot), so the next
// process starts from one file read. Run it after copying a site into place (for instance onto
// EFS) when no writer function will run soon: read-only frontends cannot write it themselves.
func cmdSnapshot(ctx context.Context, e env, args []string) error {
	fl := newFlags("snapshot", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	cfg, _, err := config.Load(*site, e.getenv)
	if err != nil {
		return err
	}
	if err := requireSite(cfg, "--site"); err != nil {
		return err
	}
	st, err := openStore(withIndexProgress(ctx, e), cfg, false, true)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.WriteSnapshot(ctx); err != nil {
		return err
	}
	n := 0
	for _, c := range st.Collections() {
		if _, total, err := st.Entries(c.Handle, query.Query{Limit: 1}); err == nil {
			n += total
		}
	}
	info := st.IndexInfo()
	fmt.Fprintf(e.stdout, "%s: wrote %s (%d entries, generation %d)\n", cfg.SiteDir, fsstore.SnapshotFile, n, info.Generation)
	return nil
}
