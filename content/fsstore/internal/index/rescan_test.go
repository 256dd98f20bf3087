package index

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cms/content"
)

// rescanIndex indexes a site folder holding one collection, posts, without watching.
func rescanIndex(t *testing.T, dir string) *Index {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	posts := &content.Collection{Handle: "posts"}
	s := New(Config{
		Root: root, Dir: dir, ContentDir: "content", ResourcesDir: "resources", UsersDir: "users",
		Watch: WatchNone, Log: slog.New(slog.DiscardHandler), Now: time.Now,
		Collections: func() []*content.Collection { return []*content.Collection{posts} },
		Collection:  func(string) (*content.Collection, error) { return posts, nil },
		DefsChanged: func() {}, UsersChanged: func() {},
		Problem: func(string, error) {}, Resolved: func(string) {},
	})
	if err := s.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func writeEntry(t *testing.T, p, title string, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(p, []byte("---\ntitle: "+title+"\nstatus: published\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func indexedTitles(s *Index) map[string]string {
	ix := s.colls["posts"]
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := map[string]string{}
	for slug, it := range ix.entries {
		out[slug] = it.e.Title
	}
	return out
}

// TestRescanByFileStamps: the check of a folder against the index (after a start from the
// snapshot, and when polling) re-reads exactly the files whose size or modification time (to
// the nanosecond) differ, adds new ones, drops removed ones and folders named like entries,
// follows symbolic links, and leaves an unchanged collection (links included) at its version.
func TestRescanByFileStamps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	folder := filepath.Join(dir, "content", "collections", "posts")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2025, 3, 1, 12, 0, 0, 100, time.UTC)
	writeEntry(t, filepath.Join(folder, "same.md"), "Same", base)
	writeEntry(t, filepath.Join(folder, "edited.md"), "Old", base)
	writeEntry(t, filepath.Join(folder, "gone.md"), "Gone", base)
	writeEntry(t, filepath.Join(dir, "target.md"), "Linked", base)
	if err := os.Symlink("../../../target.md", filepath.Join(folder, "linked.md")); err != nil {
		t.Fatal(err)
	}
	s := rescanIndex(t, dir)
	if got := indexedTitles(s); len(got) != 4 || got["linked"] != "Linked" {
		t.Fatalf("indexed %v, want same, edited, gone and linked", got)
	}

	v := s.Version("posts")
	s.rescan("posts")
	if s.Version("posts") != v {
		t.Errorf("a rescan of an unchanged folder (with a linked entry) changed its version")
	}

	// Same size, same second, another nanosecond: a different stamp, so it is re-read.
	writeEntry(t, filepath.Join(folder, "edited.md"), "New", base.Add(time.Nanosecond))
	if err := os.Remove(filepath.Join(folder, "gone.md")); err != nil {
		t.Fatal(err)
	}
	writeEntry(t, filepath.Join(folder, "added.md"), "Added", base)
	if err := os.Mkdir(filepath.Join(folder, "folder.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeEntry(t, filepath.Join(dir, "target.md"), "Relinked", base.Add(time.Second))
	s.rescan("posts")
	want := map[string]string{"same": "Same", "edited": "New", "added": "Added", "linked": "Relinked"}
	got := indexedTitles(s)
	if len(got) != len(want) {
		t.Errorf("after the rescan the index holds %v, want %v", got, want)
	}
	for slug, title := range want {
		if got[slug] != title {
			t.Errorf("after the rescan %s has title %q, want %q", slug, got[slug], title)
		}
	}

	// A touched file (new time, same bytes) is re-read once, found unchanged and stamped anew:
	// the collection keeps its version.
	touched := base.Add(time.Hour)
	if err := os.Chtimes(filepath.Join(folder, "same.md"), touched, touched); err != nil {
		t.Fatal(err)
	}
	v = s.Version("posts")
	s.rescan("posts")
	if s.Version("posts") != v {
		t.Errorf("a touched but unchanged entry changed the collection's version")
	}
	if it := s.colls["posts"].entries["same"]; !it.trusts(it.size, touched.UnixNano()) {
		t.Errorf("the touched entry keeps its old stamp")
	}
}

// TestRacyStampIsNotTrusted: a file read within racyWindow of its modification time may be
// written again in the same clock tick with the same size (ext4 takes file times from a clock
// of a few milliseconds, FAT of two seconds). Its stamp then proves nothing, so a notification
// or a stamp check re-reads it, and the snapshot records no time for it. A file read long
// after it was written is trusted by its size and time (to the nanosecond): that is the
// shortcut every stamp check takes.
func TestRacyStampIsNotTrusted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	folder := filepath.Join(dir, "content", "collections", "posts")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	fresh := time.Now() // as if written just now, in the tick of the read below
	old := fresh.Add(-time.Hour)
	writeEntry(t, filepath.Join(folder, "fresh.md"), "One", fresh)
	writeEntry(t, filepath.Join(folder, "old.md"), "Uno", old)
	s := rescanIndex(t, dir)
	ix := s.colls["posts"]

	raw, err := encodeSnapshot(1, []snapColl{{handle: "posts", items: []*indexed{ix.entries["fresh"], ix.entries["old"]}}})
	if err != nil {
		t.Fatal(err)
	}
	_, colls, err := decodeSnapshot(raw)
	if err != nil {
		t.Fatal(err)
	}
	if m := colls[0].items[0].mtime.Load(); m != 0 {
		t.Errorf("snapshot records time %d for the racy entry, want 0", m)
	}
	if m := colls[0].items[1].mtime.Load(); m != old.UnixNano() {
		t.Errorf("snapshot records time %d for the settled entry, want %d", m, old.UnixNano())
	}

	// Same size, same time to the nanosecond: a second write in the same tick.
	writeEntry(t, filepath.Join(folder, "fresh.md"), "Two", fresh)
	writeEntry(t, filepath.Join(folder, "old.md"), "Dos", old)
	s.reindex(ix, "fresh")
	s.reindex(ix, "old")
	got := indexedTitles(s)
	if got["fresh"] != "Two" {
		t.Errorf("racy entry after a same-tick rewrite: title %q, want Two", got["fresh"])
	}
	if got["old"] != "Uno" {
		t.Errorf("settled entry: title %q, want Uno (its unchanged stamp is trusted)", got["old"])
	}

	// A racy re-read that finds the same content keeps the entry and its version.
	v := s.Version("posts")
	s.rescan("posts")
	if s.Version("posts") != v {
		t.Errorf("re-reading an unchanged racy entry changed the collection's version")
	}
}
