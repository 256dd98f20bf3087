package publicentries_test

import (
	"net/http"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/publicentries"
	"cms/handlers/web/webtest"
)

const resourceSite = `
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
public: true
taxonomies: [tags]
-- resources/collections/internal.yaml --
title: Internal
template: secret-template
-- content/collections/blog/live.md --
---
title: Live
status: published
---
-- content/collections/blog/plan.md --
---
title: Secret plan
status: draft
---
-- content/collections/internal/memo.md --
---
title: Memo
status: published
---
-- resources/globals/site.yaml --
title: Site
public: true
-- content/globals/site.yaml --
name: Example
footer: Made with cms
-- resources/globals/keys.yaml --
title: Keys
-- content/globals/keys.yaml --
apiKey: hunter2
-- resources/navigations/main.yaml --
title: Main
public: true
-- content/navigation/main.yaml --
items:
  - label: Home
    url: /
    icon: house
  - label: Live
    entry: blog/live
  - label: Plan
    entry: blog/plan
    children:
      - label: Plan details
        url: /plan/details
  - label: Gone
    entry: blog/missing
  - label: Docs
    url: https://docs.example.com
    external: true
    children:
      - label: Memo
        entry: internal/memo
      - label: Draft child
        entry: blog/plan
-- resources/navigations/admin.yaml --
title: Admin
-- content/navigation/admin.yaml --
items:
  - label: Settings
    url: /cp/settings
-- content/navigation/implicit.yaml --
items:
  - label: X
    url: /x
-- resources/taxonomies/tags.yaml --
title: Tags
public: true
-- content/taxonomies/tags/go.yaml --
title: Go
description: The language
-- content/taxonomies/tags/cms.yaml --
title: CMS
-- resources/taxonomies/internal.yaml --
title: Internal
-- content/taxonomies/internal/x.yaml --
title: X
-- users/admin.yaml --
id: admin
email: admin@example.com
name: Admin
roles: [admin]
-- resources/roles/admin.yaml --
handle: admin
permissions: []
-- content/settings.yaml --
site_name: Example
`

func newResourceHandler(t *testing.T) http.Handler {
	t.Helper()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, resourceSite))
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false), Resources: st})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestPublicResources: each resource is served only when its definition opts in; everything
// else, and everything that has no public route at all, is a 404 that reveals nothing.
func TestPublicResources(t *testing.T) {
	t.Parallel()
	h := newResourceHandler(t)
	tests := []struct {
		path   string
		status int
		want   string // a JSON fragment the body must contain
	}{
		{"/api/public/globals/site", 200, `{"data":{"name":"Example","footer":"Made with cms"}}`},
		{"/api/public/globals/keys", 404, `"Global \"keys\" not found"`},
		{"/api/public/globals/nope", 404, `NOT_FOUND`},
		{"/api/public/globals/..%2Fusers", 400, `BAD_REQUEST`},
		{"/api/public/navigation/admin", 404, `NOT_FOUND`},
		{"/api/public/navigation/implicit", 404, `NOT_FOUND`},
		{"/api/public/taxonomies/tags", 200, `{"taxonomy":"tags","slug":"cms","title":"CMS","data":{}}`},
		{"/api/public/taxonomies/tags/go", 200, `{"data":{"taxonomy":"tags","slug":"go","title":"Go","description":"The language","data":{}}}`},
		{"/api/public/taxonomies/tags/nope", 404, `NOT_FOUND`},
		{"/api/public/taxonomies/internal", 404, `NOT_FOUND`},
		{"/api/public/taxonomies/internal/x", 404, `NOT_FOUND`},
		{"/api/public/collections", 200, `{"data":[{"handle":"blog","title":"Blog","route":"/blog/{slug}","dated":false,"sortable":false,"taxonomies":["tags"]}]}`},
		{"/api/public/users", 404, `NOT_FOUND`},
		{"/api/public/users/admin", 404, `NOT_FOUND`},
		{"/api/public/roles", 404, `NOT_FOUND`},
		{"/api/public/settings", 404, `NOT_FOUND`},
		{"/api/public/forms/contact/submissions", 404, `NOT_FOUND`},
	}
	for _, tt := range tests {
		w := webtest.Do(t, h, webtest.Request{Path: tt.path})
		if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.want) {
			t.Errorf("GET %s = %d %s; want %d with %s", tt.path, w.Code, w.Body, tt.status, tt.want)
		}
		for _, secret := range []string{"hunter2", "internal", "secret-template", "Settings", "admin@"} {
			if tt.status == 200 && strings.Contains(w.Body.String(), secret) {
				t.Errorf("GET %s reveals %q: %s", tt.path, secret, w.Body)
			}
		}
	}
}

// TestPublicNavigation: entry items carry their published entry's URL; items whose entry is a
// draft or missing are left out, children and all, so no draft is linked or named.
func TestPublicNavigation(t *testing.T) {
	t.Parallel()
	h := newResourceHandler(t)
	w := webtest.Do(t, h, webtest.Request{Path: "/api/public/navigation/main"})
	const want = `{"data":{"handle":"main","title":"Main","items":[` +
		`{"label":"Home","url":"/","icon":"house"},` +
		`{"label":"Live","url":"/blog/live","entry":"blog/live"},` +
		`{"label":"Docs","url":"https://docs.example.com","external":true,"children":[` +
		`{"label":"Memo","url":"/memo","entry":"internal/memo"}]}]}}`
	if w.Code != 200 || w.Body.String() != want {
		t.Fatalf("GET main = %d\n%s\nwant\n%s", w.Code, w.Body, want)
	}
	for _, hidden := range []string{"plan", "Plan", "missing", "Gone"} {
		if strings.Contains(w.Body.String(), hidden) {
			t.Errorf("navigation reveals %q", hidden)
		}
	}
}

// TestPublicResourceCaching: the same ETag, 304 and Cache-Control as public entries, and an
// edit changes the ETag.
func TestPublicResourceCaching(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, resourceSite)
	st := contenttest.OpenStore(t, dir)
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false), Resources: st})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/public/globals/site", "/api/public/navigation/main", "/api/public/taxonomies/tags", "/api/public/taxonomies/tags/go", "/api/public/collections"} {
		w := webtest.Do(t, h, webtest.Request{Path: path})
		etag := w.Header().Get("ETag")
		if w.Code != 200 || etag == "" || w.Header().Get("Cache-Control") != "public, max-age=0, s-maxage=60, stale-while-revalidate=300" {
			t.Fatalf("GET %s = %d, ETag %q, Cache-Control %q", path, w.Code, etag, w.Header().Get("Cache-Control"))
		}
		w = webtest.Do(t, h, webtest.Request{Path: path, Header: http.Header{"If-None-Match": {etag}}})
		if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
			t.Errorf("GET %s with its ETag = %d %s, want 304", path, w.Code, w.Body)
		}
	}
	before := webtest.Do(t, h, webtest.Request{Path: "/api/public/globals/site"}).Header().Get("ETag")
	if _, err := st.SaveGlobal("site", mapOf("name", "Changed"), ""); err != nil {
		t.Fatal(err)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/public/globals/site", Header: http.Header{"If-None-Match": {before}}})
	if w.Code != 200 || !strings.Contains(w.Body.String(), "Changed") {
		t.Errorf("after an edit: %d %s, want 200 with the new value", w.Code, w.Body)
	}
}

func mapOf(kv ...any) *content.Map {
	m := content.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}
