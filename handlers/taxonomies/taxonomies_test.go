package taxonomies_test

import (
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/publicentries"
	"cms/handlers/taxonomies"
	"cms/handlers/web/webtest"
)

const site = `
-- resources/taxonomies/tags.yaml --
title: Tags
blueprint: tags
route: /tags/{slug}
-- resources/taxonomies/plain.yaml --
title: Plain
-- resources/blueprints/taxonomies/tags.yaml --
tabs:
  main:
    fields:
      - handle: title
        field: {type: text, required: true}
      - handle: description
        field: {type: text, validate: [max:20]}
      - handle: colour
        field: {type: select, options: {options: [red, blue]}}
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
taxonomies: [tags]
-- content/taxonomies/tags/news.yaml --
title: News
description: Latest
colour: red
-- content/taxonomies/tags/guides.yaml --
title: Guides
-- content/taxonomies/tags/unused.yaml --
title: Unused
-- content/taxonomies/tags/bad.yaml --
title: [
-- content/collections/blog/one.md --
---
title: One
status: published
tags: [news, guides]
---
-- content/collections/blog/two.md --
---
title: Two
status: published
tags: [guides]
---
-- content/collections/blog/draft.md --
---
title: Draft
status: draft
tags: [news]
---
`

// Session tokens of the callers (webtest.Auth.Add starts their sessions).
var (
	viewer  = webtest.Token("viewer")
	manager = webtest.Token("manager")
	other   = webtest.Token("other")
)

func newHandler(t *testing.T) (http.Handler, string) {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	auth := webtest.NewAuth(t)
	auth.Add(viewer, "v", webtest.Role("viewer", webtest.Grant("taxonomies", "view")))
	auth.Add(manager, "m", webtest.Role("manager", webtest.Grant("taxonomies", "view", "create", "edit", "delete")))
	auth.Add(other, "o", webtest.Role("other", webtest.Grant("entries", "view", "create", "edit", "delete")))
	h, err := taxonomies.New(taxonomies.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return h, dir
}

func TestEndpoints(t *testing.T) {
	t.Parallel()
	const terms = "/api/taxonomies/tags/terms"
	req := func(method, path, token string, body any) webtest.Request {
		return webtest.Request{Method: method, Path: path, Token: token, Body: body}
	}
	cases := []struct {
		name       string
		req        webtest.Request
		wantStatus int
		wantCode   string
		want       string // the success body (exact), or a key of error.fields
	}{
		{"list unauthenticated", req("GET", "/api/taxonomies", "", nil), 401, "AUTHENTICATION_ERROR", ""},
		{"list forbidden", req("GET", "/api/taxonomies", other, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"list", req("GET", "/api/taxonomies", viewer, nil), 200, "",
			`{"data":[{"handle":"plain","title":"Plain"},{"handle":"tags","title":"Tags","blueprint":"tags","route":"/tags/{slug}"}]}`},
		{"get", req("GET", "/api/taxonomies/plain", viewer, nil), 200, "", `{"data":{"handle":"plain","title":"Plain"}}`},
		{"get forbidden", req("GET", "/api/taxonomies/plain", other, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"get unknown", req("GET", "/api/taxonomies/nope", viewer, nil), 404, "NOT_FOUND", ""},
		{"blueprint", req("GET", "/api/taxonomies/tags/blueprint", viewer, nil), 200, "",
			`{"data":{"kind":"taxonomies","handle":"tags","tabs":[{"handle":"main","fields":[{"handle":"title","type":"text","required":true},{"handle":"description","type":"text","validate":["max:20"]},{"handle":"colour","type":"select","options":{"options":["red","blue"]}}]}]},"fieldsets":{}}`},
		{"blueprint none", req("GET", "/api/taxonomies/plain/blueprint", viewer, nil), 200, "", `{"data":null,"fieldsets":{}}`},
		{"blueprint forbidden", req("GET", "/api/taxonomies/tags/blueprint", other, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"blueprint unknown", req("GET", "/api/taxonomies/nope/blueprint", viewer, nil), 404, "NOT_FOUND", ""},
		{"get invalid handle", req("GET", "/api/taxonomies/a.b", viewer, nil), 400, "BAD_REQUEST", ""},
		{"terms", req("GET", terms, viewer, nil), 200, "",
			`{"data":[{"taxonomy":"tags","slug":"guides","title":"Guides","data":{}},{"taxonomy":"tags","slug":"news","title":"News","description":"Latest","data":{"colour":"red"}},{"taxonomy":"tags","slug":"unused","title":"Unused","data":{}}]}`},
		{"terms of an empty taxonomy", req("GET", "/api/taxonomies/plain/terms", viewer, nil), 200, "", `{"data":[]}`},
		{"terms unauthenticated", req("GET", terms, "", nil), 401, "AUTHENTICATION_ERROR", ""},
		{"terms forbidden", req("GET", terms, other, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"terms unknown taxonomy", req("GET", "/api/taxonomies/nope/terms", viewer, nil), 404, "NOT_FOUND", ""},
		{"term", req("GET", terms+"/news", viewer, nil), 200, "", `{"data":{"taxonomy":"tags","slug":"news","title":"News","description":"Latest","data":{"colour":"red"}}}`},
		{"term forbidden", req("GET", terms+"/news", other, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"term missing", req("GET", terms+"/nope", viewer, nil), 404, "NOT_FOUND", ""},
		{"term invalid slug", req("GET", terms+"/a.b", viewer, nil), 400, "BAD_REQUEST", ""},

		{"create unauthenticated", req("POST", terms, "", `{"title":"X"}`), 401, "AUTHENTICATION_ERROR", ""},
		{"create view only", req("POST", terms, viewer, `{"title":"X"}`), 403, "AUTHORIZATION_ERROR", ""},
		{"create derives slug", req("POST", terms, manager, `{"title":"Café & Crème Brûlée!"}`), 201, "",
			`{"data":{"taxonomy":"tags","slug":"cafe-creme-brulee","title":"Café \u0026 Crème Brûlée!","data":{}}}`},
		{"create with slug and data", req("POST", terms, manager, `{"slug":"how-to","title":"How to","description":"Steps","data":{"colour":"blue"},"icon":"book"}`), 201, "",
			`{"data":{"taxonomy":"tags","slug":"how-to","title":"How to","description":"Steps","data":{"colour":"blue","icon":"book"}}}`},
		{"create duplicate", req("POST", terms, manager, `{"title":"News"}`), 409, "CONFLICT", ""},
		{"create without title", req("POST", terms, manager, `{"slug":"x"}`), 422, "VALIDATION_ERROR", "title"},
		{"create without title or slug", req("POST", "/api/taxonomies/plain/terms", manager, `{}`), 422, "VALIDATION_ERROR", "slug"},
		{"create plain without blueprint", req("POST", "/api/taxonomies/plain/terms", manager, `{"slug":"x","anything":[1]}`), 201, "",
			`{"data":{"taxonomy":"plain","slug":"x","title":"x","data":{"anything":[1]}}}`},
		{"create bad slug", req("POST", terms, manager, `{"slug":"../x","title":"X"}`), 422, "VALIDATION_ERROR", "slug"},
		{"create blueprint rule", req("POST", terms, manager, `{"title":"X","description":"`+strings.Repeat("d", 21)+`"}`), 422, "VALIDATION_ERROR", "description"},
		{"create blueprint option", req("POST", terms, manager, `{"title":"X","colour":"green"}`), 422, "VALIDATION_ERROR", "colour"},
		{"create title not a string", req("POST", terms, manager, `{"title":5}`), 422, "VALIDATION_ERROR", "title"},
		{"create data not an object", req("POST", terms, manager, `{"title":"X","data":[1]}`), 422, "VALIDATION_ERROR", "data"},
		{"create reserved key in data", req("POST", terms, manager, `{"title":"X","data":{"title":"Y"}}`), 422, "VALIDATION_ERROR", "data.title"},
		{"create other taxonomy", req("POST", terms, manager, `{"title":"X","taxonomy":"plain"}`), 422, "VALIDATION_ERROR", "taxonomy"},
		{"create bad key", req("POST", terms, manager, `{"title":"X","a b":1}`), 422, "VALIDATION_ERROR", "a b"},
		{"create malformed", req("POST", terms, manager, `{"title":`), 400, "BAD_REQUEST", ""},
		{"create unknown taxonomy", req("POST", "/api/taxonomies/nope/terms", manager, `{"title":"X"}`), 404, "NOT_FOUND", ""},

		{"update", req("PUT", terms+"/news", manager, `{"title":"Fresh news","colour":"blue"}`), 200, "",
			`{"data":{"taxonomy":"tags","slug":"news","title":"Fresh news","data":{"colour":"blue"}}}`},
		{"update view only", req("PUT", terms+"/news", viewer, `{"title":"X"}`), 403, "AUTHORIZATION_ERROR", ""},
		{"update replaces a broken file", req("PUT", terms+"/bad", manager, `{"title":"Bad no more"}`), 200, "",
			`{"data":{"taxonomy":"tags","slug":"bad","title":"Bad no more","data":{}}}`},
		{"get broken term", req("GET", terms+"/bad", viewer, nil), 500, "INTERNAL_ERROR", ""},
		{"delete broken term", req("DELETE", terms+"/bad", manager, nil), 204, "", ""},
		{"update missing", req("PUT", terms+"/nope", manager, `{"title":"X"}`), 404, "NOT_FOUND", ""},
		{"update rename", req("PUT", terms+"/news", manager, `{"slug":"other","title":"X"}`), 422, "VALIDATION_ERROR", "slug"},
		{"update invalid", req("PUT", terms+"/news", manager, `{"title":""}`), 422, "VALIDATION_ERROR", "title"},
		{"update stale if-match", webtest.Request{Method: "PUT", Path: terms + "/news", Token: manager, Body: `{"title":"X"}`, Header: http.Header{"If-Match": {`"x"`}}}, 409, "CONFLICT", ""},

		{"delete unused", req("DELETE", terms+"/unused", manager, nil), 204, "", ""},
		{"delete referenced", req("DELETE", terms+"/news", manager, nil), 409, "CONFLICT", ""},
		{"delete referenced forced", req("DELETE", terms+"/news?force=true", manager, nil), 204, "", ""},
		{"delete bad force", req("DELETE", terms+"/news?force=maybe", manager, nil), 400, "BAD_REQUEST", ""},
		{"delete missing", req("DELETE", terms+"/nope", manager, nil), 404, "NOT_FOUND", ""},
		{"delete view only", req("DELETE", terms+"/unused", viewer, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"delete unauthenticated", req("DELETE", terms+"/unused", "", nil), 401, "AUTHENTICATION_ERROR", ""},
		{"wrong method", req("PATCH", terms+"/news", manager, `{}`), 405, "METHOD_NOT_ALLOWED", ""},
		{"unknown route", req("GET", "/api/taxonomies/tags/other", manager, nil), 404, "NOT_FOUND", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, _ := newHandler(t)
			w := webtest.Do(t, h, c.req)
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantCode == "" {
				if got := strings.TrimSpace(w.Body.String()); got != c.want {
					t.Errorf("body = %s\nwant   %s", got, c.want)
				}
				return
			}
			e := webtest.DecodeError(t, w)
			if e.Error.Code != c.wantCode {
				t.Errorf("code = %s, want %s (%s)", e.Error.Code, c.wantCode, e.Error.Message)
			}
			if c.want != "" && len(e.Error.Fields[c.want]) == 0 {
				t.Errorf("fields = %v, want a message for %q", e.Error.Fields, c.want)
			}
		})
	}
}

func TestDeleteReferencedNamesEntries(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t)
	w := webtest.Do(t, h, webtest.Request{Method: "DELETE", Path: "/api/taxonomies/tags/terms/news", Token: manager})
	var body struct {
		Error struct {
			References []string `json:"references"`
		} `json:"error"`
	}
	webtest.DecodeJSON(t, w, &body)
	if w.Code != 409 || strings.Join(body.Error.References, ",") != "blog/draft,blog/one" {
		t.Errorf("DELETE of a referenced term = %d %s", w.Code, w.Body)
	}
	if _, err := os.Stat(filepath.Join(dir, "content/taxonomies/tags/news.yaml")); err != nil {
		t.Errorf("refused DELETE removed the file: %v", err)
	}
}

func TestCreateWritesFileAndLocation(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t)
	w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/taxonomies/tags/terms", Token: manager, Body: `{"title":"Releases","icon":"tag","description":"New versions"}`})
	if w.Code != 201 || w.Header().Get("Location") != "/api/taxonomies/tags/terms/releases" || len(w.Header().Get("ETag")) != 66 {
		t.Fatalf("POST = %d %v %s", w.Code, w.Header(), w.Body)
	}
	b, err := os.ReadFile(filepath.Join(dir, "content/taxonomies/tags/releases.yaml"))
	if err != nil || string(b) != "title: Releases\ndescription: New versions\nicon: tag\n" {
		t.Errorf("term file = %q, %v", b, err)
	}
	etag := w.Header().Get("ETag")
	put := webtest.Request{Method: "PUT", Path: "/api/taxonomies/tags/terms/releases", Token: manager, Body: `{"title":"Releases 2"}`, Header: http.Header{"If-Match": {etag}}}
	if w := webtest.Do(t, h, put); w.Code != 200 {
		t.Errorf("PUT with the fresh ETag = %d %s", w.Code, w.Body)
	}
	if w := webtest.Do(t, h, put); w.Code != 409 {
		t.Errorf("PUT with a stale ETag = %d", w.Code)
	}
}

// TestPublicFilterByTerm proves that the public entries API filters a collection by a term: a
// list field holding term slugs matches when it contains the filter value, and drafts stay out.
func TestPublicFilterByTerm(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	h, err := publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(t, dir), Markdown: markdown.New(false)})
	if err != nil {
		t.Fatal(err)
	}
	for filter, want := range map[string]string{`{"tags":"news"}`: "one", `{"tags":"guides"}`: "one two", `{"tags":"unused"}`: ""} {
		w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog?sort=slug&filter=" + filter})
		var body struct {
			Data []struct {
				Slug string `json:"slug"`
			} `json:"data"`
		}
		webtest.DecodeJSON(t, w, &body)
		var got []string
		for _, e := range body.Data {
			got = append(got, e.Slug)
		}
		if w.Code != 200 || strings.Join(got, " ") != want {
			t.Errorf("filter %s = %d %v, want %q", filter, w.Code, got, want)
		}
	}
}

func TestSlugify(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"Hello World": "hello-world", "  --Über  Straße--  ": "uber-strasse", "日本": "", "a_b.c": "a-b-c", strings.Repeat("ab ", 100): strings.TrimRight(strings.Repeat("ab-", 67)[:200], "-")} {
		if got := taxonomies.Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewRequiresStore(t *testing.T) {
	t.Parallel()
	if _, err := taxonomies.New(taxonomies.Deps{}); err == nil {
		t.Fatal("New without a store succeeded")
	}
}

// TestAuthorisationMatrix checks every endpoint without credentials (401), with a role that
// lacks the permission (403) and with one that has it (2xx).
func TestAuthorisationMatrix(t *testing.T) {
	t.Parallel()
	endpoints := []struct{ method, path, body string }{
		{"GET", "/api/taxonomies", ""},
		{"GET", "/api/taxonomies/tags", ""},
		{"GET", "/api/taxonomies/tags/terms", ""},
		{"POST", "/api/taxonomies/tags/terms", `{"title":"Fresh"}`},
		{"GET", "/api/taxonomies/tags/terms/news", ""},
		{"PUT", "/api/taxonomies/tags/terms/news", `{"title":"News"}`},
		{"DELETE", "/api/taxonomies/tags/terms/unused", ""},
	}
	for _, e := range endpoints {
		for token, want := range map[string]int{"": 401, other: 403, manager: 200} {
			h, _ := newHandler(t)
			var body any
			if e.body != "" {
				body = e.body
			}
			w := webtest.Do(t, h, webtest.Request{Method: e.method, Path: e.path, Token: token, Body: body})
			if got := w.Code; got != want && !(want == 200 && got >= 200 && got < 300) {
				t.Errorf("%s %s as %q = %d, want %d: %s", e.method, e.path, token, got, want, w.Body)
			}
		}
	}
}
