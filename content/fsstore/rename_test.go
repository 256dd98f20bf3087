package fsstore_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/query"
)

const (
	renameSite = "-- resources/collections/blog.yaml --\ntitle: Blog\n" +
		"-- content/collections/blog/old.md --\n---\ntitle: The entry\nstatus: published\n---\n\nBefore the rename.\n" +
		"-- content/collections/blog/other.md --\n---\ntitle: Other\nstatus: published\n---\n\nOther.\n"
	renamedFile = "---\ntitle: The entry\nslug: new\nstatus: published\n---\n\nAfter the rename.\n"
)

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// interruptRename leaves dir as a process killed during the rename blog/old -> blog/new leaves
// it: the intent record, written first, names the old file's hash and the new content's hash;
// newFile, when not "", is what lies under the new slug.
func interruptRename(t *testing.T, dir, newFile string) {
	t.Helper()
	old, err := os.ReadFile(filepath.Join(dir, "content/collections/blog/old.md"))
	if err != nil {
		t.Fatal(err)
	}
	rec := fmt.Sprintf(`{"v":1,"collection":"blog","from":"old","to":"new","oldHash":%q,"newHash":%q}`, sha(old), sha([]byte(renamedFile)))
	contenttest.AddFiles(t, dir, "-- "+fsstore.RenamesDir+"/blog.old.json --\n"+rec+"\n")
	if newFile != "" {
		contenttest.AddFiles(t, dir, "-- content/collections/blog/new.md --\n"+newFile)
	}
}

func openReadOnly(t *testing.T, dir string, o fsstore.Options) *fsstore.Store {
	t.Helper()
	o.Dir, o.ReadOnly, o.Log = dir, true, slog.New(slog.DiscardHandler)
	if o.Watch == "" {
		o.Watch = fsstore.WatchNone
	}
	st, err := fsstore.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// served lists the slugs a store serves, checking that single reads and the list agree.
func served(t *testing.T, st *fsstore.Store) []string {
	t.Helper()
	list, _, err := st.Entries("blog", query.Query{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Slug)
	}
	slices.Sort(out)
	for _, slug := range []string{"old", "new", "other"} {
		_, err := st.EntryMeta("blog", slug)
		if (err == nil) != slices.Contains(out, slug) {
			t.Fatalf("EntryMeta(%s) = %v, but the list is %v", slug, err, out)
		}
	}
	return out
}

func onDisk(dir string) (files []string, records int) {
	for _, slug := range []string{"new", "old", "other"} {
		if _, err := os.Stat(filepath.Join(dir, "content/collections/blog", slug+".md")); err == nil {
			files = append(files, slug)
		}
	}
	recs, _ := os.ReadDir(filepath.Join(dir, fsstore.RenamesDir))
	return files, len(recs)
}

func TestInterruptedRenameIsResolved(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		newFile string // under the new slug; "" = none
		editOld string // replaces the old file after the record was written; "" = untouched
		want    []string
	}{
		// Killed after the new file was written: the rename is finished.
		{name: "new file complete", newFile: renamedFile, want: []string{"new", "other"}},
		// Killed before: the rename never happened.
		{name: "no new file", want: []string{"old", "other"}},
		// The new slug holds something the rename did not write (it was taken): not ours to remove,
		// and the old entry was never moved.
		{name: "new slug holds another entry", newFile: "---\ntitle: Someone else's\n---\n", want: []string{"new", "old", "other"}},
		// The old file changed after the record was written (a hand edit while the writer was
		// down): never delete content the rename did not see.
		{name: "old file edited since", newFile: renamedFile, editOld: "---\ntitle: Edited by hand\n---\n", want: []string{"new", "old", "other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := contenttest.WriteSite(t, renameSite)
			interruptRename(t, dir, tt.newFile)
			if tt.editOld != "" {
				contenttest.AddFiles(t, dir, "-- content/collections/blog/old.md --\n"+tt.editOld)
			}
			// A frontend that cannot write serves what a writer will leave.
			if got := served(t, openReadOnly(t, dir, fsstore.Options{})); !slices.Equal(got, tt.want) {
				t.Errorf("read-only store serves %v, want %v", got, tt.want)
			}
			if files, recs := onDisk(dir); recs != 1 || len(files) < 2 {
				t.Fatalf("the read-only store changed the folder: files %v, %d records", files, recs)
			}
			st := contenttest.OpenStore(t, dir)
			files, recs := onDisk(dir)
			if !slices.Equal(files, tt.want) || recs != 0 {
				t.Errorf("after a writable open: files %v and %d records, want %v and none", files, recs, tt.want)
			}
			if got := served(t, st); !slices.Equal(got, tt.want) {
				t.Errorf("writable store serves %v, want %v", got, tt.want)
			}
		})
	}
}

// A record that cannot be read decides nothing: it is removed and no entry file is touched.
func TestUnreadableRenameRecord(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, renameSite+"-- content/collections/blog/new.md --\n"+renamedFile+
		"-- "+fsstore.RenamesDir+"/blog.old.json --\n{\"v\":1,\"collection\":\"blog\",\"from\":\"old\",\"to\":\"../../x\"}\n")
	if got := served(t, openReadOnly(t, dir, fsstore.Options{})); !slices.Equal(got, []string{"new", "old", "other"}) {
		t.Errorf("read-only store serves %v", got)
	}
	contenttest.OpenStore(t, dir)
	if files, recs := onDisk(dir); len(files) != 3 || recs != 0 {
		t.Errorf("files %v, %d records; want all three files and no record", files, recs)
	}
}

// A read-only store that is running when a writer is killed mid-rename picks the record up with
// the new file and never lists both.
func TestRunningReadOnlyStoreHidesInterruptedRename(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, renameSite)
	clock := time.Now()
	st := openReadOnly(t, dir, fsstore.Options{Watch: fsstore.WatchPoll, PollInterval: time.Second, Now: func() time.Time { return clock }})
	if got := served(t, st); !slices.Equal(got, []string{"old", "other"}) {
		t.Fatalf("before: %v", got)
	}
	interruptRename(t, dir, renamedFile)
	clock = clock.Add(time.Minute)
	st.Generation() // polls
	if got := served(t, st); !slices.Equal(got, []string{"new", "other"}) {
		t.Errorf("after the interrupted rename: %v, want [new other]", got)
	}
}

// A rename through the store leaves no record behind, nor does one refused for a taken slug.
func TestRenameLeavesNoRecord(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, renameSite)
	st := contenttest.OpenStore(t, dir)
	cur, err := st.Entry("blog", "old")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Slug = "other"
	if _, err := st.UpdateEntry("blog", "old", cur.Hash, &next); content.KindOf(err) != content.Conflict {
		t.Fatalf("rename onto a taken slug: %v, want a conflict", err)
	}
	next.Slug = "new"
	if _, err := st.UpdateEntry("blog", "old", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	if files, recs := onDisk(dir); !slices.Equal(files, []string{"new", "other"}) || recs != 0 {
		t.Errorf("files %v, %d records; want [new other] and none", files, recs)
	}
}

// A frontend starting from an index snapshot written before the interrupted rename serves the
// entry under one slug too (the folder changed, so it is rescanned by file stamps).
func TestInterruptedRenameFromSnapshot(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, renameSite)
	w := open(t, dir, false, fsstore.WatchNone)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// Folder times have a coarse grain on some file systems: make the change visible.
	later := time.Now().Add(time.Minute)
	interruptRename(t, dir, renamedFile)
	if err := os.Chtimes(filepath.Join(dir, "content/collections/blog"), later, later); err != nil {
		t.Fatal(err)
	}
	r := open(t, dir, true, "")
	if got := served(t, r); !slices.Equal(got, []string{"new", "other"}) {
		t.Errorf("read-only store from the snapshot serves %v, want [new other] (index %+v)", got, r.IndexInfo())
	}
}
