package entries_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/entryfile"
	"cms/content/fsstore"
	"cms/content/markdown"
	"cms/handlers/entries"
	"cms/handlers/web/webtest"
)

var _ entries.Store = (*fsstore.Store)(nil)

// site is a small site: blog (draft by default, with a blueprint importing a fieldset), news
// (published by default) and pages (no blueprint file, so no validation).
const site = `
-- resources/collections/blog.yaml --
title: Blog
blueprint: blog
route: /blog/{slug}
defaultStatus: draft
-- resources/collections/news.yaml --
title: News
blueprint: news
route: /news/{year}/{slug}
defaultStatus: published
-- resources/collections/pages.yaml --
title: Pages
blueprint: nothing-here
-- resources/fieldsets/seo.yaml --
fields:
  - handle: meta_title
    field:
      type: text
      validate: [max:20]
-- resources/blueprints/collections/blog.yaml --
tabs:
  main:
    fields:
      - handle: title
        field: {type: text, required: true, validate: [min:3, max:120]}
      - handle: excerpt
        field: {type: text, validate: [max:30]}
      - handle: featured
        field: {type: toggle}
      - handle: subtitle
        field:
          type: text
          required: true
          visibility: {field: featured, operator: equals, value: true}
      - handle: reading_time
        field: {type: number, validate: [min:1]}
  seo:
    fields:
      - import: seo
-- resources/blueprints/collections/news.yaml --
fields:
  - handle: title
    field: {type: text, required: true}
-- content/collections/blog/hello.md --
---
title: Hello world
slug: hello
status: published
createdAt: 2026-01-02T10:00:00.000Z
updatedAt: 2026-01-02T10:00:00.000Z
excerpt: First post
featured: false
---

Hello *there*.
-- content/collections/blog/second.md --
---
title: Second post
slug: second
status: draft
createdAt: 2026-02-02T10:00:00.000Z
updatedAt: 2026-02-02T10:00:00.000Z
excerpt: Another
---

Body two.
-- content/collections/blog/third.md --
---
title: Third post
slug: third
status: published
createdAt: 2026-03-02T10:00:00.000Z
updatedAt: 2026-03-02T10:00:00.000Z
featured: true
subtitle: The third
---

Body three.
-- content/collections/news/launch.md --
---
title: Launch
slug: launch
status: published
createdAt: 2026-04-01T09:00:00.000Z
updatedAt: 2026-04-01T09:00:00.000Z
---

We launched.
-- content/collections/pages/about.md --
---
title: About
slug: about
status: draft
---

About us.
`

// Session tokens, one per kind of caller (newAuth starts their sessions).
var (
	tokAdmin     = webtest.Token("admin")      // everything on entries and collections, unscoped
	tokEditor    = webtest.Token("editor")     // entries view/create/edit/publish, collections view
	tokAuthor    = webtest.Token("author")     // entries view/create/edit scoped to blog, no publish
	tokNewsOnly  = webtest.Token("news-only")  // every entries action scoped to news
	tokNothing   = webtest.Token("nothing")    // a role with no grant on entries or collections
	tokBlogColls = webtest.Token("blog-colls") // collections:view scoped to blog
	tokDeleter   = webtest.Token("deleter")    // entries view/delete, unscoped
)

func scoped(resource, scope string, actions ...string) content.Permission {
	return content.Permission{Resource: resource, Actions: actions, Scope: scope}
}

func newAuth(t testing.TB) *webtest.Auth {
	a := webtest.NewAuth(t)
	all := []string{"view", "create", "edit", "delete", "publish"}
	a.Add(tokAdmin, "admin", webtest.Role("admin", webtest.Grant("entries", all...), webtest.Grant("collections", all...)))
	a.Add(tokEditor, "editor", webtest.Role("editor", webtest.Grant("entries", "view", "create", "edit", "publish"), webtest.Grant("collections", "view")))
	a.Add(tokAuthor, "author", webtest.Role("author", scoped("entries", "blog", "view", "create", "edit"), webtest.Grant("collections", "view")))
	a.Add(tokNewsOnly, "news", webtest.Role("news", scoped("entries", "news", all...)))
	a.Add(tokNothing, "nobody", webtest.Role("assets-only", webtest.Grant("assets", all...)))
	a.Add(tokBlogColls, "blogcolls", webtest.Role("blogcolls", scoped("collections", "blog", "view")))
	a.Add(tokDeleter, "deleter", webtest.Role("deleter", webtest.Grant("entries", "view", "delete")))
	return a
}

// env is one handler on its own copy of the site.
type env struct {
	dir   string
	store *fsstore.Store
	h     http.Handler
}

func newEnv(t testing.TB) *env {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	st := contenttest.OpenStore(t, dir)
	h, err := entries.New(entries.Deps{Store: st, Auth: newAuth(t), Markdown: markdown.New(false), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return &env{dir: dir, store: st, h: h}
}

func (e *env) do(t testing.TB, req webtest.Request) *httptest.ResponseRecorder {
	t.Helper()
	return webtest.Do(t, e.h, req)
}

func (e *env) file(c, slug string) string {
	return filepath.Join(e.dir, "content", "collections", c, slug+".md")
}

// hashOf returns the SHA-256 of an entry file, or "" when it does not exist.
func (e *env) hashOf(t testing.TB, c, slug string) string {
	t.Helper()
	raw, err := os.ReadFile(e.file(c, slug))
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// parsed reads an entry file back through the store's parser.
func (e *env) parsed(t testing.TB, c, slug string) *content.Entry {
	t.Helper()
	raw, err := os.ReadFile(e.file(c, slug))
	if err != nil {
		t.Fatalf("read %s/%s: %v", c, slug, err)
	}
	en, err := entryfile.Parse(c, slug, raw)
	if err != nil {
		t.Fatalf("entry %s/%s does not parse: %v\n%s", c, slug, err, raw)
	}
	return en
}

// wireEntry is an entry as the API sends it.
type wireEntry struct {
	Title       string         `json:"title"`
	Slug        string         `json:"slug"`
	Status      string         `json:"status"`
	Author      string         `json:"author"`
	Collection  string         `json:"collection"`
	CreatedAt   string         `json:"createdAt"`
	UpdatedAt   string         `json:"updatedAt"`
	URL         string         `json:"url"`
	Content     string         `json:"content"`
	Data        map[string]any `json:"data"`
	ContentHash string         `json:"contentHash"`
}

func decodeEntry(t testing.TB, w *httptest.ResponseRecorder) wireEntry {
	t.Helper()
	var body struct {
		Data wireEntry `json:"data"`
	}
	webtest.DecodeJSON(t, w, &body)
	return body.Data
}

type listBody struct {
	Data []wireEntry `json:"data"`
	Meta struct {
		Total  int `json:"total"`
		Offset int `json:"offset"`
		Limit  int `json:"limit"`
	} `json:"meta"`
}

func slugs(l listBody) []string {
	out := make([]string, 0, len(l.Data))
	for _, e := range l.Data {
		out = append(out, e.Slug)
	}
	return out
}

// errCase is the expected error of a request: status, code, and optionally the message and the
// field messages.
type errCase struct {
	status  int
	code    string
	message string
	fields  map[string][]string
}

func checkError(t testing.TB, w *httptest.ResponseRecorder, want errCase) {
	t.Helper()
	if w.Code != want.status {
		t.Fatalf("status = %d, want %d; body %s", w.Code, want.status, w.Body)
	}
	e := webtest.DecodeError(t, w)
	if e.Error.Code != want.code {
		t.Errorf("code = %q, want %q; body %s", e.Error.Code, want.code, w.Body)
	}
	if want.message != "" && e.Error.Message != want.message {
		t.Errorf("message = %q, want %q", e.Error.Message, want.message)
	}
	for k, msgs := range want.fields {
		if !slices.Equal(e.Error.Fields[k], msgs) {
			t.Errorf("fields[%q] = %q, want %q; all fields %v", k, e.Error.Fields[k], msgs, e.Error.Fields)
		}
	}
	if want.fields != nil {
		for k := range e.Error.Fields {
			if _, ok := want.fields[k]; !ok {
				t.Errorf("unexpected fields[%q] = %q", k, e.Error.Fields[k])
			}
		}
		// Madori clients read the same map under details.fieldErrors.
		var raw struct {
			Error struct {
				Details struct {
					FieldErrors map[string][]string `json:"fieldErrors"`
				} `json:"details"`
			} `json:"error"`
		}
		_ = json.Unmarshal(w.Body.Bytes(), &raw)
		if len(raw.Error.Details.FieldErrors) != len(e.Error.Fields) {
			t.Errorf("details.fieldErrors = %v, want the fields again", raw.Error.Details.FieldErrors)
		}
	}
}

// withAuth builds another handler on the same store with a different authenticator.
func (e *env) withAuth(t testing.TB, a *webtest.Auth) http.Handler {
	t.Helper()
	h, err := entries.New(entries.Deps{Store: e.store, Auth: a})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// hashOfNoT is hashOf for places without a testing.TB at hand.
func (e *env) hashOfNoT(slug string) string {
	raw, err := os.ReadFile(e.file("blog", slug))
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}
