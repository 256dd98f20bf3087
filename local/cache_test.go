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
	mem := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\n")
	if out, err := runCmd(t, nil, "cache", "clear", "--site", mem); err == nil || !strings.Contains(err.Error(), "memory") {
		t.Errorf("memory driver: %v %s", err, out)
	}
	if out, err := runCmd(t, nil, "cache", "warm", "--site", dir); err == nil || !strings.Contains(err.Error(), "staticCache.enabled is false") {
		t.Errorf("warm with the cache off: %v %s", err, out)
	}
}

// TestCacheWarmCommand: cache warm requests every routed published page through the public
// website, filling the file cache a server then serves from.
func TestCacheWarmCommand(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `-- cms.config.yaml --
watch: none
staticCache: {enabled: true, driver: file}
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- resources/collections/notes.yaml --
title: Notes
-- content/collections/blog/hello.md --
---
title: Hello
status: published
---
-- content/collections/blog/draft.md --
---
title: Draft
status: draft
---
-- content/collections/notes/first.md --
---
title: A note (the default route)
status: published
---
`)
	out, err := runCmd(t, nil, "cache", "warm", "--site", dir, "--concurrency", "2")
	if err != nil || !strings.Contains(out, "3 pages requested: 3 stored, 0 already cached, 0 not stored, 0 failed") {
		t.Fatalf("cache warm: %v\n%s", err, out)
	}
	for _, p := range []string{"default/index.html", "default/blog/hello/index.html"} {
		if _, err := os.Stat(filepath.Join(dir, "storage/static-cache", p)); err != nil {
			t.Errorf("not stored: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "storage/static-cache/default/blog/draft")); err == nil {
		t.Error("a draft was requested")
	}
	out, err = runCmd(t, nil, "cache", "warm", "--site", dir)
	if err != nil || !strings.Contains(out, "3 pages requested: 0 stored, 3 already cached") {
		t.Errorf("second warm: %v\n%s", err, out)
	}
	if _, err := runCmd(t, nil, "cache", "warm", "--site", dir, "--handle", "nope"); err == nil {
		t.Error("an unknown site handle is accepted")
	}
}
