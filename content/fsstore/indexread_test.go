package fsstore_test

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/query"
)

// The index reads entry files straight from the collection folder's descriptor (on Linux);
// what is not a plain file there must be handled as reading through the site root does.
func TestIndexSkipsOddFilesAndFollowsLinksInsideTheSite(t *testing.T) {
	dir := contenttest.WriteSite(t, `
-- resources/collections/blog.yaml --
title: Blog
-- content/collections/blog/plain.md --
---
title: Plain
---
-- content/shared/linked.md --
---
title: Linked
---
`)
	outside := filepath.Join(t.TempDir(), "outside.md")
	if err := os.WriteFile(outside, []byte("---\ntitle: Outside\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	blog := filepath.Join(dir, "content", "collections", "blog")
	if err := os.Symlink("../../shared/linked.md", filepath.Join(blog, "linked.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(blog, "escape.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(blog, "folder.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(blog, "pipe.md"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err) // opening one must not hang the index build
	}
	st := contenttest.OpenStore(t, dir)
	es, _, err := st.Entries("blog", query.Query{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Slug+"="+e.Title)
		// The index tells versions apart without hashing every file; a whole read hashes it.
		full, err := st.Entry("blog", e.Slug)
		if err != nil || len(e.Version) != content.VersionLen || e.Version != full.Version || e.Hash != "" || len(full.Hash) != 64 {
			t.Errorf("%s: indexed version %q and hash %q, read whole %+v (%v): want one version, and the SHA-256 only when read whole", e.Slug, e.Version, e.Hash, full, err)
		}
	}
	slices.Sort(got)
	if want := []string{"linked=Linked", "plain=Plain"}; !slices.Equal(got, want) {
		t.Fatalf("indexed %v, want %v (a link leaving the site, a folder and a FIFO are not entries)", got, want)
	}
}
