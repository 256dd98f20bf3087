package pagecache

import (
	"net/http"
	"testing"
)

func TestBypass(t *testing.T) {
	r := &Rules{Exclude: []string{"/account*", "*/preview"}, Reserved: []string{"/api", "/cp/", "/assets"}}
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Add(kv[i], kv[i+1])
		}
		return out
	}
	cases := []struct {
		name, method, path string
		h                  http.Header
		unknown            bool
		want               string
	}{
		{"plain page", "GET", "/blog/hello", nil, false, ""},
		{"head", "HEAD", "/blog/hello", nil, false, ""},
		{"root", "GET", "/", nil, false, ""},
		{"post", "POST", "/blog", nil, false, ReasonMethod},
		{"cookie", "GET", "/", h("Cookie", "a=b"), false, ReasonCookie},
		{"authorization", "GET", "/", h("Authorization", "Bearer x"), false, ReasonAuthorization},
		{"accept json", "GET", "/", h("Accept", "application/json"), false, ReasonAccept},
		{"accept html q0", "GET", "/", h("Accept", "text/html;q=0, application/json"), false, ReasonAccept},
		{"accept browser", "GET", "/", h("Accept", "text/html,application/xhtml+xml,*/*;q=0.8"), false, ""},
		{"accept any", "GET", "/", h("Accept", "*/*"), false, ""},
		{"api", "GET", "/api/entries", nil, false, ReasonReserved},
		{"api exact", "GET", "/api", nil, false, ReasonReserved},
		{"apis is a page", "GET", "/apis", nil, false, ""},
		{"cp", "GET", "/cp/login", nil, false, ReasonReserved},
		{"assets", "GET", "/assets/a.png", nil, false, ReasonReserved},
		{"excluded glob", "GET", "/account/orders/1", nil, false, ReasonExcluded},
		{"excluded suffix", "GET", "/blog/x/preview", nil, false, ReasonExcluded},
		{"unknown host", "GET", "/", nil, true, ReasonUnknownSite},
		{"bypass header", "GET", "/", h(BypassHeader, "1"), false, ReasonBypassHeader},
		{"prefetch", "GET", "/", h("Sec-Purpose", "prefetch;prerender"), false, ReasonPrefetch},
		{"rsc", "GET", "/", h("Rsc", "1"), false, ReasonPrefetch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hh := c.h
			if hh == nil {
				hh = http.Header{}
			}
			if got := r.Bypass(c.method, c.path, hh, !c.unknown); got != c.want {
				t.Errorf("Bypass = %q, want %q", got, c.want)
			}
		})
	}
}

func TestStorable(t *testing.T) {
	cases := []struct {
		name   string
		status int
		kv     []string
		want   bool
	}{
		{"html 200", 200, []string{"Content-Type", "text/html; charset=utf-8"}, true},
		{"public max-age", 200, []string{"Content-Type", "text/html", "Cache-Control", "public, max-age=60"}, true},
		{"vary accept-encoding", 200, []string{"Content-Type", "text/html", "Vary", "Accept-Encoding"}, true},
		{"404", 404, []string{"Content-Type", "text/html"}, false},
		{"301", 301, []string{"Content-Type", "text/html"}, false},
		{"json", 200, []string{"Content-Type", "application/json"}, false},
		{"no type", 200, nil, false},
		{"set-cookie", 200, []string{"Content-Type", "text/html", "Set-Cookie", "s=1"}, false},
		{"private", 200, []string{"Content-Type", "text/html", "Cache-Control", "private"}, false},
		{"no-store", 200, []string{"Content-Type", "text/html", "Cache-Control", "max-age=0, no-store"}, false},
		{"no-cache", 200, []string{"Content-Type", "text/html", "Cache-Control", "no-cache"}, false},
		{"vary cookie", 200, []string{"Content-Type", "text/html", "Vary", "Cookie"}, false},
		{"already encoded", 200, []string{"Content-Type", "text/html", "Content-Encoding", "gzip"}, false},
	}
	for _, c := range cases {
		h := http.Header{}
		for i := 0; i < len(c.kv); i += 2 {
			h.Add(c.kv[i], c.kv[i+1])
		}
		if got := Storable(c.status, h); got != c.want {
			t.Errorf("%s: Storable = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestKey(t *testing.T) {
	ign := &Rules{}
	sep := &Rules{QueryStrings: QuerySeparate}
	cases := []struct {
		r               *Rules
		site, path, raw string
		want            string
		ok              bool
	}{
		{ign, "default", "/", "", "default|/", true},
		{ign, "default", "/blog/", "", "default|/blog", true},
		{ign, "default", "/blog", "b=2&a=1", "default|/blog", true},
		{ign, "fr", "/blog", "", "fr|/blog", true},
		{sep, "default", "/blog", "b=2&a=1&a=0", "default|/blog?a=0&a=1&b=2", true},
		{sep, "default", "/blog", "", "default|/blog", true},
		{ign, "default", "/../etc", "", "", false},
		{ign, "default", "/.git/config", "", "", false},
		{ign, "default", "/a//b", "", "", false},
		{ign, "default", "/a/index.html", "", "", false},
		{ign, "default", "/a\x00b", "", "", false},
		{ign, "default", "relative", "", "", false},
	}
	for _, c := range cases {
		got, ok := c.r.Key(c.site, c.path, c.raw)
		if got != c.want || ok != c.ok {
			t.Errorf("Key(%q, %q, %q) = %q, %v; want %q, %v", c.site, c.path, c.raw, got, ok, c.want, c.ok)
		}
	}
	// Keys are per site: the same path on two sites is two pages.
	a, _ := ign.Key("default", "/x", "")
	b, _ := ign.Key("fr", "/x", "")
	if a == b {
		t.Errorf("keys of two sites are equal: %q", a)
	}
}

func TestGlob(t *testing.T) {
	cases := []struct {
		g, p string
		want bool
	}{
		{"/blog/*", "/blog/a/b", true},
		{"/blog/*", "/blog", false},
		{"*", "/anything", true},
		{"/a*c", "/abbbc", true},
		{"/a*c", "/abbbd", false},
		{"/exact", "/exact", true},
		{"/exact", "/exact/", false},
		{"*/x/*/y", "/a/x/b/c/y", true},
	}
	for _, c := range cases {
		if got := Glob(c.g, c.p); got != c.want {
			t.Errorf("Glob(%q, %q) = %v", c.g, c.p, got)
		}
	}
}
