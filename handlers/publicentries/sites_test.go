package publicentries_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/publicentries"
)

// The public API answers for the request's site (chosen by Host, as pages are): a collection
// that lists other sites is not found here.
func TestSites(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/pages.yaml --
title: Pages
-- resources/collections/products.yaml --
title: Products
sites: [shop]
-- content/collections/products/chair.md --
---
title: Chair
status: published
---
-- content/collections/pages/about.md --
---
title: About
status: published
---
`)
	h, err := publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(t, dir), Markdown: markdown.New(false),
		Sites: []content.Site{{Handle: "main", URL: "https://example.com", Default: true}, {Handle: "shop", URL: "https://shop.example.net"}}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		host, path, fwd string
		status          int
	}{
		{"shop.example.net", "/api/public/entries/products/chair", "", 200},
		{"shop.example.net", "/api/public/entries/products", "", 200},
		{"SHOP.example.net:443", "/api/public/entries/products", "", 200},
		{"example.com", "/api/public/entries/products/chair", "", 404},
		{"example.com", "/api/public/entries/products", "", 404},
		{"unknown.test", "/api/public/entries/products", "", 404},                // the default site
		{"example.com", "/api/public/entries/products", "shop.example.net", 404}, // forwarded headers never count
		{"example.com", "/api/public/entries/pages/about", "", 200},
		{"shop.example.net", "/api/public/entries/pages/about", "", 200},
	}
	for _, c := range cases {
		r := httptest.NewRequest(http.MethodGet, c.path, nil)
		r.Host = c.host
		if c.fwd != "" {
			r.Header.Set("X-Forwarded-Host", c.fwd)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.status {
			t.Errorf("%s%s: %d, want %d: %s", c.host, c.path, w.Code, c.status, w.Body)
		}
	}
}

// On a sub-path site an entry's url carries the site's base path, in every shape (one entry, a
// list, a projection, search hits), and each site's answer is its own although they are cached.
func TestSubPathSiteURLs(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/pages.yaml --
title: Pages
-- content/collections/pages/about.md --
---
title: About
status: published
---
About us.
`)
	h, err := publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(t, dir), Markdown: markdown.New(false),
		Sites: []content.Site{{Handle: "main", URL: "https://example.com", Default: true}, {Handle: "journal", URL: "https://blog.example.org/journal"},
			{Handle: "docs", URL: "https://docs.example.org", TrailingSlash: content.SlashAlways}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, round := range []string{"first", "cached"} {
		for _, c := range []struct{ host, want string }{{"example.com", `"url":"/about"`}, {"blog.example.org", `"url":"/journal/about"`}, {"docs.example.org", `"url":"/about/"`}} {
			for _, p := range []string{"/api/public/entries/pages/about", "/api/public/entries/pages", "/api/public/entries/pages?fields=title,url", "/api/public/search?q=about"} {
				r := httptest.NewRequest(http.MethodGet, p, nil)
				r.Host = c.host
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), c.want) {
					t.Errorf("%s %s%s: %d %s, want %s", round, c.host, p, w.Code, w.Body, c.want)
				}
			}
		}
	}
}
