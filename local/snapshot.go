package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/query"
	"cms/runtime/config"
)

// cmdSnapshot writes the entry index snapshot of a site (.cms/index.snapshot), so the next
// process starts from one file read. Run it after copying a site into place (for instance onto
// EFS) when no writer function will run soon: read-only frontends cannot write it themselves.
// With --sort it first sorts collections by the orders the frontends' queries use, which the
// snapshot then keeps (and writers keep up to date), so no frontend sorts on its first query.
func cmdSnapshot(ctx context.Context, e env, args []string) error {
	fl := newFlags("snapshot", e)
	site := fl.String("site", "", "site folder (default $CMS_SITE_DIR or .)")
	var sorts sortFlags
	fl.Var(&sorts, "sort", "an order for the snapshot to keep, COLLECTION:SORT as the API's sort parameter (posts:-rating, posts:title,-createdAt); repeat for more; the opposite direction comes with it")
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
	for _, s := range sorts {
		if err := sortForSnapshot(st, s); err != nil {
			return fmt.Errorf("--sort %s: %w", s, err)
		}
	}
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

// sortFlags are the values of a repeated --sort.
type sortFlags []string

func (f *sortFlags) String() string { return strings.Join(*f, " ") }

func (f *sortFlags) Set(v string) error {
	if len(*f) >= maxSnapshotSorts {
		return fmt.Errorf("at most %d orders", maxSnapshotSorts)
	}
	*f = append(*f, v)
	return nil
}

// maxSnapshotSorts bounds --sort: a collection keeps a few orders, and every write moves an
// entry in each.
const maxSnapshotSorts = 16

// sortForSnapshot has st sort a collection by spec (COLLECTION:SORT) and by its first key's
// other direction, as queries sorting by them would, so the snapshot written next keeps both.
func sortForSnapshot(st *fsstore.Store, spec string) error {
	handle, sort, ok := strings.Cut(spec, ":")
	if !ok || handle == "" || sort == "" {
		return errors.New("want COLLECTION:SORT, such as posts:-rating")
	}
	c, err := st.Collection(handle)
	if err != nil {
		return err
	}
	keys, err := query.ParseSort(sort)
	if err != nil {
		return err
	}
	bp, err := st.Blueprint(content.BlueprintCollections, c.Blueprint)
	if err != nil && !content.IsNotFound(err) {
		return err
	}
	q := query.Query{Sort: keys, Limit: 1}
	if err := q.CheckFields(c.Handle, query.KnownFields(c, bp)); err != nil {
		return err
	}
	if _, _, err := st.Entries(c.Handle, q); err != nil {
		return err
	}
	q.Sort = slices.Clone(keys)
	q.Sort[0].Desc = !q.Sort[0].Desc
	_, _, err = st.Entries(c.Handle, q)
	return err
}
