package groups_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content/contenttest"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/seoops"
	"cms/runtime/wire"
)

// TestSiteRunsRedirectsAndRecords404s: the public website answers an authored redirect before
// rendering, and a page it answers 404 shows up in the 404 log the SEO API lists.
func TestSiteRunsRedirectsAndRecords404s(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `-- cms.config.yaml --
watch: none
sites: [{handle: main, url: 'https://example.com/', locale: en}]
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- content/collections/blog/first.md --
---
title: First
status: published
---
-- content/seo/redirects/old.yaml --
version: 1
id: old
site: main
source: /old
destination: /blog/first
status: 301
enabled: true
`)
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	mux, err := wire.Mount(s, groups.All()...)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "https://example.com"+path, nil)
		mux.ServeHTTP(w, r)
		return w
	}
	if w := get("/old"); w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "https://example.com/blog/first" {
		t.Errorf("GET /old: %d Location %q, want 301 to /blog/first", w.Code, w.Header().Get("Location"))
	}
	if w := get("/no-such-page"); w.Code != http.StatusNotFound {
		t.Fatalf("GET /no-such-page: %d, want 404", w.Code)
	}
	nf, err := seoops.NotFound(s)
	if err != nil || nf == nil {
		t.Fatalf("404 tracker: %v %v", nf, err)
	}
	nf.Flush()
	list, err := nf.List("main")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Path != "/no-such-page" {
		t.Errorf("404 log: %+v, want /no-such-page", list)
	}
}
