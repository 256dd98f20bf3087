package site_test

import (
	"html"
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/query"
	"cms/handlers/site"
)

// TestMadoriSite renders every published entry of the shared Madori fixture site (which has no
// views) with the built-in theme: each URL from the one URL function answers its entry's page.
// It skips when $CMS_FIXTURES is unset.
func TestMadoriSite(t *testing.T) {
	t.Parallel()
	dir := contenttest.CopyFixture(t, "madori-site")
	st := contenttest.OpenStore(t, dir)
	h, err := site.New(site.Deps{Store: st, Sites: []content.Site{{Handle: "default", URL: "https://madori.example", Locale: "en", Default: true}},
		Flags: site.Flags{Metadata: true, Sitemap: true, Robots: true, Humans: true}})
	if err != nil {
		t.Fatal(err)
	}
	get := func(p string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, p, nil))
		return w
	}
	rendered := 0
	for _, c := range st.Collections() {
		list, _, err := st.Entries(c.Handle, query.Query{Status: content.StatusPublished})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range list {
			u := content.EntryURL(c, e)
			w := get(u)
			if w.Code != http.StatusOK {
				t.Errorf("%s/%s at %s: %d", c.Handle, e.Slug, u, w.Code)
				continue
			}
			wantContains(t, u, w.Body.String(), "<h1>"+html.EscapeString(e.Title)+"</h1>")
			rendered++
		}
	}
	if rendered < 10 {
		t.Errorf("only %d entries rendered", rendered)
	}
	for _, p := range []string{"/", "/sitemap.xml", "/robots.txt"} {
		if w := get(p); w.Code != http.StatusOK {
			t.Errorf("%s: %d", p, w.Code)
		}
	}
	t.Logf("%d published entries rendered", rendered)
}
