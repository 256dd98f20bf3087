package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/query"
)

func TestSnapshotCommand(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/blog.yaml --
title: Blog
-- content/collections/blog/a.md --
---
title: A
---
-- content/collections/blog/b.md --
---
title: B
---
`)
	out, err := runCmd(t, nil, "snapshot", "--site", dir)
	if err != nil {
		t.Fatalf("snapshot: %v\n%s", err, out)
	}
	if !strings.Contains(out, "wrote "+fsstore.SnapshotFile+" (2 entries") {
		t.Errorf("output = %q", out)
	}
	if _, err := os.Stat(filepath.Join(dir, fsstore.SnapshotFile)); err != nil {
		t.Errorf("no snapshot: %v", err)
	}
	if out, err := runCmd(t, nil, "snapshot", "--site", filepath.Join(dir, "missing")); err == nil {
		t.Errorf("snapshot of a missing folder succeeded: %s", out)
	}
}

// --sort has the snapshot keep the orders named: a store started from it takes them (and the
// opposite directions) without sorting. A sort the collection cannot have is refused.
func TestSnapshotCommandKeepsSorts(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/blog.yaml --
title: Blog
blueprint: post
-- resources/blueprints/collections/post.yaml --
title: Post
fields:
  - handle: rating
    field: {type: integer}
-- content/collections/blog/a.md --
---
title: A
rating: 2
---
-- content/collections/blog/b.md --
---
title: B
rating: 1
---
`)
	for _, bad := range [][]string{{"--sort", "blog"}, {"--sort", "nope:title"}, {"--sort", "blog:colour"}, {"--sort", "blog:-"}} {
		if out, err := runCmd(t, nil, append([]string{"snapshot", "--site", dir}, bad...)...); err == nil {
			t.Errorf("snapshot %v succeeded: %s", bad, out)
		}
	}
	if out, err := runCmd(t, nil, "snapshot", "--site", dir, "--sort", "blog:-rating", "--sort", "blog:title"); err != nil {
		t.Fatalf("snapshot: %v\n%s", err, out)
	}
	st, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, Snapshot: true, ReadOnly: true, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, so := range []string{"-rating", "rating", "title", "-title"} {
		keys, _ := query.ParseSort(so)
		es, _, err := st.Entries("blog", query.Query{Sort: keys})
		if err != nil || len(es) != 2 {
			t.Fatalf("sort %s: %v %v", so, es, err)
		}
	}
	if s := st.QueryStats(); s.Sorted != 0 || s.Seeded != 4 {
		t.Errorf("QueryStats = %+v, want the four orders seeded from the snapshot, none sorted", s)
	}
}
