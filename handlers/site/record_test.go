package site_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"cms/content/pagecache"
)

// stored renders path as the static cache would store it and returns what the page recorded
// (nil when the cache would not keep it).
func stored(t *testing.T, f *fixture, path string) []pagecache.Dep {
	t.Helper()
	c, err := pagecache.New(pagecache.Options{Driver: pagecache.NewMemory(1 << 20)})
	if err != nil {
		t.Fatal(err)
	}
	rec := pagecache.NewRecorder()
	begin := c.Begin()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Host = "example.com"
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r.WithContext(pagecache.WithRecorder(r.Context(), rec)))
	if w.Code != 200 {
		t.Fatalf("GET %s = %d %s", path, w.Code, w.Body)
	}
	p, err := c.Put("default|"+path, begin, w.Code, w.Header(), w.Body.Bytes(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if p == nil {
		return nil
	}
	return p.Deps
}

// TestPagesRecordWhatTheyRead: a page the static cache stores records its own entry or term and
// what its templates (layout and partials included) read, resolving navigation references to
// their entries; a read whose name is computed keeps the page out of the cache.
func TestPagesRecordWhatTheyRead(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite+`
-- resources/views/layout.html --
<nav>{{range nav "main"}}<a href="{{.URL}}">{{.Label}}</a>{{end}}</nav>{{template "main" .}}
-- resources/views/pages.html --
{{if .Entry}}<h1>{{.Entry.Title}}</h1>{{end}}{{with paginate . "blog" "" 5}}{{range .Items}}{{.Title}}{{end}}{{end}}
-- resources/views/term.html --
{{$g := "site"}}{{with global $g}}{{.site_name}}{{end}}
`, nil)
	deps := stored(t, f, "/about")
	for _, want := range []pagecache.Dep{
		{Kind: pagecache.DepEntry, Collection: "pages", Name: "about"}, // its own entry
		{Kind: pagecache.DepNavigation, Name: "main"},                  // the layout's nav
		{Kind: pagecache.DepEntry, Collection: "blog", Name: "hidden"}, // an entry the nav links to
		{Kind: pagecache.DepList, Collection: "blog"},                  // paginate
	} {
		if !slices.Contains(deps, want) {
			t.Errorf("/about did not record %+v: %+v", want, deps)
		}
	}
	if deps := stored(t, f, "/tags/news"); deps != nil {
		t.Errorf("a page reading a computed global was stored with %+v", deps)
	}
}
