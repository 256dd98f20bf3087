package fsstore_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/fsstore"
)

// contentLog collects what a store's OnContentChange hears.
type contentLog struct {
	mu  sync.Mutex
	got []fsstore.Change
}

func (l *contentLog) add(ch fsstore.Change) {
	l.mu.Lock()
	l.got = append(l.got, ch)
	l.mu.Unlock()
}

func (l *contentLog) has(ch fsstore.Change) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Contains(l.got, ch)
}

func (l *contentLog) reset() {
	l.mu.Lock()
	l.got = nil
	l.mu.Unlock()
}

const changeSite = `
-- resources/collections/blog.yaml --
title: Blog
-- content/collections/blog/first.md --
---
title: First
status: published
---
Body.
-- content/globals/site.yaml --
name: Site
-- content/navigation/main.yaml --
tree: []
`

func openWithChanges(t *testing.T, dir string, o fsstore.Options, l *contentLog) *fsstore.Store {
	t.Helper()
	o.Dir, o.NoSync, o.Log, o.OnContentChange = dir, true, slog.New(slog.DiscardHandler), l.add
	st, err := fsstore.Open(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Writes through the store (the API's path) report what they changed.
func TestContentChangeFromWrites(t *testing.T) {
	t.Parallel()
	l := &contentLog{}
	st := openWithChanges(t, contenttest.WriteSite(t, changeSite), fsstore.Options{Watch: fsstore.WatchNone}, l)
	cur, err := st.Entry("blog", "first")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Title = "Edited"
	if _, err := st.UpdateEntry("blog", "first", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SaveGlobal("site", mapOf("name", "New"), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SaveNavigation("main", nil, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []fsstore.Change{
		{Kind: fsstore.ChangeEntry, Collection: "blog", Name: "first"},
		{Kind: fsstore.ChangeGlobal, Name: "site"},
		{Kind: fsstore.ChangeNavigation, Name: "main"},
	} {
		if !l.has(want) {
			t.Errorf("not reported: %+v (got %+v)", want, l.got)
		}
	}
}

// Hand edits the watcher picks up are reported too.
func TestContentChangeFromHandEdits(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, changeSite)
	l := &contentLog{}
	st := openWithChanges(t, dir, fsstore.Options{Watch: fsstore.WatchNotify}, l)
	if _, err := st.Entry("blog", "first"); err != nil { // builds the index
		t.Fatal(err)
	}
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("content/collections/blog/first.md", "---\ntitle: By hand\nstatus: published\n---\nNew body.\n")
	write("content/globals/site.yaml", "name: By hand\n")
	deadline := time.Now().Add(time.Minute)
	entry := fsstore.Change{Kind: fsstore.ChangeEntry, Collection: "blog", Name: "first"}
	global := fsstore.Change{Kind: fsstore.ChangeGlobal, Name: "site"}
	for !(l.has(entry) && l.has(global)) && time.Now().Before(deadline) {
		st.Generation() // applies pending notifications, as each request does
		time.Sleep(10 * time.Millisecond)
	}
	if !l.has(entry) || !l.has(global) {
		t.Fatalf("hand edits not reported: %+v", l.got)
	}
}

// A read-only frontend (WatchGeneration) hears other processes' entry writes from the generation
// file, and a change the file cannot name (a global) as ChangeAll. (Once the writer folded a
// change into a new snapshot, the list is gone and a late reader hears ChangeAll too.)
func TestContentChangeFromGenerationFile(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, changeSite)
	w := open(t, dir, false, "")
	if err := w.WriteSnapshot(t.Context()); err != nil {
		t.Fatal(err)
	}
	l := &contentLog{}
	r := openWithChanges(t, dir, fsstore.Options{Snapshot: true, ReadOnly: true, Watch: fsstore.WatchGeneration}, l)
	r.Refresh() // as each request does
	if _, err := r.Entry("blog", "first"); err != nil {
		t.Fatal(err)
	}
	l.reset()
	cur, err := w.Entry("blog", "first")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Title = "From the writer"
	if _, err := w.UpdateEntry("blog", "first", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	r.Refresh()
	if want := (fsstore.Change{Kind: fsstore.ChangeEntry, Collection: "blog", Name: "first"}); !l.has(want) || l.has(fsstore.Change{Kind: fsstore.ChangeAll}) {
		t.Fatalf("after an entry write: %+v", l.got)
	}
	if got, _ := r.Entry("blog", "first"); got == nil || got.Title != "From the writer" {
		t.Fatalf("reader did not see the write")
	}
	l.reset()
	if _, err := w.SaveGlobal("site", mapOf("name", "Writer"), ""); err != nil {
		t.Fatal(err)
	}
	r.Refresh()
	if !l.has(fsstore.Change{Kind: fsstore.ChangeAll}) {
		t.Fatalf("after a global write: %+v", l.got)
	}
}
