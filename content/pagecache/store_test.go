package pagecache_test

import (
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/pagecache"
)

const site = `
-- resources/collections/blog.yaml --
title: Blog
-- content/collections/blog/first.md --
---
title: First
status: published
---
Body.
-- content/collections/blog/second.md --
---
title: Second
status: published
---
Body.
-- content/globals/site.yaml --
name: Site
-- content/navigation/main.yaml --
tree: []
`

// cached opens a store whose changes purge a cache holding three pages: /first (reads blog/first
// and the navigation), /second (reads blog/second) and /about (reads the site global).
func cached(t *testing.T, dir string, o fsstore.Options) (*fsstore.Store, *pagecache.Cache) {
	t.Helper()
	c, err := pagecache.New(pagecache.Options{Driver: pagecache.NewMemory(1 << 24)})
	if err != nil {
		t.Fatal(err)
	}
	o.Dir, o.NoSync, o.Log = dir, true, slog.New(slog.DiscardHandler)
	o.OnContentChange = func(ch fsstore.Change) { c.Purge(pagecache.StoreChange(string(ch.Kind), ch.Collection, ch.Name)) }
	st, err := fsstore.Open(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for key, read := range map[string]func(*pagecache.Recorder){
		"default|/first":  func(r *pagecache.Recorder) { r.Entry("blog", "first"); r.Navigation("main") },
		"default|/second": func(r *pagecache.Recorder) { r.Entry("blog", "second") },
		"default|/about":  func(r *pagecache.Recorder) { r.Global("site") },
	} {
		rec := pagecache.NewRecorder()
		read(rec)
		if _, err := c.Put(key, c.Begin(), 200, http.Header{"Content-Type": {"text/html"}}, []byte(key), rec); err != nil {
			t.Fatal(err)
		}
	}
	return st, c
}

func has(c *pagecache.Cache, key string) bool { _, ok := c.Get(key); return ok }

func edit(t *testing.T, st *fsstore.Store, slug string) {
	t.Helper()
	cur, err := st.Entry("blog", slug)
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Title = "Edited " + slug
	if _, err := st.UpdateEntry("blog", slug, cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
}

// An API write (through the store) purges exactly the pages that read what it changed.
func TestInvalidationFromAPIWrites(t *testing.T) {
	st, c := cached(t, contenttest.WriteSite(t, site), fsstore.Options{Watch: fsstore.WatchNone})
	edit(t, st, "first")
	if has(c, "default|/first") || !has(c, "default|/second") || !has(c, "default|/about") {
		t.Fatal("entry write purged the wrong pages")
	}
	if _, err := st.SaveGlobal("site", nil, ""); err != nil {
		t.Fatal(err)
	}
	if has(c, "default|/about") || !has(c, "default|/second") {
		t.Fatal("global write purged the wrong pages")
	}
}

// A hand edit the watcher picks up purges the same way.
func TestInvalidationFromHandEdits(t *testing.T) {
	dir := contenttest.WriteSite(t, site)
	st, c := cached(t, dir, fsstore.Options{Watch: fsstore.WatchNotify})
	if _, err := st.EntryMeta("blog", "first"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "content/navigation/main.yaml"), []byte("tree: []\n# by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "content/collections/blog/second.md"), []byte("---\ntitle: By hand\nstatus: published\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for (has(c, "default|/first") || has(c, "default|/second")) && time.Now().Before(deadline) {
		st.Generation() // a request applies pending notifications
		time.Sleep(10 * time.Millisecond)
	}
	if has(c, "default|/first") || has(c, "default|/second") || !has(c, "default|/about") {
		t.Fatalf("after hand edits: first %v second %v about %v", has(c, "default|/first"), has(c, "default|/second"), has(c, "default|/about"))
	}
}

// A read-only frontend purges what another process's write changed when it reads the
// generation file (once per request).
func TestInvalidationFromGenerationFile(t *testing.T) {
	dir := contenttest.WriteSite(t, site)
	w, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, Snapshot: true, Watch: fsstore.WatchGeneration, NoSync: true, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.WriteSnapshot(t.Context()); err != nil {
		t.Fatal(err)
	}
	r, c := cached(t, dir, fsstore.Options{Snapshot: true, ReadOnly: true, Watch: fsstore.WatchGeneration})
	r.Refresh()
	edit(t, w, "second")
	if !has(c, "default|/second") {
		t.Fatal("purged before the reader looked")
	}
	r.Refresh()
	if has(c, "default|/second") || !has(c, "default|/first") || !has(c, "default|/about") {
		t.Fatal("generation file purged the wrong pages")
	}
}
