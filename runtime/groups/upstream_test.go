package groups_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestUpstreamThroughTheSite: with site.upstream, the page requests the site cannot route go to
// the headless frontend; redirects come first, its pages are cached, its errors are not.
func TestUpstreamThroughTheSite(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/broken" {
			w.WriteHeader(http.StatusInternalServerError)
		}
		_, _ = w.Write([]byte("<p>front " + r.URL.Path + "</p>"))
	}))
	t.Cleanup(front.Close)
	sv := newService(t, strings.Replace(blogSite, "watch: none\n", "watch: none\nsite: {upstream: '"+front.URL+"'}\nstaticCache: {enabled: true}\n", 1)+
		"-- resources/globals/site.yaml --\ntitle: Site\n")

	for i, want := range []string{"MISS", "HIT"} {
		w := sv.visit("GET", "/shop")
		if w.Code != 200 || !strings.Contains(w.Body.String(), "front /shop") || w.Header().Get("X-Cache") != want {
			t.Errorf("GET /shop #%d = %d X-Cache %q %s", i+1, w.Code, w.Header().Get("X-Cache"), w.Body)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("the frontend was asked %d times for a cached page", n)
	}
	for i := range 2 {
		if w := sv.visit("GET", "/broken"); w.Code != 500 || w.Header().Get("X-Cache") == "HIT" {
			t.Errorf("GET /broken #%d = %d X-Cache %q", i+1, w.Code, w.Header().Get("X-Cache"))
		}
	}
	if w := sv.visit("GET", "/old"); w.Code != http.StatusMovedPermanently {
		t.Errorf("a redirect went upstream: %d", w.Code)
	}
	if w := sv.visit("GET", "/blog/hello"); !strings.Contains(w.Body.String(), "Hello body.") {
		t.Errorf("the site's own page: %d %s", w.Code, w.Body)
	}
	// A global edit purges the frontend's pages: they record nothing they read.
	if w := sv.do("PUT", "/api/globals/site", `{"tagline":"x"}`); w.Code != 200 {
		t.Fatalf("global edit: %d %s", w.Code, w.Body)
	}
	if w := sv.visit("GET", "/shop"); w.Header().Get("X-Cache") != "MISS" {
		t.Errorf("after a global edit, GET /shop: X-Cache %q, want MISS", w.Header().Get("X-Cache"))
	}
}
