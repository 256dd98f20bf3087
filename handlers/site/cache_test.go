package site_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// With the page cache on, a client that accepts gzip gets the page compressed (its own ETag,
// Vary: Accept-Encoding); others get it as it is; either ETag gets a 304.
func TestGzip(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, func(d *site.Deps) { d.CacheBytes = 1 << 20 })
	for round := 0; round < 2; round++ { // rendered, then from the cache
		plainW := f.get(t, "/about")
		gzW := f.do(t, req{path: "/about", header: http.Header{"Accept-Encoding": {"br;q=1.0, gzip;q=0.8"}}})
		if gzW.Header().Get("Content-Encoding") != "gzip" || gzW.Header().Get("Vary") != "Accept-Encoding" || plainW.Header().Get("Content-Encoding") != "" {
			t.Fatalf("round %d: headers %v / %v", round, gzW.Header(), plainW.Header())
		}
		n := gzW.Body.Len()
		zr, err := gzip.NewReader(gzW.Body)
		if err != nil {
			t.Fatal(err)
		}
		unzipped, _ := io.ReadAll(zr)
		if string(unzipped) != plainW.Body.String() || !strings.Contains(plainW.Body.String(), "<h1>About Us</h1>") {
			t.Errorf("round %d: bodies differ", round)
		}
		if gzW.Header().Get("Content-Length") != strconv.Itoa(n) {
			t.Errorf("round %d: Content-Length %s for %d bytes", round, gzW.Header().Get("Content-Length"), n)
		}
		pe, ge := plainW.Header().Get("Etag"), gzW.Header().Get("Etag")
		if pe == ge || pe == "" {
			t.Errorf("round %d: ETags %s %s", round, pe, ge)
		}
		for _, e := range []string{pe, ge} {
			if w := f.do(t, req{path: "/about", header: http.Header{"If-None-Match": {e}, "Accept-Encoding": {"gzip"}}}); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
				t.Errorf("round %d: If-None-Match %s: %d", round, e, w.Code)
			}
		}
		if w := f.do(t, req{path: "/about", header: http.Header{"Accept-Encoding": {"gzip;q=0"}}}); w.Header().Get("Content-Encoding") != "" {
			t.Errorf("gzip;q=0 got gzip")
		}
		// HEAD: the headers of GET, no body.
		if w := f.do(t, req{method: http.MethodHead, path: "/about", header: http.Header{"Accept-Encoding": {"gzip"}}}); w.Body.Len() != 0 || w.Header().Get("Content-Length") != gzW.Header().Get("Content-Length") {
			t.Errorf("HEAD: %v %d", w.Header(), w.Body.Len())
		}
	}
	// The 404 page too.
	if w := f.do(t, req{path: "/nope", header: http.Header{"Accept-Encoding": {"gzip"}}}); w.Code != 404 || w.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("404: %d %v", w.Code, w.Header())
	}
}
