package site_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/handlers/site"
)

// The built-in theme renders entries, terms, the home page and the 404 page; drafts, wrong
// dates, unknown paths and malformed percent-encoding are 404s.
func TestPages(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, nil)
	cases := []struct {
		path   string
		status int
		want   []string
		absent []string
	}{
		{"/blog/2026/04/hello", 200, []string{"<h1>Hello World</h1>", "<strong>the blog</strong>", `<time datetime="2026-04-06">6 April 2026</time>`,
			`<title>Hello World</title>`, `<link rel="canonical" href="https://example.com/blog/2026/04/hello">`,
			`<a href="/about">About</a>`, `<span>Draft</span>`, `<a href="https://example.org/" rel="noopener">Elsewhere</a>`, `<a class="site-name" href="/">Test Site</a>`,
			`<html lang="en">`, `<link rel="stylesheet" href="/_theme/theme.css?v=`}, []string{"Hidden Draft"}},
		{"/about", 200, []string{"<h1>About Us</h1>", "About text."}, nil},
		{"/tags/news", 200, []string{"<h1>News</h1>", "What is new.", `<a href="/blog/2026/04/hello">Hello World</a>`, "The first post."}, []string{"Hidden Draft"}},
		{"/", 200, []string{"<h1>Test Site</h1>", "<h2>Blog</h2>", `<a href="/blog/2026/05/second">Second Post</a>`, "<h2>Pages</h2>"}, []string{"Hidden Draft"}},
		{"/blog/2026/04/hidden", 404, []string{"<h1>Page not found</h1>", `<meta name="robots" content="noindex">`}, []string{"Not yet"}},
		{"/hidden", 404, nil, nil},
		{"/blog/2025/04/hello", 404, nil, nil}, // the date parts must be the entry's own
		{"/blog/2026/4/hello", 404, nil, nil},
		{"/tags/secret", 404, nil, nil}, // a draft term
		{"/no-such-page", 404, nil, nil},
		{"/blog/2026/04/hel%zzlo", 404, nil, nil},
		{"/%", 404, nil, nil},
		{"/blog/2026/04/hello/extra", 404, nil, nil},
		{"/..%2F..%2Fetc%2Fpasswd", 404, nil, nil},
	}
	for _, c := range cases {
		w := f.get(t, c.path)
		if w.Code != c.status {
			t.Errorf("%s: status %d, want %d", c.path, w.Code, c.status)
			continue
		}
		if ct := w.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", c.path, ct)
		}
		wantContains(t, c.path, w.Body.String(), c.want...)
		wantNotContains(t, c.path, w.Body.String(), c.absent...)
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, func(d *site.Deps) {
		d.CacheControl = "public, max-age=300"
		d.ContentSecurityPolicy = site.DefaultCSP
	})
	w := f.get(t, "/about")
	etag := w.Header().Get("Etag")
	if w.Code != 200 || etag == "" || w.Header().Get("Cache-Control") != "public, max-age=300" || w.Header().Get("Content-Length") == "" {
		t.Fatalf("GET: %d %v", w.Code, w.Header())
	}
	if csp := w.Header().Get("Content-Security-Policy"); csp != site.DefaultCSP || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q", csp)
	}
	// Same page, same ETag; If-None-Match gets a 304 without a body.
	if again := f.get(t, "/about"); again.Header().Get("Etag") != etag {
		t.Errorf("ETag changed between two renders: %s, %s", etag, again.Header().Get("Etag"))
	}
	nm := f.do(t, req{path: "/about", header: http.Header{"If-None-Match": {etag}}})
	if nm.Code != http.StatusNotModified || nm.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d %q", nm.Code, nm.Body)
	}
	// HEAD: the GET's headers, no body.
	h := f.do(t, req{method: http.MethodHead, path: "/about"})
	if h.Code != 200 || h.Body.Len() != 0 || h.Header().Get("Etag") != etag || h.Header().Get("Content-Length") != w.Header().Get("Content-Length") {
		t.Errorf("HEAD: %d %v body %q", h.Code, h.Header(), h.Body)
	}
	// Other methods: 405 with Allow.
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		w := f.do(t, req{method: m, path: "/about"})
		if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d Allow %q", m, w.Code, w.Header().Get("Allow"))
		}
	}
	// A 404 page is not cached as a page.
	if w := f.get(t, "/nope"); w.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("404 Cache-Control %q", w.Header().Get("Cache-Control"))
	}
	// A trailing slash moves permanently to the one URL, query kept.
	w = f.get(t, "/about/?a=1")
	if w.Code != http.StatusPermanentRedirect || w.Header().Get("Location") != "/about?a=1" {
		t.Errorf("trailing slash: %d %q", w.Code, w.Header().Get("Location"))
	}
	// "//evil.example/" must never become a protocol-relative redirect.
	if w := f.get(t, "//evil.example/"); w.Code == http.StatusPermanentRedirect {
		t.Errorf("redirected //evil.example/ to %q", w.Header().Get("Location"))
	}
	// The theme stylesheet is a file (the CSP needs no 'unsafe-inline').
	css := f.get(t, "/_theme/theme.css")
	if css.Code != 200 || css.Header().Get("Content-Type") != "text/css; charset=utf-8" || !strings.Contains(css.Body.String(), ".wrap") {
		t.Errorf("theme.css: %d %v", css.Code, css.Header())
	}
}

// Every field an editor controls is escaped: nothing becomes markup.
func TestEscaping(t *testing.T) {
	t.Parallel()
	const x = `<script>alert(1)</script>`
	f := newSite(t, testSite+`
-- content/collections/pages/evil.md --
---
title: "`+x+`"
status: published
createdAt: 2026-01-01T00:00:00.000Z
excerpt: "`+x+`"
meta_description: "`+x+`"
---
`+x+`

[link](javascript:alert(1))
-- content/taxonomies/tags/evil.yaml --
title: "`+x+`"
description: "`+x+`"
-- content/settings.yaml --
site_name: "`+x+`"
`, nil)
	for _, p := range []string{"/evil", "/tags/evil", "/"} {
		w := f.get(t, p)
		if w.Code != 200 {
			t.Errorf("%s: %d", p, w.Code)
		}
		wantNotContains(t, p, w.Body.String(), "<script>", "javascript:")
		wantContains(t, p, w.Body.String(), "&lt;script&gt;")
	}
}

// A site template is found by the lookup order; what the site lacks comes from the built-in
// theme; a template edit shows on the next request.
func TestTemplateLookup(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite+`
-- resources/views/layout.html --
<!doctype html><html><head>{{seo .}}</head><body>{{template "partials/nav.html" .}}<main>{{template "main" .}}</main></body></html>
-- resources/views/partials/nav.html --
<nav>{{range nav "main"}}[{{.Label}}]{{end}}</nav>
-- resources/views/blog.html --
BLOG {{.Entry.Title}} in {{.Collection.Title}}
-- resources/views/entry.html --
ENTRY {{.Entry.Title}} {{.Entry.HTML}}
-- resources/views/special.html --
SPECIAL {{.Entry.Title}}
-- resources/views/home.html --
HOME {{range entries "blog" "limit=1&sort=-createdAt"}}{{.Title}}{{end}} {{url "https://x.example/a"}} {{url "/b"}} {{absURL "/c"}}
-- content/collections/pages/odd.md --
---
title: Odd One
status: published
template: special
---
`, nil)
	cases := map[string]string{
		"/blog/2026/04/hello": "<main>BLOG Hello World in Blog\n</main>",
		"/about":              "<main>ENTRY About Us <p>About text.</p>\n\n</main>",
		"/odd":                "<main>SPECIAL Odd One\n</main>",
		"/":                   "<main>HOME Second Post https://x.example/a /b https://example.com/c\n</main>",
	}
	for p, want := range cases {
		w := f.get(t, p)
		wantContains(t, p, w.Body.String(), want, "<nav>[Home][About][Draft][Elsewhere]</nav>")
	}
	// No term.html or 404.html in the site: the built-in theme's.
	wantContains(t, "term", f.get(t, "/tags/news").Body.String(), "<h1>News</h1>", `href="/_theme/theme.css`)
	w := f.get(t, "/missing")
	if w.Code != 404 {
		t.Errorf("404: %d", w.Code)
	}
	wantContains(t, "404", w.Body.String(), "<h1>Page not found</h1>")

	// Hot reload.
	p := filepath.Join(f.dir, "resources", "views", "entry.html")
	if err := os.WriteFile(p, []byte("CHANGED {{.Entry.Title}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	os.Chtimes(p, later, later)
	wantContains(t, "after edit", f.get(t, "/about").Body.String(), "<main>CHANGED About Us</main>")
	// A new 404.html is picked up too.
	os.WriteFile(filepath.Join(f.dir, "resources", "views", "404.html"), []byte("GONE {{.Status}}"), 0o644)
	w = f.get(t, "/missing")
	if w.Code != 404 || !strings.Contains(w.Body.String(), "<main>GONE 404</main>") {
		t.Errorf("new 404.html: %d %s", w.Code, w.Body)
	}
}

// A failing template gives the fixed 500 page, never half a page, and a log line naming the
// template file and line.
func TestTemplateError(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite+`
-- resources/views/entry.html --
<h1>{{.Entry.Title}}</h1>
<p>fine so far</p>
{{entries "no-such-collection" "limit=1"}}
-- resources/views/blog.html --
<h1>{{.Entry.Title}}
{{if}}
`, nil)
	w := f.get(t, "/about")
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("status %d", w.Code)
	}
	wantContains(t, "500 page", w.Body.String(), "Something went wrong")
	wantNotContains(t, "500 page", w.Body.String(), "fine so far", "About Us")
	wantContains(t, "log", f.log.String(), "template failed", "entry.html:3:")
	// A parse error: the page fails the same way, the log names its line.
	w = f.get(t, "/blog/2026/04/hello")
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("parse error: status %d", w.Code)
	}
	wantContains(t, "log", f.log.String(), "blog.html:2:")
}

func TestMultiSite(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite+`
-- resources/collections/products.yaml --
title: Products
blueprint: pages
route: /p/{slug}
sites: [shop]
-- content/collections/products/chair.md --
---
title: Chair
status: published
---
`, func(d *site.Deps) {
		d.Sites = []content.Site{
			{Handle: "main", URL: "https://example.com", Locale: "en-GB", Default: true},
			{Handle: "de", URL: "https://example.com/de", Locale: "de"},
			{Handle: "shop", URL: "https://shop.example.net", Locale: "en-US"},
		}
	})
	cases := []struct {
		host, path, fwd string
		status          int
		want            []string
	}{
		{"example.com", "/about", "", 200, []string{`<link rel="canonical" href="https://example.com/about">`, `<html lang="en-GB">`}},
		{"EXAMPLE.COM:443", "/about", "", 200, []string{`<link rel="canonical" href="https://example.com/about">`}},
		{"example.com", "/de/about", "", 200, []string{`<link rel="canonical" href="https://example.com/de/about">`, `<html lang="de">`, `<a href="/de/about">About</a>`, `href="/de/_theme/theme.css`}},
		{"example.com", "/de/blog/2026/04/hello", "", 200, []string{`<time datetime="2026-04-06">6. April 2026</time>`}},
		{"shop.example.net", "/blog/2026/04/hello", "", 200, []string{`<link rel="canonical" href="https://shop.example.net/blog/2026/04/hello">`, `April 6, 2026`}},
		{"shop.example.net", "/p/chair", "", 200, []string{"<h1>Chair</h1>"}},
		{"example.com", "/p/chair", "", 404, nil}, // the collection is on the shop only
		// An unknown host is the default site; canonical URLs stay the configured origin.
		{"attacker.test", "/about", "", 200, []string{`<link rel="canonical" href="https://example.com/about">`}},
		// X-Forwarded-Host never chooses the site.
		{"example.com", "/p/chair", "shop.example.net", 404, nil},
		{"attacker.test", "/about", "shop.example.net", 200, []string{`href="https://example.com/about"`}},
	}
	for _, c := range cases {
		r := req{host: c.host, path: c.path}
		if c.fwd != "" {
			r.header = http.Header{"X-Forwarded-Host": {c.fwd}}
		}
		w := f.do(t, r)
		if w.Code != c.status {
			t.Errorf("%s%s: status %d, want %d", c.host, c.path, w.Code, c.status)
			continue
		}
		wantContains(t, c.host+c.path, w.Body.String(), c.want...)
		wantNotContains(t, c.host+c.path, w.Body.String(), "attacker.test")
	}
}

// A page shows the form from its blueprint; after a failed browser post (the forms group's
// 303 back with ?form=&status=error&errors=) it shows the messages next to the fields.
func TestForm(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, nil)
	body := f.get(t, "/contact").Body.String()
	wantContains(t, "form", body, `<form class="cms-form" method="post" action="/api/forms/contact/submit"`,
		`<label for="contact-name">Your name <span class="cms-required" aria-hidden="true">*</span></label>`,
		`<input type="email" id="contact-email" name="email" value="" required>`,
		`<option value="sales">sales</option>`, `<textarea id="contact-message" name="message"`,
		`name="_honeypot"`, `<div class="cms-hp" hidden>`)
	wantNotContains(t, "form", body, "role=\"alert\"")

	q := `/contact?form=contact&status=error&code=VALIDATION_ERROR&errors=%7B%22email%22%3A%5B%22Must+be+a+valid+%3Cemail%3E%22%5D%7D` +
		`&old=%7B%22name%22%3A%22Ada+%3Cb%3E%22%2C%22email%22%3A%22ada%40%22%2C%22topic%22%3A%22sales%22%7D`
	body = f.get(t, q).Body.String()
	wantContains(t, "failed post", body, `role="alert">Please check the fields marked below.`,
		`name="name" value="Ada &lt;b&gt;" required>`, `name="email" value="ada@" required aria-invalid="true"`, `<option value="sales" selected>sales</option>`,
		`aria-invalid="true" aria-describedby="contact-email-error"`, `<p class="cms-field-error" id="contact-email-error">Must be a valid &lt;email&gt;</p>`)
	body = f.get(t, "/contact?form=contact&status=ok").Body.String()
	wantContains(t, "sent", body, `role="status">Thank you`)
	// Another form's outcome is not this form's.
	wantNotContains(t, "other form", f.get(t, "/contact?form=other&status=ok").Body.String(), "Thank you")
}

// Paths of other surfaces that reach the site (the surface is off) are 404s, never pages.
func TestReserved(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite+`
-- content/collections/pages/cp.md --
---
title: Not The CP
status: published
---
`, func(d *site.Deps) { d.Reserved = []string{"/cp", "/assets"} })
	for _, p := range []string{"/cp", "/cp/", "/cp/login", "/assets/x.png"} {
		if w := f.get(t, p); w.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, w.Code)
		}
	}
	if w := f.get(t, "/cpx"); w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "Not The CP") {
		t.Errorf("GET /cpx = %d", w.Code)
	}
}
