package site_test

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/content/fsstore"
	"cms/handlers/site"
)

// Rendered pages are cached until what they were made from changes: an entry at once, a
// global (a data file) at the next check of the data paths.
func TestPageCache(t *testing.T) {
	t.Parallel()
	var now atomic.Int64
	now.Store(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	var st *fsstore.Store
	f := newSite(t, testSite+`
-- resources/globals/site.yaml --
title: Site
-- content/globals/site.yaml --
motto: first motto
-- resources/views/entry.html --
{{.Entry.Title}} / {{(global "site").motto}} / {{range entries "pages" "sort=title&limit=1"}}{{.Title}}{{end}}
`, func(d *site.Deps) {
		d.CacheBytes = 1 << 20
		d.ReloadEvery = time.Minute
		d.Now = func() time.Time { return time.Unix(0, now.Load()) }
		st = d.Store.(*fsstore.Store)
	})
	if w := f.get(t, "/about"); w.Body.String() != "About Us / first motto / About Us\n" {
		t.Fatalf("first: %q", w.Body)
	}
	etag := f.get(t, "/about").Header().Get("Etag")

	// Long after, nothing changed: still the cached page.
	now.Add(int64(time.Hour))
	if w := f.get(t, "/about"); w.Header().Get("Etag") != etag {
		t.Errorf("re-rendered without a change")
	}
	// A global edited by hand: the cached page stands until the data paths are checked again.
	if err := os.WriteFile(filepath.Join(f.dir, "content", "globals", "site.yaml"), []byte("motto: second motto\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if w := f.get(t, "/about"); w.Body.String() != "About Us / first motto / About Us\n" || w.Header().Get("Etag") != etag {
		t.Errorf("before the next check: %q", w.Body)
	}
	now.Add(int64(2 * time.Minute))
	if w := f.get(t, "/about"); w.Body.String() != "About Us / second motto / About Us\n" {
		t.Errorf("after the next check: %q", w.Body)
	}

	// An entry saved through the store: at once.
	cur, err := st.Entry("pages", "about")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Title = "About Them"
	if _, err := st.UpdateEntry("pages", "about", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	if w := f.get(t, "/about"); w.Body.String() != "About Them / second motto / About Them\n" {
		t.Errorf("after an entry change: %q", w.Body)
	}
	// Unpublished: gone at once, not served from the cache.
	cur, _ = st.Entry("pages", "about")
	next = *cur
	next.Status = content.StatusDraft
	if _, err := st.UpdateEntry("pages", "about", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	if w := f.get(t, "/about"); w.Code != 404 {
		t.Errorf("a draft served from the cache: %d %q", w.Code, w.Body)
	}
	// ... and gone from every list at once.
	if w := f.get(t, "/contact"); w.Body.String() != "Contact / second motto / Contact\n" {
		t.Errorf("list after unpublishing: %q", w.Body)
	}
}

// Pages, the memo, the data and template reloads and the sitemap are safe to use from many
// requests at once (run with -race).
func TestConcurrentPages(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, func(d *site.Deps) { d.CacheBytes = 1 << 20 })
	paths := []string{"/", "/about", "/blog/2026/04/hello", "/tags/news", "/contact", "/sitemap.xml", "/nope"}
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 30; i++ {
				p := paths[(g+i)%len(paths)]
				if w := f.get(t, p); w.Code != 200 && p != "/nope" {
					t.Errorf("%s: %d", p, w.Code)
				}
			}
		}()
	}
	for i := 0; i < 5; i++ {
		os.WriteFile(filepath.Join(f.dir, "content", "settings.yaml"), []byte("site_name: Run "+string(rune('a'+i))+"\n"), 0o644)
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}
