package groups_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const cachedSite = `-- cms.config.yaml --
watch: none
sites: [{handle: main, url: 'https://example.com/', locale: en}]
staticCache: {enabled: true}
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- resources/collections/pages.yaml --
title: Pages
route: /{slug}
-- resources/globals/site.yaml --
title: Site
-- content/globals/site.yaml --
tagline: Old tagline
-- resources/views/home.html --
<h1>Home</h1>{{range entries "blog" "sort=slug"}}<p>{{.Title}}</p>{{end}}
-- resources/views/pages.html --
<h1>{{.Entry.Title}}</h1><p>{{(global "site").tagline}}</p>
-- resources/views/blog.html --
<h1>{{.Entry.Title}}</h1>{{.Entry.HTML}}
-- content/collections/blog/hello.md --
---
title: Hello
status: published
---
Hello body.
-- content/collections/blog/first.md --
---
title: First
status: published
---
First body.
-- content/collections/pages/about.md --
---
title: About
status: published
---
-- content/collections/pages/contact.md --
---
title: Contact
status: published
---
`

// xcache requests a page anonymously and returns its X-Cache state after checking the status.
func (sv *service) xcache(target string) (string, string) {
	sv.t.Helper()
	w := sv.visit(http.MethodGet, target)
	if w.Code != http.StatusOK {
		sv.t.Fatalf("GET %s = %d %s", target, w.Code, w.Body)
	}
	return w.Header().Get("X-Cache"), w.Body.String()
}

// TestStaticCacheThroughTheSite: with staticCache.enabled the public website's pages are
// stored (MISS, then HIT), an entry edit purges exactly its page and the pages that listed its
// collection, and a global edit purges the pages that rendered it.
func TestStaticCacheThroughTheSite(t *testing.T) {
	t.Parallel()
	sv := newService(t, cachedSite)
	pages := []string{"/", "/blog/hello", "/blog/first", "/about", "/contact"}
	for _, p := range pages {
		if got, _ := sv.xcache(p); got != "MISS" {
			t.Errorf("first GET %s: X-Cache %q, want MISS", p, got)
		}
	}
	for _, p := range pages {
		if got, _ := sv.xcache(p); got != "HIT" {
			t.Errorf("second GET %s: X-Cache %q, want HIT", p, got)
		}
	}
	// Editing blog/hello purges its page and the home page that lists blog, nothing else.
	if w := sv.do("PUT", "/api/entries/blog/hello", `{"title":"Hello again","contentHash":"`+sv.hash("blog", "hello")+`"}`); w.Code != 200 {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	want := map[string]string{"/": "MISS", "/blog/hello": "MISS", "/blog/first": "HIT", "/about": "HIT", "/contact": "HIT"}
	for _, p := range pages {
		got, body := sv.xcache(p)
		if got != want[p] {
			t.Errorf("after the entry edit, GET %s: X-Cache %q, want %s", p, got, want[p])
		}
		if (p == "/" || p == "/blog/hello") && !strings.Contains(body, "Hello again") {
			t.Errorf("after the entry edit, GET %s shows the old title: %s", p, body)
		}
	}

	// Editing the global purges the pages that rendered it (the pages collection's).
	if w := sv.do("PUT", "/api/globals/site", `{"tagline":"New tagline"}`); w.Code != 200 {
		t.Fatalf("global edit: %d %s", w.Code, w.Body)
	}
	want = map[string]string{"/": "HIT", "/blog/hello": "HIT", "/blog/first": "HIT", "/about": "MISS", "/contact": "MISS"}
	for _, p := range pages {
		got, body := sv.xcache(p)
		if got != want[p] {
			t.Errorf("after the global edit, GET %s: X-Cache %q, want %s", p, got, want[p])
		}
		if (p == "/about" || p == "/contact") && !strings.Contains(body, "New tagline") {
			t.Errorf("after the global edit, GET %s shows the old tagline: %s", p, body)
		}
	}

	// A request with a cookie is rendered, never answered from the cache.
	rq := httptest.NewRequest(http.MethodGet, "/about", nil)
	rq.Host = "example.com"
	rq.Header.Set("Cookie", "session=x")
	w := httptest.NewRecorder()
	sv.mux.ServeHTTP(w, rq)
	if w.Code != 200 || w.Header().Get("X-Cache") != "BYPASS" {
		t.Errorf("GET /about with a cookie = %d, X-Cache %q", w.Code, w.Header().Get("X-Cache"))
	}
	// The readiness details report the cache.
	if w := sv.do("GET", "/api/health/ready", ""); !strings.Contains(w.Body.String(), `"name":"static.pages"`) {
		t.Errorf("readiness does not report the static cache: %s", w.Body)
	}

	// Redirects come before the cache.
	sv.rename("blog", "first", "second")
	if w := sv.visit("GET", "/blog/first"); w.Code != http.StatusMovedPermanently {
		t.Errorf("renamed entry's old URL = %d (X-Cache %q)", w.Code, w.Header().Get("X-Cache"))
	}
}

// TestStaticCacheCPOperations: the CP's warm stores every routed published page in the cache
// the website serves from, the stats count them, and clear empties it; with the cache off the
// routes answer 409 DISABLED.
func TestStaticCacheCPOperations(t *testing.T) {
	t.Parallel()
	sv := newService(t, cachedSite)
	if w := sv.do("POST", "/api/cache/warm", ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"requested":5,"stored":5,"cached":0,"failed":0`) {
		t.Fatalf("warm: %d %s", w.Code, w.Body)
	}
	for _, p := range []string{"/", "/blog/hello", "/about"} {
		if got, _ := sv.xcache(p); got != "HIT" {
			t.Errorf("GET %s after warm: X-Cache %q, want HIT", p, got)
		}
	}
	if w := sv.do("GET", "/api/cache", ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"entries":5,`) {
		t.Errorf("stats: %d %s", w.Code, w.Body)
	}
	if w := sv.do("POST", "/api/cache/clear", ""); w.Code != http.StatusOK || strings.TrimSpace(w.Body.String()) != `{"data":{"cleared":5}}` {
		t.Errorf("clear: %d %s", w.Code, w.Body)
	}
	if got, _ := sv.xcache("/about"); got != "MISS" {
		t.Errorf("GET /about after clear: X-Cache %q, want MISS", got)
	}
	anon := *sv
	anon.token = ""
	if w := anon.do("POST", "/api/cache/clear", ""); w.Code != http.StatusUnauthorized {
		t.Errorf("anonymous clear: %d %s", w.Code, w.Body)
	}

	off := newService(t, strings.Replace(cachedSite, "staticCache: {enabled: true}", "staticCache: {enabled: false}", 1))
	if w := off.do("GET", "/api/cache", ""); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), `"DISABLED"`) {
		t.Errorf("stats while off: %d %s", w.Code, w.Body)
	}
}

// The static cache's keys do not tell /x from /x/, so a stored page must never answer the form
// seo.trailingSlash moves: that request gets the redirect, whatever is cached.
func TestStaticCacheKeepsTheTrailingSlashPolicy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ policy, page, moved, target string }{
		{"never", "/about", "/about/", "/about"},
		{"always", "/about/", "/about", "/about/"},
	} {
		t.Run(c.policy, func(t *testing.T) {
			t.Parallel()
			sv := newService(t, strings.Replace(cachedSite, "staticCache: {enabled: true}", "staticCache: {enabled: true}\nseo: {trailingSlash: "+c.policy+"}", 1))
			sv.xcache(c.page)
			if got, _ := sv.xcache(c.page); got != "HIT" {
				t.Fatalf("second GET %s: X-Cache %q, want HIT", c.page, got)
			}
			w := sv.visit(http.MethodGet, c.moved)
			if w.Code != http.StatusPermanentRedirect || w.Header().Get("Location") != c.target {
				t.Errorf("GET %s = %d Location %q (X-Cache %q), want 308 to %s", c.moved, w.Code, w.Header().Get("Location"), w.Header().Get("X-Cache"), c.target)
			}
			// Warming requests each page at its own form: every page is stored, none is a redirect.
			if w := sv.do("POST", "/api/cache/warm", ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"requested":5,`) || !strings.Contains(w.Body.String(), `"failed":0`) {
				t.Errorf("warm: %d %s", w.Code, w.Body)
			}
		})
	}
}
