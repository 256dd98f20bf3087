package fsstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/query"
	"cms/content/search"
)

const snapSite = `
-- resources/collections/blog.yaml --
title: Blog
blueprint: blog
dated: true
-- resources/collections/pages.yaml --
title: Pages
sortable: true
defaultStatus: published
-- content/collections/blog/first.md --
---
title: First
status: published
createdAt: 2026-01-01T10:00:00.000Z
rating: 3
score: 2.5
tags: [go, yaml]
seo:
  title: The first
  noindex: false
  extra: null
---
Body of first.
-- content/collections/blog/second.md --
---
title: Second
status: draft
createdAt: 2026-02-01T10:00:00.000Z
---
Draft body.
-- content/collections/pages/home.md --
---
title: Home
status: published
order: 2
---
-- content/collections/pages/about.md --
---
title: About
status: published
order: 1
---
-- users/alice.yaml --
id: alice
email: alice@example.com
name: Alice
password_hash: scrypt:00:00
`

// open opens a store with the snapshot on; reader stores are read-only, and every store uses
// WatchGeneration (the Lambda mode) unless watch says otherwise.
func open(t testing.TB, dir string, readOnly bool, watch string) *fsstore.Store {
	t.Helper()
	if watch == "" {
		watch = fsstore.WatchGeneration
	}
	st, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, Snapshot: true, ReadOnly: readOnly, Watch: watch,
		NoSync: true, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// listing describes every entry of every collection in default order, metadata and data.
func listing(t testing.TB, st *fsstore.Store) string {
	t.Helper()
	var b strings.Builder
	for _, c := range st.Collections() {
		es, _, err := st.Entries(c.Handle, query.Query{})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			data, _ := json.Marshal(e.Data)
			fmt.Fprintf(&b, "%s/%s %q %s %s %s %s\n", c.Handle, e.Slug, e.Title, e.Status, e.CreatedAt, e.Version[:8], data)
		}
	}
	return b.String()
}

// snapshotWriter opens a writable store on a new site, which writes the first snapshot, and
// closes it.
func snapshotWriter(t testing.TB) (dir, want string) {
	t.Helper()
	dir = contenttest.WriteSite(t, snapSite)
	w := open(t, dir, false, fsstore.WatchNone)
	info := w.IndexInfo()
	if info.FromSnapshot || !slices.Equal(info.Rebuilt, []string{"blog", "pages"}) {
		t.Fatalf("first open: %+v, want everything rebuilt from files", info)
	}
	want = listing(t, w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{fsstore.SnapshotFile, fsstore.GenerationFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("writer left no %s: %v", f, err)
		}
	}
	return dir, want
}

// scramble overwrites every entry file with garbage of the same size and restores file and
// folder times, so only a store that reads no entry file still sees the old entries.
func scramble(t *testing.T, dir string) {
	t.Helper()
	root := filepath.Join(dir, "content", "collections")
	dirs := map[string]time.Time{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs[p] = st.ModTime()
			return nil
		}
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), int(st.Size())), 0o644); err != nil {
			return err
		}
		return os.Chtimes(p, st.ModTime(), st.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
	for p, m := range dirs {
		if err := os.Chtimes(p, m, m); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSnapshotLoadedByReadOnlyReader(t *testing.T) {
	t.Parallel()
	dir, want := snapshotWriter(t)
	scramble(t, dir)
	before := tree(t, dir)
	r := open(t, dir, true, "")
	if info := r.IndexInfo(); info.Loaded {
		t.Errorf("generation mode loaded the index at Open: %+v", info)
	}
	if got := listing(t, r); got != want {
		t.Errorf("reader listing:\n%s\nwant (from the snapshot, not the scrambled files):\n%s", got, want)
	}
	info := r.IndexInfo()
	if !info.Loaded || !info.FromSnapshot || len(info.Rebuilt) != 0 || len(info.Rescanned) != 0 {
		t.Errorf("IndexInfo = %+v, want loaded from the snapshot alone", info)
	}
	// Default order comes from the snapshot: pages by order, blog newest first.
	es, _, _ := r.Entries("pages", query.Query{})
	if len(es) != 2 || es[0].Slug != "about" {
		t.Errorf("pages order = %v, want about first", slugs(es))
	}
	r.Refresh()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if after := tree(t, dir); after != before {
		t.Errorf("read-only reader changed the folder:\n%s\nwas:\n%s", after, before)
	}
}

func TestSnapshotWatchingStoreVerifiesInBackground(t *testing.T) {
	t.Parallel()
	dir, _ := snapshotWriter(t)
	// An edit made while nothing ran, in place (same folder time): only the background check
	// of a watching store can see it.
	p := filepath.Join(dir, "content", "collections", "blog", "first.md")
	folder := filepath.Dir(p)
	fst, _ := os.Stat(folder)
	if err := os.WriteFile(p, []byte("---\ntitle: Edited\nstatus: published\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(p, later, later)
	os.Chtimes(folder, fst.ModTime(), fst.ModTime())
	st := open(t, dir, true, fsstore.WatchPoll)
	if !st.IndexInfo().FromSnapshot {
		t.Fatalf("IndexInfo = %+v, want from snapshot", st.IndexInfo())
	}
	deadline := time.Now().Add(time.Minute) // a failure guard only
	for {
		e, err := st.EntryMeta("blog", "first")
		if err == nil && e.Title == "Edited" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("in-place edit not picked up: %v %v", e, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSnapshotCorruptOrStaleIsRebuilt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		spoil func(t *testing.T, dir string)
	}{
		{"missing", func(t *testing.T, dir string) { rm(t, dir, fsstore.SnapshotFile) }},
		{"garbage", func(t *testing.T, dir string) {
			write(t, dir, fsstore.SnapshotFile, []byte("not a snapshot at all, just text"))
		}},
		{"empty", func(t *testing.T, dir string) { write(t, dir, fsstore.SnapshotFile, nil) }},
		{"truncated", func(t *testing.T, dir string) {
			b := read(t, dir, fsstore.SnapshotFile)
			write(t, dir, fsstore.SnapshotFile, b[:len(b)-3])
		}},
		{"checksum mismatch", func(t *testing.T, dir string) {
			b := read(t, dir, fsstore.SnapshotFile)
			b[len(b)-1] ^= 0xff
			write(t, dir, fsstore.SnapshotFile, b)
		}},
		{"unknown format version", func(t *testing.T, dir string) {
			b := read(t, dir, fsstore.SnapshotFile)
			b[8] = 99
			write(t, dir, fsstore.SnapshotFile, b)
		}},
		{"older than the generation file says", func(t *testing.T, dir string) {
			var g map[string]any
			json.Unmarshal(read(t, dir, fsstore.GenerationFile), &g)
			g["snapshot"] = g["snapshot"].(float64) + 5
			g["generation"] = g["generation"].(float64) + 5
			b, _ := json.Marshal(g)
			write(t, dir, fsstore.GenerationFile, b)
		}},
		{"corrupt generation file", func(t *testing.T, dir string) {
			write(t, dir, fsstore.GenerationFile, []byte("{"))
			rm(t, dir, fsstore.SnapshotFile)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir, want := snapshotWriter(t)
			tt.spoil(t, dir)
			// A reader cannot write: it reads the files and serves them.
			r := open(t, dir, true, "")
			if got := listing(t, r); got != want {
				t.Errorf("reader listing:\n%s\nwant:\n%s", got, want)
			}
			if info := r.IndexInfo(); info.FromSnapshot || len(info.Rebuilt) != 2 {
				t.Errorf("reader IndexInfo = %+v, want rebuilt from files", info)
			}
			// A writer rebuilds and writes a good snapshot, which the next reader uses.
			w := open(t, dir, false, "")
			if got := listing(t, w); got != want {
				t.Errorf("writer listing:\n%s\nwant:\n%s", got, want)
			}
			w.Close()
			r2 := open(t, dir, true, "")
			if got := listing(t, r2); got != want {
				t.Errorf("second reader listing:\n%s\nwant:\n%s", got, want)
			}
			if info := r2.IndexInfo(); !info.FromSnapshot || len(info.Rebuilt) != 0 {
				t.Errorf("second reader IndexInfo = %+v, want from the rewritten snapshot", info)
			}
		})
	}
}

func TestSnapshotHandChangedFolderIsRescanned(t *testing.T) {
	t.Parallel()
	dir, _ := snapshotWriter(t)
	contenttest.AddFiles(t, dir, "-- content/collections/blog/third.md --\n---\ntitle: Third\nstatus: published\n---\n")
	rm(t, dir, "content/collections/pages/home.md")
	r := open(t, dir, true, "")
	if _, err := r.EntryMeta("blog", "third"); err != nil {
		t.Errorf("entry added by hand: %v", err)
	}
	if _, err := r.EntryMeta("pages", "home"); !content.IsNotFound(err) {
		t.Errorf("entry removed by hand: err = %v, want NotFound", err)
	}
	info := r.IndexInfo()
	if !info.FromSnapshot || !slices.Equal(info.Rescanned, []string{"blog", "pages"}) {
		t.Errorf("IndexInfo = %+v, want both folders rescanned", info)
	}
}

func TestGenerationChangesReachReaders(t *testing.T) {
	t.Parallel()
	dir, _ := snapshotWriter(t)
	w := open(t, dir, false, "")
	r := open(t, dir, true, "")
	ver := func() uint64 { return r.CollectionVersion("blog") }
	if _, err := r.EntryMeta("blog", "first"); err != nil {
		t.Fatal(err)
	}

	// Nothing changed: Refresh leaves everything alone.
	g0, v0 := r.Generation(), ver()
	r.Refresh()
	if r.Generation() != g0 || ver() != v0 {
		t.Errorf("Refresh without a change moved the generation")
	}

	e, err := w.CreateEntry(&content.Entry{Collection: "blog", Slug: "new", Title: "New", Status: "published", Data: content.NewMap(0)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.EntryMeta("blog", "new"); !content.IsNotFound(err) {
		t.Fatalf("reader saw the entry before Refresh: %v", err)
	}
	r.Refresh()
	if got, err := r.EntryMeta("blog", "new"); err != nil || got.Title != "New" {
		t.Fatalf("after Refresh: %v %v", got, err)
	}
	if ver() == v0 {
		t.Errorf("CollectionVersion did not change")
	}

	e.Title = "Renamed"
	e.Slug = "renamed"
	if _, err := w.UpdateEntry("blog", "new", e.Hash, e); err != nil {
		t.Fatal(err)
	}
	if err := w.DeleteEntry("blog", "second"); err != nil {
		t.Fatal(err)
	}
	r.Refresh()
	if _, err := r.EntryMeta("blog", "new"); !content.IsNotFound(err) {
		t.Errorf("old slug after rename: %v", err)
	}
	if got, err := r.EntryMeta("blog", "renamed"); err != nil || got.Title != "Renamed" {
		t.Errorf("renamed entry: %v %v", got, err)
	}
	if _, err := r.EntryMeta("blog", "second"); !content.IsNotFound(err) {
		t.Errorf("deleted entry: %v", err)
	}

	// Definitions and users written by the writer reach the reader too.
	if err := w.WriteFile("resources/collections/news.yaml", []byte("title: News\n"), false); err != nil {
		t.Fatal(err)
	}
	if err := w.CreateUser(&content.User{ID: "bob", Email: "bob@example.com", Name: "Bob", PasswordHash: "scrypt:00:00"}); err != nil {
		t.Fatal(err)
	}
	r.Refresh()
	if _, err := r.Collection("news"); err != nil {
		t.Errorf("collection defined by the writer: %v", err)
	}
	if _, err := r.User("bob"); err != nil {
		t.Errorf("user created by the writer: %v", err)
	}
	if got := r.IndexInfo().Reloads; got != 0 {
		t.Errorf("Reloads = %d, want 0 (changes applied one by one)", got)
	}

	// Changes folded into a newer snapshot before the reader looked: it reloads the snapshot.
	if _, err := w.CreateEntry(&content.Entry{Collection: "blog", Slug: "a", Title: "A", Data: content.NewMap(0)}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteSnapshot(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := w.CreateEntry(&content.Entry{Collection: "blog", Slug: "b", Title: "B", Data: content.NewMap(0)}); err != nil {
		t.Fatal(err)
	}
	r.Refresh()
	for _, slug := range []string{"a", "b", "renamed"} {
		if _, err := r.EntryMeta("blog", slug); err != nil {
			t.Errorf("after snapshot reload, %s: %v", slug, err)
		}
	}
	if got := r.IndexInfo().Reloads; got != 1 {
		t.Errorf("Reloads = %d, want 1", got)
	}
	if got, want := listing(t, r), listing(t, w); got != want {
		t.Errorf("reader:\n%s\nwriter:\n%s", got, want)
	}

	// A reader that starts now sees the same from the snapshot plus the listed change.
	r2 := open(t, dir, true, "")
	if got, want := listing(t, r2), listing(t, w); got != want {
		t.Errorf("new reader:\n%s\nwriter:\n%s", got, want)
	}
}

func TestGenerationSharedByTwoWriters(t *testing.T) {
	t.Parallel()
	dir, _ := snapshotWriter(t)
	entries := open(t, dir, false, "") // e.g. the entries function
	users := open(t, dir, false, "")   // e.g. the users function, which never loads the index
	r := open(t, dir, true, "")
	if _, err := r.EntryMeta("blog", "first"); err != nil {
		t.Fatal(err)
	}
	if _, err := entries.CreateEntry(&content.Entry{Collection: "blog", Slug: "x", Title: "X", Data: content.NewMap(0)}); err != nil {
		t.Fatal(err)
	}
	if err := users.CreateUser(&content.User{ID: "bob", Email: "bob@example.com", Name: "Bob", PasswordHash: "scrypt:00:00"}); err != nil {
		t.Fatal(err)
	}
	if users.IndexInfo().Loaded {
		t.Errorf("a writer that only changed users loaded the entry index")
	}
	r.Refresh()
	if _, err := r.EntryMeta("blog", "x"); err != nil {
		t.Errorf("entry from the first writer lost after the second wrote: %v", err)
	}
	if _, err := r.User("bob"); err != nil {
		t.Errorf("user from the second writer: %v", err)
	}
	entries.Refresh()
	if _, err := entries.User("bob"); err != nil {
		t.Errorf("writers see each other's changes: %v", err)
	}
}

func TestSnapshotNeedsOption(t *testing.T) {
	t.Parallel()
	_, err := fsstore.Open(context.Background(), fsstore.Options{Dir: t.TempDir(), Watch: fsstore.WatchGeneration})
	if content.KindOf(err) != content.Invalid {
		t.Errorf("Open with generation watch and no snapshot: err = %v, want Invalid", err)
	}
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, snapSite))
	if err := st.WriteSnapshot(t.Context()); content.KindOf(err) != content.Invalid {
		t.Errorf("WriteSnapshot without the option: err = %v, want Invalid", err)
	}
	st.Refresh() // a no-op
	if info := st.IndexInfo(); info.Loaded {
		t.Errorf("IndexInfo without the option = %+v, want zero", info)
	}
	r := open(t, contenttest.WriteSite(t, snapSite), true, "")
	if err := r.WriteSnapshot(t.Context()); content.KindOf(err) != content.Forbidden {
		t.Errorf("WriteSnapshot on a read-only store: err = %v, want Forbidden", err)
	}
}

func slugs(es []*content.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Slug
	}
	return out
}

func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, _ := d.Info()
		fmt.Fprintf(&b, "%s %d %d\n", strings.TrimPrefix(p, dir), st.Size(), st.ModTime().UnixNano())
		return nil
	})
	return b.String()
}

func read(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func rm(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// TestSnapshotAfterCopyReachesRunningReaders is the frontend-only deployment: no writer runs,
// the site folder is updated by a copy (rsync -a keeps folder times, so the edit is invisible to
// the folder check), then `cms snapshot` (WriteSnapshot) runs; readers already running must see
// the new content on their next request.
func TestSnapshotAfterCopyReachesRunningReaders(t *testing.T) {
	t.Parallel()
	dir, _ := snapshotWriter(t)
	r := open(t, dir, true, "")
	if e, err := r.EntryMeta("blog", "first"); err != nil || e.Title != "First" {
		t.Fatalf("before: %v %v", e, err)
	}
	p := filepath.Join(dir, "content", "collections", "blog", "first.md")
	folder := filepath.Dir(p)
	fst, _ := os.Stat(folder)
	if err := os.WriteFile(p, []byte("---\ntitle: Copied over\nstatus: published\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(p, later, later)
	os.Chtimes(folder, fst.ModTime(), fst.ModTime())

	w := open(t, dir, false, fsstore.WatchNone) // what cms snapshot opens
	if err := w.WriteSnapshot(t.Context()); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r.Refresh()
	if e, err := r.EntryMeta("blog", "first"); err != nil || e.Title != "Copied over" {
		t.Errorf("after cms snapshot: %v %v, want the copied entry", e, err)
	}
	if got := r.IndexInfo().Reloads; got != 1 {
		t.Errorf("Reloads = %d, want 1", got)
	}
	if r2 := open(t, dir, true, ""); listing(t, r2) != listing(t, r) {
		t.Errorf("a new reader sees something else than the running one")
	}
}

// FuzzGenerationFile feeds arbitrary generation files to a reader: Refresh and the reads after
// it must not panic, and a file that cannot be trusted must not hide the entries.
func FuzzGenerationFile(f *testing.F) {
	f.Add([]byte(`{"v":1,"generation":9,"snapshot":2,"defs":3,"users":4,"dirs":{"blog":1},"changes":[{"g":9,"c":"blog","s":"first"},{"g":8,"c":"blog"},{"g":9,"c":"../x","s":"../../etc"}]}`))
	f.Add([]byte(`{"v":2}`))
	f.Add([]byte(`{`))
	f.Add([]byte(`{"v":1,"generation":0,"snapshot":18446744073709551615}`))
	dir, _ := snapshotWriter(f)
	f.Fuzz(func(t *testing.T, gen []byte) {
		site := t.TempDir()
		if err := os.CopyFS(site, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
		r := open(t, site, true, "")
		if _, err := r.EntryMeta("blog", "first"); err != nil {
			t.Fatal(err)
		}
		write(t, site, fsstore.GenerationFile, gen)
		r.Refresh()
		if _, err := r.EntryMeta("blog", "first"); err != nil {
			t.Errorf("after generation file %q: %v", gen, err)
		}
		r.Collections()
		r.Users()
	})
}

// The full-text index is kept in the snapshot: a reader started from it searches without reading
// an entry file (they are scrambled here), and an entry changed since the snapshot is re-read.
func TestSnapshotKeepsSearchIndex(t *testing.T) {
	t.Parallel()
	dir, _ := snapshotWriter(t)
	scramble(t, dir)
	r := open(t, dir, true, "")
	find := func(st *fsstore.Store, q string, public bool) string {
		t.Helper()
		hits, _, err := st.Search("blog", search.Query{Text: q, PublicOnly: public})
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, h := range hits {
			s = append(s, h.Entry.Slug)
		}
		return strings.Join(s, ",")
	}
	if got := find(r, "body", false); got != "second,first" { // the shorter body first
		t.Errorf("search from the snapshot = %q, want second,first", got)
	}
	if got := find(r, "body", true); got != "first" {
		t.Errorf("public search from the snapshot = %q, want first", got)
	}
	if got := find(r, "xxxx", false); got != "" {
		t.Errorf("the scrambled files were read: %q", got)
	}
	if r.SearchMemory() <= 0 {
		t.Error("SearchMemory reports nothing")
	}

	// A damaged or foreign full-text snapshot is ignored: the index is built from the files.
	for _, spoil := range [][]byte{[]byte("CMSSERCH not really"), nil, append([]byte("CMSSERCH\x02"), make([]byte, 40)...)} {
		d, _ := snapshotWriter(t)
		write(t, d, ".cms/search.snapshot", spoil)
		if got := find(open(t, d, true, ""), "draft", false); got != "second" {
			t.Errorf("with a spoilt full-text snapshot %q: %q", spoil, got)
		}
	}

	// A writer's edit reaches a reader that already searched, through the generation file.
	dir2, _ := snapshotWriter(t)
	r2 := open(t, dir2, true, "")
	if got := find(r2, "draft", false); got != "second" {
		t.Fatalf("before the edit: %q", got)
	}
	w := open(t, dir2, false, "")
	cur, err := w.Entry("blog", "second")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Content = "Rewritten text."
	if _, err := w.UpdateEntry("blog", "second", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	r2.Refresh()
	if got := find(r2, "rewritten", false); got != "second" {
		t.Errorf("after the edit: %q", got)
	}
	if got := find(r2, "draft", false); got != "" {
		t.Errorf("old words after the edit: %q", got)
	}
	// And a new reader, started from the snapshot plus the listed change, sees it too.
	if got := find(open(t, dir2, true, ""), "rewritten", false); got != "second" {
		t.Errorf("new reader after the edit: %q", got)
	}
}

// A writer builds the full-text index only to write its snapshot at the first start, and lets it
// go then: like a process started from the snapshot, it holds none until its first search
// (at 100,000 entries it is a few hundred MiB), which reads it back and finds what it should.
func TestSnapshotWriterLetsTheFullTextIndexGo(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, snapSite)
	w := open(t, dir, false, fsstore.WatchNone) // writes its snapshots while it opens
	if _, err := os.Stat(filepath.Join(dir, ".cms", "search.snapshot")); err != nil {
		t.Fatalf("no full-text snapshot written: %v", err)
	}
	if n := w.SearchMemory(); n != 0 {
		t.Errorf("after writing the snapshot the writer holds a full-text index of %d bytes", n)
	}
	hits, _, err := w.Search("blog", search.Query{Text: "draft"})
	if err != nil || len(hits) != 1 || hits[0].Entry.Slug != "second" {
		t.Fatalf("search after the index was let go: %v %v", hits, err)
	}
	if w.SearchMemory() <= 0 {
		t.Error("a search did not keep the full-text index it built")
	}
}

// A reader started from the snapshot takes the default order from it rather than sorting; its
// pages, in either direction, filtered or not, and after changes, are the writer's, ties on the
// date and on the sortable order broken by slug alike.
func TestSnapshotDefaultOrderSeedsQueries(t *testing.T) {
	t.Parallel()
	var site strings.Builder
	site.WriteString(snapSite)
	for i := range 60 {
		fmt.Fprintf(&site, "-- content/collections/blog/post-%02d.md --\n---\ntitle: Post %d\nstatus: %s\ncreatedAt: 2026-03-%02dT10:00:00.000Z\n---\nBody.\n",
			(i*37)%60, i, []string{"published", "draft"}[i%3/2], 1+i%7) // seven dates: many ties
		fmt.Fprintf(&site, "-- content/collections/pages/page-%02d.md --\n---\ntitle: Page %d\norder: %d\n---\n", (i*11)%60, i%5, i%4)
	}
	dir := contenttest.WriteSite(t, site.String())
	w := open(t, dir, false, fsstore.WatchNone)
	if err := w.Close(); err != nil { // writes the snapshot, in default order
		t.Fatal(err)
	}
	w = open(t, dir, false, fsstore.WatchNone)
	r := open(t, dir, true, "")
	queries := []query.Query{
		{}, {Limit: 7, Offset: 20}, {Offset: 55},
		{Filter: map[string]any{"status": "published"}, Limit: 9, Offset: 4},
		{Sort: []query.SortKey{{Field: "createdAt"}, {Field: "slug"}}, Limit: 10},
		{Sort: []query.SortKey{{Field: "order", Desc: true}, {Field: "title"}, {Field: "slug"}}},
	}
	compare := func(when string) {
		t.Helper()
		answersAsFromFiles(t, dir, when, []string{"blog", "pages"}, queries, map[string]*fsstore.Store{"reader": r, "writer": w})
	}
	compare("from the snapshot")
	if _, err := w.CreateEntry(&content.Entry{Collection: "blog", Slug: "post-new", Title: "New", Status: content.StatusPublished,
		CreatedAt: "2026-03-04T10:00:00.000Z", Data: content.NewMap(0)}); err != nil {
		t.Fatal(err)
	}
	if err := w.DeleteEntry("blog", "post-13"); err != nil {
		t.Fatal(err)
	}
	r.Refresh()
	compare("after a create and a delete")
}

// answersAsFromFiles checks that each store answers every query on each collection as a store
// opened without the snapshot, sorting every order from the files, does.
func answersAsFromFiles(t *testing.T, dir, when string, colls []string, queries []query.Query, stores map[string]*fsstore.Store) {
	t.Helper()
	ref, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, ReadOnly: true, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for _, c := range colls {
		for _, q := range queries {
			want, wn, err := ref.Entries(c, q)
			if err != nil {
				t.Fatal(err)
			}
			for name, st := range stores {
				got, gn, err := st.Entries(c, q)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(slugs(got), slugs(want)) || gn != wn {
					t.Errorf("%s, %s of %s %+v: %v (%d), sorted from the files %v (%d)", when, name, c, q, slugs(got), gn, slugs(want), wn)
				}
			}
		}
	}
}

// The orders queries sorted a collection by are kept in the snapshot: a store opened from it,
// reader or writer, takes them instead of sorting (QueryStats.Seeded, not Sorted), answers as a
// store sorting from the files does, and keeps them through writes made before they are queried
// again, so the writer's next snapshot has them too.
func TestSnapshotKeepsQueriedOrders(t *testing.T) {
	t.Parallel()
	var site strings.Builder
	site.WriteString(snapSite)
	for i := range 60 {
		fmt.Fprintf(&site, "-- content/collections/blog/post-%02d.md --\n---\ntitle: %s %d\nstatus: published\nrating: %d\ncreatedAt: 2026-03-%02dT10:00:00.000Z\n---\nBody.\n",
			(i*37)%60, []string{"Post", "post", "Ärger", "a post"}[i%4], i%9, i%5, 1+i%7) // ties and case variants
	}
	dir := contenttest.WriteSite(t, site.String())
	sorts := [][]query.SortKey{
		{{Field: "title"}, {Field: "slug"}},
		{{Field: "rating", Desc: true}, {Field: "slug"}},
		{{Field: "updatedAt", Desc: true}, {Field: "slug"}},
	}
	atLeast3, err := query.ParseFilter(`{"rating":{"$gte":3}}`) // answered from the rating order
	if err != nil {
		t.Fatal(err)
	}
	var queries []query.Query
	for _, keys := range sorts {
		queries = append(queries, query.Query{Sort: keys, Limit: 10}, query.Query{Sort: keys, Offset: 25, Limit: 7},
			query.Query{Sort: keys, Filter: atLeast3, Limit: 8})
	}
	compare := func(when string, stores map[string]*fsstore.Store) {
		t.Helper()
		answersAsFromFiles(t, dir, when, []string{"blog"}, queries, stores)
	}
	first := open(t, dir, false, fsstore.WatchNone)
	compare("first start", map[string]*fsstore.Store{"writer": first})
	if s := first.QueryStats(); s.Sorted == 0 {
		t.Fatalf("the first start sorted nothing: %+v", s)
	}
	if err := first.Close(); err != nil { // writes the snapshot with the orders
		t.Fatal(err)
	}
	w := open(t, dir, false, fsstore.WatchNone)
	r := open(t, dir, true, "")
	compare("from the snapshot", map[string]*fsstore.Store{"reader": r, "writer": w})
	for name, st := range map[string]*fsstore.Store{"reader": r, "writer": w} {
		if s := st.QueryStats(); s.Sorted != 0 || s.Seeded == 0 {
			t.Errorf("%s from the snapshot: %+v, want every order seeded, none sorted", name, s)
		}
	}
	// A writer that writes before it queries keeps the orders too.
	w2 := open(t, dir, false, fsstore.WatchNone)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w2.CreateEntry(&content.Entry{Collection: "blog", Slug: "post-new", Title: "Post new", Status: content.StatusPublished,
		CreatedAt: "2026-03-04T10:00:00.000Z", Data: mapOf("rating", int64(4))}); err != nil {
		t.Fatal(err)
	}
	if err := w2.DeleteEntry("blog", "post-13"); err != nil {
		t.Fatal(err)
	}
	// No query of w2's before it closes: its snapshot has the orders only if it kept them.
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	r.Refresh()
	r2 := open(t, dir, true, "")
	compare("after a create and a delete", map[string]*fsstore.Store{"reader": r, "reader of the writer's next snapshot": r2})
	if s := r2.QueryStats(); s.Sorted != 0 || s.Seeded == 0 {
		t.Errorf("from the writer's next snapshot: %+v, want every order seeded, none sorted", s)
	}
}
