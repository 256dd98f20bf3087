package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/pagecache"
)

func TestCacheClearCommand(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nstaticCache:\n  driver: file\n")
	store := filepath.Join(dir, "storage/static-cache")
	d, err := pagecache.OpenFile(store, pagecache.FileOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := pagecache.New(pagecache.Options{Driver: d})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"default|/", "default|/blog"} {
		if p, err := c.Put(k, c.Begin(), 200, http.Header{"Content-Type": {"text/html"}}, []byte("<p>page</p>"), nil); p == nil || err != nil {
			t.Fatal(p, err)
		}
	}
	d.Close()
	out, err := runCmd(t, nil, "cache", "clear", "--site", dir)
	if err != nil || !strings.Contains(out, "cleared 2 cached pages") {
		t.Fatalf("cache clear: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(store, "default/index.html")); err == nil {
		t.Error("a page survived")
	}
	// The memory driver's pages are in the serving process: the command says so.
	mem := contenttest.WriteSite(t, "")
	if out, err := runCmd(t, nil, "cache", "clear", "--site", mem); err == nil || !strings.Contains(err.Error(), "memory") {
		t.Errorf("memory driver: %v %s", err, out)
	}
	if _, err := runCmd(t, nil, "cache", "warm", "--site", dir); err == nil {
		t.Error("cache warm claims to work")
	}
}
