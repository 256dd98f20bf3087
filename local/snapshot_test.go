package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/fsstore"
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
