package site_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/handlers/site"
)

// testSite is a small site: a dated blog, pages at /{slug}, tags, drafts, a form, a menu.
const testSite = `
-- resources/collections/blog.yaml --
title: Blog
blueprint: blog
route: /blog/{year}/{month}/{slug}
taxonomies: [tags]
-- resources/blueprints/collections/blog.yaml --
tabs:
  main:
    fields:
      - handle: title
        field: {type: text, required: true}
-- resources/collections/pages.yaml --
title: Pages
blueprint: pages
-- resources/blueprints/collections/pages.yaml --
tabs:
  main:
    fields:
      - handle: title
        field: {type: text, required: true}
-- resources/taxonomies/tags.yaml --
title: Tags
-- content/taxonomies/tags/news.yaml --
title: News
description: What is new.
-- content/taxonomies/tags/secret.yaml --
title: Secret
status: draft
-- content/collections/blog/hello.md --
---
title: Hello World
status: published
createdAt: 2026-04-06T09:00:00.000Z
updatedAt: 2026-04-07T10:00:00.000Z
tags: [news]
excerpt: The first post.
---
Welcome to **the blog**.
-- content/collections/blog/second.md --
---
title: Second Post
status: published
createdAt: 2026-05-01T09:00:00.000Z
updatedAt: 2026-05-01T09:00:00.000Z
---
More.
-- content/collections/blog/hidden.md --
---
title: Hidden Draft
status: draft
createdAt: 2026-04-08T09:00:00.000Z
tags: [news]
---
Not yet.
-- content/collections/pages/about.md --
---
title: About Us
status: published
createdAt: 2026-01-01T00:00:00.000Z
updatedAt: 2026-01-02T00:00:00.000Z
---
About text.
-- content/collections/pages/private.md --
---
title: Private Page
status: published
createdAt: 2026-01-01T00:00:00.000Z
no_index: true
---
Not for search engines.
-- content/collections/pages/contact.md --
---
title: Contact
status: published
createdAt: 2026-01-01T00:00:00.000Z
form: contact
---
Write to us.
-- resources/forms/contact.yaml --
title: Contact
blueprint: contact
honeypot: true
redirect: /thanks
-- resources/blueprints/forms/contact.yaml --
tabs:
  main:
    fields:
      - handle: name
        field: {type: text, display: Your name, required: true}
      - handle: email
        field: {type: text, display: Email, required: true, validate: [email]}
      - handle: topic
        field: {type: select, display: Topic, options: {options: [general, sales]}}
      - handle: message
        field: {type: textarea, display: Message}
-- resources/navigations/main.yaml --
title: Main
-- content/navigation/main.yaml --
items:
  - label: Home
    url: /
  - label: About
    entry: pages/about
  - label: Draft
    entry: blog/hidden
  - label: Elsewhere
    url: https://example.org/
    external: true
-- content/settings.yaml --
site_name: Test Site
locale: en
`

// logBuffer collects log output for assertions.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type fixture struct {
	dir string
	h   http.Handler
	log *logBuffer
}

// newSite writes the archive, opens a store on it and builds the group; edit changes the deps.
func newSite(t *testing.T, archive string, edit func(*site.Deps)) *fixture {
	t.Helper()
	dir := contenttest.WriteSite(t, archive)
	st := contenttest.OpenStore(t, dir)
	lb := &logBuffer{}
	d := site.Deps{
		Store: st,
		Sites: []content.Site{{Handle: "default", URL: "https://example.com", Locale: "en", Default: true}},
		Views: filepath.Join(dir, "resources", "views"),
		DataPaths: []string{filepath.Join(dir, "content", "globals"), filepath.Join(dir, "content", "navigation"),
			filepath.Join(dir, "content", "taxonomies"), filepath.Join(dir, "content", "settings.yaml")},
		Flags: site.Flags{Metadata: true, Sitemap: true, Robots: true, Humans: true},
		Log:   slog.New(slog.NewTextHandler(lb, nil)),
	}
	if edit != nil {
		edit(&d)
	}
	h, err := site.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{dir: dir, h: h, log: lb}
}

type req struct {
	method, path, host string
	header             http.Header
}

func (f *fixture) do(t *testing.T, r req) *httptest.ResponseRecorder {
	t.Helper()
	if r.method == "" {
		r.method = http.MethodGet
	}
	var hr *http.Request
	if _, err := url.ParseRequestURI(r.path); err != nil {
		// Malformed escapes: net/http's server answers 400 before any handler; a handler still
		// must not trust its path, so send it as a client could build it.
		hr = httptest.NewRequest(r.method, "/", nil)
		hr.URL.Path, hr.URL.RawPath = r.path, r.path
	} else {
		hr = httptest.NewRequest(r.method, r.path, nil)
	}
	if r.host != "" {
		hr.Host = r.host
	}
	for k, vs := range r.header {
		hr.Header[k] = vs
	}
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, hr)
	return w
}

func (f *fixture) get(t *testing.T, path string) *httptest.ResponseRecorder {
	t.Helper()
	return f.do(t, req{path: path})
}

func wantContains(t *testing.T, what, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(body, s) {
			t.Errorf("%s does not contain %q:\n%s", what, s, body)
		}
	}
}

func wantNotContains(t *testing.T, what, body string, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if strings.Contains(body, s) {
			t.Errorf("%s contains %q:\n%s", what, s, body)
		}
	}
}
