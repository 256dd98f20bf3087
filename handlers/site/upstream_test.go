package site_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"cms/handlers/site"
)

// TestUpstream: a path no route matches goes to the headless frontend; the site's own pages do
// not; a frontend that does not answer in time gets 504 and one that is down 502, in the site's
// error page, marked no-store.
func TestUpstream(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<p>front " + r.URL.Path + "?" + r.URL.RawQuery + " host " + r.Host + "</p>"))
	}))
	t.Cleanup(front.Close)
	t.Cleanup(func() { close(release) })
	u, _ := url.Parse(front.URL)
	f := newSite(t, testSite, func(d *site.Deps) { d.Upstream = u })

	w := f.get(t, "/shop/cart?x=1")
	if w.Code != 200 || !strings.Contains(w.Body.String(), "front /shop/cart?x=1 host "+u.Host) {
		t.Errorf("unrouted path = %d %s", w.Code, w.Body)
	}
	if w := f.get(t, "/blog/2026/04/hello"); w.Code != 200 || strings.Contains(w.Body.String(), "<p>front") {
		t.Errorf("the site's own page went upstream: %d %s", w.Code, w.Body)
	}
	// Only the page that never answers meets the short timeout (the others have 30 s).
	slow := newSite(t, testSite, func(d *site.Deps) { d.Upstream, d.UpstreamTimeout = u, 50*time.Millisecond })
	w = slow.get(t, "/slow")
	if w.Code != http.StatusGatewayTimeout || !strings.Contains(w.Body.String(), "Something went wrong") || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("slow upstream = %d %q %s", w.Code, w.Header().Get("Cache-Control"), w.Body)
	}

	down := httptest.NewServer(http.NotFoundHandler())
	du, _ := url.Parse(down.URL)
	down.Close()
	f = newSite(t, testSite, func(d *site.Deps) { d.Upstream = du })
	if w := f.get(t, "/shop"); w.Code != http.StatusBadGateway || !strings.Contains(w.Body.String(), "Something went wrong") {
		t.Errorf("upstream down = %d %s", w.Code, w.Body)
	}
}
