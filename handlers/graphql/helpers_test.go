package graphql_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/graphql"
	"cms/handlers/web/webtest"
)

// site is the shared test site: a blog with a typed blueprint, pages, globals and a navigation
// tree with entry references.
const site = `
-- resources/collections/blog.yaml --
title: Blog
blueprint: blog
route: /blog/{slug}
-- resources/collections/pages.yaml --
title: Pages
-- resources/blueprints/collections/blog.yaml --
tabs:
  main:
    fields:
      - handle: title
        field: {type: text, required: true}
      - handle: excerpt
        field: {type: text}
      - handle: featured
        field: {type: toggle}
      - handle: reading_time
        field: {type: number, options: {integer: true}}
      - handle: rating
        field: {type: number}
      - handle: tags
        field: {type: taxonomy, options: {taxonomy: tags}}
      - handle: cover
        field: {type: asset}
      - handle: gallery
        field: {type: asset, options: {max_files: 3}}
      - handle: blocks
        field: {type: replicator}
      - handle: meta-title
        field: {type: text}
      - handle: meta_title
        field: {type: text}
      - handle: __typename
        field: {type: text}
      - handle: 2nd
        field: {type: text}
-- content/collections/blog/alpha.md --
---
title: Alpha
status: published
author: ann
createdAt: 2026-01-01T10:00:00.000Z
updatedAt: 2026-01-02T10:00:00.000Z
excerpt: First
featured: true
reading_time: 5
rating: 4.5
tags: [go, cms]
cover: /assets/alpha.png
gallery: [/assets/a1.png, /assets/a2.png]
blocks:
  - _type: text
    body: Hello
meta-title: Alpha meta
__typename: sneaky
2nd: second
---

# Alpha

Body of *alpha*.
-- content/collections/blog/beta.md --
---
title: Beta
status: published
createdAt: 2026-02-01T10:00:00.000Z
excerpt: Second
featured: false
reading_time: 12
rating: 3
tags: [go]
---

Beta body.
-- content/collections/blog/gamma.md --
---
title: Gamma
status: published
createdAt: 2026-03-01T10:00:00.000Z
featured: true
reading_time: 7
tags: [news]
---
-- content/collections/blog/draft-post.md --
---
title: Draft post
status: draft
createdAt: 2026-04-01T10:00:00.000Z
featured: true
---

Not yet.
-- content/collections/pages/about.md --
---
title: About
status: published
---

About us.
-- content/collections/pages/hidden.md --
---
title: Hidden
status: draft
---
-- resources/globals/site-settings.yaml --
title: Site Settings
-- content/globals/site-settings.yaml --
site_name: Test Site
social:
  - _type: social_link
    url: https://example.com
-- resources/globals/footer.yaml --
title: Footer
-- resources/navigations/main.yaml --
title: Main
max_depth: 3
-- content/navigation/main.yaml --
items:
  - label: Home
    url: /
  - label: Blog
    children:
      - label: Alpha
        entry: blog/alpha
      - label: Draft
        entry: blog/draft-post
        children:
          - label: Deep
            url: /deep
            external: true
  - label: About
    entry: pages/about
-- resources/navigations/empty.yaml --
title: Empty
`

// Session tokens of the test users (newAuth starts their sessions).
var (
	adminTok  = webtest.Token("admin")  // entries view/create/edit everywhere, globals, navigation
	readerTok = webtest.Token("reader") // entries:view everywhere only
	blogTok   = webtest.Token("blog")   // entries view and edit on blog only
	noneTok   = webtest.Token("none")   // signed in, no grants
)

func newAuth(t testing.TB) *webtest.Auth {
	auth := webtest.NewAuth(t)
	auth.Add(adminTok, "admin", webtest.Role("admin",
		webtest.Grant("entries", "view", "create", "edit"),
		webtest.Grant("globals", "view"),
		webtest.Grant("navigation", "view")))
	auth.Add(readerTok, "reader", webtest.Role("reader", webtest.Grant("entries", "view")))
	auth.Add(blogTok, "blogger", webtest.Role("blogger",
		content.Permission{Resource: "entries", Actions: []string{"view", "edit"}, Scope: "blog"}))
	auth.Add(noneTok, "none", webtest.Role("none"))
	return auth
}

// testConfig is the configuration tests start from: enabled, introspection on.
func testConfig() graphql.Config {
	return graphql.Config{Enabled: true, Introspection: true}
}

// newHandler builds the group on a store over the archive's site.
func newHandler(t testing.TB, archive string, cfg graphql.Config) http.Handler {
	t.Helper()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, archive))
	return newHandlerOn(t, st, cfg)
}

func newHandlerOn(t testing.TB, st graphql.Store, cfg graphql.Config) http.Handler {
	t.Helper()
	return newHandlerWith(t, st, newAuth(t), cfg)
}

// newHandlerWith builds the group with another authenticator.
func newHandlerWith(t testing.TB, st graphql.Store, auth *webtest.Auth, cfg graphql.Config) http.Handler {
	t.Helper()
	h, err := graphql.New(graphql.Deps{Store: st, Auth: auth, Markdown: markdown.New(false), Config: cfg, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("graphql.New: %v", err)
	}
	return h
}

// response is a decoded GraphQL response.
type response struct {
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string `json:"message"`
		Path       []any  `json:"path"`
		Extensions struct {
			Code string `json:"code"`
		} `json:"extensions"`
	} `json:"errors"`
	raw string
}

// codes lists the extensions.code of every error.
func (r response) codes() []string {
	out := make([]string, len(r.Errors))
	for i, e := range r.Errors {
		out[i] = e.Extensions.Code
	}
	return out
}

// gqlReq is one GraphQL call.
type gqlReq struct {
	token     string
	query     string
	variables any
	opName    string
}

// post sends a GraphQL POST and decodes the 200 answer.
func post(t testing.TB, h http.Handler, q gqlReq) response {
	t.Helper()
	body := map[string]any{"query": q.query}
	if q.variables != nil {
		body["variables"] = q.variables
	}
	if q.opName != "" {
		body["operationName"] = q.opName
	}
	w := webtest.Do(t, h, webtest.Request{Method: http.MethodPost, Path: "/api/graphql", Body: body, Token: q.token})
	return decode(t, w)
}

// get sends a GraphQL GET and decodes the 200 answer.
func get(t testing.TB, h http.Handler, token, query string) response {
	t.Helper()
	w := webtest.Do(t, h, webtest.Request{Path: "/api/graphql?query=" + url.QueryEscape(query), Token: token})
	return decode(t, w)
}

func decode(t testing.TB, w *httptest.ResponseRecorder) response {
	t.Helper()
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d, want 200: %s", w.Code, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var r response
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("decode %s: %v", w.Body.String(), err)
	}
	r.raw = w.Body.String()
	return r
}

// noErrors fails the test when the response has errors.
func noErrors(t testing.TB, r response) {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("unexpected errors: %s", r.raw)
	}
}

// oneError checks that the response has exactly one error with the code (and, when given, a
// message containing msg).
func oneError(t testing.TB, r response, code, msg string) {
	t.Helper()
	if len(r.Errors) != 1 {
		t.Fatalf("errors = %d, want 1 with code %s: %s", len(r.Errors), code, r.raw)
	}
	if got := r.Errors[0].Extensions.Code; got != code {
		t.Errorf("extensions.code = %q, want %q: %s", got, code, r.raw)
	}
	if msg != "" && !strings.Contains(r.Errors[0].Message, msg) {
		t.Errorf("message = %q, want it to contain %q", r.Errors[0].Message, msg)
	}
}

// slugs returns the slug of every entry of a list field.
func slugs(t testing.TB, r response, field string) []string {
	t.Helper()
	list, ok := r.Data[field].([]any)
	if !ok {
		t.Fatalf("data.%s is not a list: %s", field, r.raw)
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i], _ = x.(map[string]any)["slug"].(string)
	}
	return out
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
