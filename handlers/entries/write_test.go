package entries_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

func TestCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ok := []struct {
		name     string
		coll     string
		body     any
		wantSlug string
		check    func(t *testing.T, got wireEntry)
	}{
		{"explicit slug, default status draft", "blog",
			map[string]any{"title": "My post", "slug": "my-post", "content": "Body.", "author": "ann", "data": map[string]any{"excerpt": "Short", "reading_time": 3}},
			"my-post", func(t *testing.T, got wireEntry) {
				if got.Status != "draft" || got.Author != "ann" || got.Content != "Body." || got.URL != "/blog/my-post" {
					t.Errorf("entry = %+v", got)
				}
				if got.Data["excerpt"] != "Short" || got.Data["reading_time"] != float64(3) {
					t.Errorf("data = %v", got.Data)
				}
				if got.CreatedAt == "" || got.CreatedAt != got.UpdatedAt {
					t.Errorf("createdAt %q updatedAt %q", got.CreatedAt, got.UpdatedAt)
				}
			}},
		{"slug derived from the title", "blog", map[string]any{"title": "Crème Brûlée & Straße: don't panic!"}, "creme-brulee-and-strasse-dont-panic", nil},
		{"derived slug is cut at 100 characters", "pages", map[string]any{"title": strings.Repeat("abcdefghi ", 15)}, strings.TrimSuffix(strings.Repeat("abcdefghi-", 10), "-"), nil},
		{"null data values are dropped", "blog", map[string]any{"title": "Nulls", "data": map[string]any{"excerpt": nil}}, "nulls", func(t *testing.T, got wireEntry) {
			if _, ok := got.Data["excerpt"]; ok {
				t.Errorf("data = %v", got.Data)
			}
		}},
		{"visible required field given", "blog", map[string]any{"title": "Featured", "data": map[string]any{"featured": true, "subtitle": "Sub"}}, "featured", nil},
		{"no blueprint: anything goes", "pages", map[string]any{"title": "x", "data": map[string]any{"anything": []any{1, "two"}}}, "x", nil},
		{"read-only keys of a GET are ignored", "pages", map[string]any{"title": "Copy", "collection": "blog", "url": "/x", "createdAt": "1999", "updatedAt": "1999", "html": "<p>"}, "copy", func(t *testing.T, got wireEntry) {
			if got.Collection != "pages" || strings.HasPrefix(got.CreatedAt, "1999") {
				t.Errorf("entry = %+v", got)
			}
		}},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := e.do(t, webtest.Request{Method: "POST", Path: "/api/entries/" + tc.coll, Token: tokEditor, Body: tc.body})
			if w.Code != http.StatusCreated {
				t.Fatalf("status = %d; body %s", w.Code, w.Body)
			}
			got := decodeEntry(t, w)
			if got.Slug != tc.wantSlug {
				t.Fatalf("slug = %q, want %q", got.Slug, tc.wantSlug)
			}
			if loc := w.Header().Get("Location"); loc != "/api/entries/"+tc.coll+"/"+tc.wantSlug {
				t.Errorf("Location = %q", loc)
			}
			if h := e.hashOf(t, tc.coll, tc.wantSlug); got.ContentHash != h || w.Header().Get("ETag") != `"`+h+`"` {
				t.Errorf("contentHash %q, ETag %q; file hash %q", got.ContentHash, w.Header().Get("ETag"), h)
			}
			if p := e.parsed(t, tc.coll, tc.wantSlug); p.Title != got.Title || p.Status != got.Status || p.Content != got.Content {
				t.Errorf("file has %+v, response %+v", p, got)
			}
			if tc.check != nil {
				tc.check(t, got)
			}
		})
	}

	errs := []struct {
		name   string
		coll   string
		body   any
		header http.Header
		want   errCase
	}{
		{"duplicate slug", "blog", map[string]any{"title": "Hello again", "slug": "hello"},
			nil, errCase{409, "CONFLICT", `Entry with slug "hello" already exists in collection "blog"`, nil}},
		{"title missing", "blog", map[string]any{"slug": "no-title"},
			nil, errCase{422, "VALIDATION_ERROR", "Entry data is invalid", map[string][]string{"title": {"Title is required"}}}},
		{"title blank", "blog", map[string]any{"title": "  ", "slug": "blank"},
			nil, errCase{422, "VALIDATION_ERROR", "Entry data is invalid", map[string][]string{"title": {"Title is required"}}}},
		{"title null", "pages", map[string]any{"title": nil, "slug": "null-title"},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"title": {"Title is required"}}}},
		{"no slug can be derived", "pages", map[string]any{"title": "日本語"},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"slug": {"Could not derive a slug from the title: give a slug made of letters, digits, '-' and '_'"}}}},
		{"invalid slug", "blog", map[string]any{"title": "Bad slug", "slug": "../etc"},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"slug": {`Invalid entry slug "../etc": use letters, digits, '-' and '_', starting with a letter or digit`}}}},
		{"reserved keys in data", "blog", map[string]any{"title": "Reserved", "data": map[string]any{"status": "published", "createdAt": "x"}},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"status": {"status is managed by the content engine"}, "createdAt": {"createdAt is managed by the content engine"}}}},
		{"unusable custom field name", "pages", map[string]any{"title": "Keys", "data": map[string]any{"<<": 1}},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"data": {`Invalid field name "<<": use letters, digits, '_', '-' and '.', starting with a letter or '_'`}}}},
		{"unknown status", "blog", map[string]any{"title": "Status", "status": "live"},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"status": {"Status must be published or draft"}}}},
		{"title not a string", "blog", map[string]any{"title": 5},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"title": {"Must be a string"}}}},
		{"data not an object", "blog", map[string]any{"title": "Data", "data": []any{1}},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"data": {"Must be an object of custom field values"}}}},
		{"custom field at the top level", "blog", map[string]any{"title": "Top", "excerpt": "x"},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"excerpt": {"Unknown field: custom fields belong inside data"}}}},
		{"blueprint rules", "blog", map[string]any{"title": "Hi", "data": map[string]any{"excerpt": strings.Repeat("x", 31), "reading_time": "soon", "meta_title": strings.Repeat("m", 21)}},
			nil, errCase{422, "VALIDATION_ERROR", `Entry data validation failed for blueprint "blog"`, map[string][]string{
				"title":        {"Must be at least 3 characters"},
				"excerpt":      {"Must be at most 30 characters"},
				"reading_time": {"Must be a number"},
				"meta_title":   {"Must be at most 20 characters"},
			}}},
		{"visible required field missing", "blog", map[string]any{"title": "Featured two", "data": map[string]any{"featured": true}},
			nil, errCase{422, "VALIDATION_ERROR", "", map[string][]string{"subtitle": {"This field is required"}}}},
		{"engine and blueprint messages together", "blog", map[string]any{"slug": "both", "data": map[string]any{"reading_time": 0}},
			nil, errCase{422, "VALIDATION_ERROR", "Entry data is invalid", map[string][]string{"title": {"Title is required"}, "reading_time": {"Must be at least 1"}}}},
		{"unknown collection", "recipes", map[string]any{"title": "Soup"},
			nil, errCase{404, "NOT_FOUND", `Collection "recipes" not found`, nil}},
		{"not JSON", "blog", "{title:",
			nil, errCase{400, "BAD_REQUEST", "", nil}},
		{"JSON but not an object", "blog", "[1,2]",
			nil, errCase{400, "BAD_REQUEST", "", nil}},
		{"empty body", "blog", " ",
			nil, errCase{400, "BAD_REQUEST", "Request body is empty; expected a JSON object", nil}},
		{"too deep", "blog", `{"data":{"x":` + strings.Repeat("[", content.MaxNesting) + strings.Repeat("]", content.MaxNesting) + `}}`,
			nil, errCase{422, "NESTING_TOO_DEEP", "Objects and lists are nested more than 100 levels deep", nil}},
		{"form post", "blog", "title=x",
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, errCase{415, "UNSUPPORTED_MEDIA_TYPE", "", nil}},
		{"body over 1 MiB", "blog", `{"title":"big","content":"` + strings.Repeat("x", 1<<20) + `"}`,
			nil, errCase{413, "PAYLOAD_TOO_LARGE", "Request body is larger than 1 MiB", nil}},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := e.do(t, webtest.Request{Method: "POST", Path: "/api/entries/" + tc.coll, Token: tokAdmin, Body: tc.body, Header: tc.header})
			checkError(t, w, tc.want)
		})
	}
	t.Run("a refused create writes nothing", func(t *testing.T) {
		t.Parallel()
		for _, slug := range []string{"no-title", "blank", "both", "bad-slug", "reserved"} {
			if _, err := os.Stat(e.file("blog", slug)); err == nil {
				t.Errorf("file %s was written", slug)
			}
		}
	})
}

func TestCreatePublishPermission(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	forbidden := errCase{403, "AUTHORIZATION_ERROR", "Insufficient permissions to publish entries", nil}
	tokNewsNoPub := webtest.Token("news-nopub")
	cases := []struct {
		name   string
		token  string
		coll   string
		status any // nil: not sent
		want   int
	}{
		{"author creates a draft", tokAuthor, "blog", "draft", 201},
		{"author creates with the default draft status", tokAuthor, "blog", nil, 201},
		{"author cannot create published", tokAuthor, "blog", "published", 403},
		{"editor with publish creates published", tokEditor, "blog", "published", 201},
		{"default status published needs publish", tokNewsNoPub, "news", nil, 403},
		{"default status published with publish", tokNewsOnly, "news", nil, 201},
		{"explicit draft in a published-by-default collection", tokNewsNoPub, "news", "draft", 201},
	}
	auth := newAuth(t)
	auth.Add(tokNewsNoPub, "newswriter", webtest.Role("newswriter", scoped("entries", "news", "view", "create", "edit")))
	h := e.withAuth(t, auth)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body := map[string]any{"title": fmt.Sprintf("Publish case %d", i)}
			if tc.status != nil {
				body["status"] = tc.status
			}
			w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/entries/" + tc.coll, Token: tc.token, Body: body})
			if tc.want == 403 {
				checkError(t, w, forbidden)
				if _, err := os.Stat(e.file(tc.coll, fmt.Sprintf("publish-case-%d", i))); err == nil {
					t.Errorf("a refused create wrote the file")
				}
				return
			}
			if w.Code != tc.want {
				t.Fatalf("status = %d, want %d; body %s", w.Code, tc.want, w.Body)
			}
			got := decodeEntry(t, w)
			wantStatus := "draft"
			if tc.status == "published" || (tc.status == nil && tc.coll == "news") {
				wantStatus = "published"
			}
			if got.Status != wantStatus {
				t.Errorf("status = %q, want %q", got.Status, wantStatus)
			}
		})
	}
}

// put sends an update of blog/<slug> with the file's current hash in the body.
func (e *env) put(t testing.TB, token, slug string, body map[string]any) *bytesRecorder {
	t.Helper()
	if _, ok := body["contentHash"]; !ok {
		body["contentHash"] = e.hashOf(t, "blog", slug)
	}
	w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/entries/blog/" + slug, Token: token, Body: body})
	return &bytesRecorder{w.Code, w.Body.Bytes(), w.Header()}
}

type bytesRecorder struct {
	code   int
	body   []byte
	header http.Header
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	t.Run("merge: top-level fields replace, data merges, null clears", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		before := e.parsed(t, "blog", "hello")
		r := e.put(t, tokEditor, "hello", map[string]any{"title": "Hello again", "data": map[string]any{"excerpt": nil, "reading_time": 4}})
		if r.code != 200 {
			t.Fatalf("status = %d; body %s", r.code, r.body)
		}
		p := e.parsed(t, "blog", "hello")
		if p.Title != "Hello again" || p.Content != before.Content || p.Status != "published" {
			t.Errorf("file = %+v", p)
		}
		if _, ok := p.Data.Get("excerpt"); ok {
			t.Errorf("excerpt was not cleared: %v", p.Data.Keys())
		}
		if v, _ := p.Data.Get("featured"); v != false {
			t.Errorf("featured = %v, want kept", v)
		}
		if v, _ := p.Data.Get("reading_time"); v != int64(4) {
			t.Errorf("reading_time = %v", v)
		}
		if p.CreatedAt != before.CreatedAt || p.UpdatedAt == before.UpdatedAt {
			t.Errorf("createdAt %q -> %q, updatedAt %q -> %q", before.CreatedAt, p.CreatedAt, before.UpdatedAt, p.UpdatedAt)
		}
		raw, _ := os.ReadFile(e.file("blog", "hello"))
		if bytes.Contains(raw, []byte("excerpt")) {
			t.Errorf("file still names the cleared field:\n%s", raw)
		}
		var got struct{ Data wireEntry }
		_ = json.Unmarshal(r.body, &got)
		if h := e.hashOf(t, "blog", "hello"); got.Data.ContentHash != h || r.header.Get("ETag") != `"`+h+`"` {
			t.Errorf("response hash %q ETag %q, file %q", got.Data.ContentHash, r.header.Get("ETag"), h)
		}
	})
	t.Run("author can be cleared with an empty string", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		if r := e.put(t, tokEditor, "second", map[string]any{"author": "ann"}); r.code != 200 {
			t.Fatalf("status = %d; body %s", r.code, r.body)
		}
		if r := e.put(t, tokEditor, "second", map[string]any{"author": ""}); r.code != 200 {
			t.Fatalf("status = %d; body %s", r.code, r.body)
		}
		if raw, _ := os.ReadFile(e.file("blog", "second")); bytes.Contains(raw, []byte("author")) {
			t.Errorf("author still in the file:\n%s", raw)
		}
	})
	// If-Match is read by the same rules as on every other resource (web.IfMatch): the ETag as
	// sent, or its weak form, which proxies that compress make of it.
	for _, form := range []struct{ name, prefix string }{{"If-Match instead of contentHash", ""}, {"weak If-Match", "W/"}} {
		t.Run(form.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/entries/blog/second", Token: tokEditor,
				Header: http.Header{"If-Match": {form.prefix + `"` + e.hashOf(t, "blog", "second") + `"`}}, Body: map[string]any{"content": "New body"}})
			if w.Code != 200 {
				t.Fatalf("status = %d; body %s", w.Code, w.Body)
			}
			if p := e.parsed(t, "blog", "second"); p.Content != "New body" {
				t.Errorf("content = %q", p.Content)
			}
		})
	}
	t.Run("rename", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		oldHash := e.hashOf(t, "blog", "second")
		r := e.put(t, tokEditor, "second", map[string]any{"slug": "renamed"})
		if r.code != 200 {
			t.Fatalf("status = %d; body %s", r.code, r.body)
		}
		if _, err := os.Stat(e.file("blog", "second")); err == nil {
			t.Errorf("old file still exists")
		}
		p := e.parsed(t, "blog", "renamed")
		if p.Title != "Second post" || p.CreatedAt != "2026-02-02T10:00:00.000Z" {
			t.Errorf("renamed file = %+v", p)
		}
		checkError(t, e.do(t, webtest.Request{Path: "/api/entries/blog/second", Token: tokEditor}), errCase{404, "NOT_FOUND", `Entry "blog/second" not found`, nil})
		got := decodeEntry(t, e.do(t, webtest.Request{Path: "/api/entries/blog/renamed", Token: tokEditor}))
		if got.Slug != "renamed" || got.URL != "/blog/renamed" || got.ContentHash == oldHash {
			t.Errorf("GET renamed = %+v", got)
		}
	})
	t.Run("status changes and the publish permission", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		forbidden := errCase{403, "AUTHORIZATION_ERROR", "Insufficient permissions to publish entries", nil}
		// The author may edit a draft as long as it stays one; a published entry is out of its
		// reach altogether (TestPublishedEntriesNeedPublish).
		if r := e.put(t, tokAuthor, "second", map[string]any{"status": "draft", "content": "x"}); r.code != 200 {
			t.Errorf("author keeps draft: status %d %s", r.code, r.body)
		}
		// Publishing and unpublishing both need publish.
		w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/entries/blog/second", Token: tokAuthor, Body: map[string]any{"status": "published", "contentHash": e.hashOf(t, "blog", "second")}})
		checkError(t, w, forbidden)
		w = e.do(t, webtest.Request{Method: "PUT", Path: "/api/entries/blog/hello", Token: tokAuthor, Body: map[string]any{"status": "draft", "contentHash": e.hashOf(t, "blog", "hello")}})
		checkError(t, w, errCase{403, "AUTHORIZATION_ERROR", "Changing a published entry needs the publish permission", nil})
		if p := e.parsed(t, "blog", "hello"); p.Status != "published" {
			t.Errorf("refused unpublish changed the file: %q", p.Status)
		}
		if r := e.put(t, tokEditor, "second", map[string]any{"status": "published"}); r.code != 200 {
			t.Errorf("editor publishes: status %d %s", r.code, r.body)
		}
		if r := e.put(t, tokEditor, "hello", map[string]any{"status": "draft"}); r.code != 200 {
			t.Errorf("editor unpublishes: status %d %s", r.code, r.body)
		}
		if a, b := e.parsed(t, "blog", "second").Status, e.parsed(t, "blog", "hello").Status; a != "published" || b != "draft" {
			t.Errorf("statuses = %q, %q", a, b)
		}
	})

	e := newEnv(t)
	hello := e.hashOf(t, "blog", "hello")
	stale := strings.Repeat("ab", 32)
	errs := []struct {
		name   string
		path   string
		body   any
		header http.Header
		want   errCase
	}{
		{"contentHash missing", "/api/entries/blog/hello", map[string]any{"title": "x"}, nil,
			errCase{422, "VALIDATION_ERROR", "contentHash is required for update operations", map[string][]string{"contentHash": {"contentHash is required"}}}},
		{"contentHash malformed", "/api/entries/blog/hello", map[string]any{"contentHash": "abc"}, nil,
			errCase{422, "VALIDATION_ERROR", "Entry data is invalid", map[string][]string{"contentHash": {"contentHash must be the 64-character hex SHA-256 the entry was read with"}}}},
		{"If-Match not a quoted ETag", "/api/entries/blog/hello", map[string]any{"title": "Long enough"}, http.Header{"If-Match": {hello}},
			errCase{400, "BAD_REQUEST", `If-Match must hold one ETag as returned by GET, e.g. "3a7bd3e2..."`, nil}},
		{"If-Match any names no version", "/api/entries/blog/hello", map[string]any{"title": "Long enough"}, http.Header{"If-Match": {"*"}},
			errCase{422, "VALIDATION_ERROR", "contentHash is required for update operations", map[string][]string{"contentHash": {"contentHash is required"}}}},
		{"If-Match and contentHash disagree", "/api/entries/blog/hello", map[string]any{"contentHash": hello}, http.Header{"If-Match": {`"` + stale + `"`}},
			errCase{422, "VALIDATION_ERROR", "", map[string][]string{"contentHash": {"contentHash and If-Match name different versions"}}}},
		{"stale contentHash", "/api/entries/blog/hello", map[string]any{"contentHash": stale, "title": "Lost update"}, nil,
			errCase{409, "CONFLICT", fmt.Sprintf("Content has been modified since it was loaded (submitted: %s, current: %s)", stale, hello), nil}},
		{"stale If-Match", "/api/entries/blog/hello", map[string]any{"title": "Lost update"}, http.Header{"If-Match": {`"` + stale + `"`}},
			errCase{409, "CONFLICT", "", nil}},
		{"rename onto an existing entry", "/api/entries/blog/hello", map[string]any{"contentHash": hello, "slug": "third"}, nil,
			errCase{409, "CONFLICT", `Entry with slug "third" already exists in collection "blog"`, nil}},
		{"missing entry", "/api/entries/blog/nope", map[string]any{"contentHash": hello}, nil,
			errCase{404, "NOT_FOUND", `Entry "blog/nope" not found`, nil}},
		{"blueprint rules on the merged entry", "/api/entries/blog/hello", map[string]any{"contentHash": hello, "data": map[string]any{"featured": true}}, nil,
			errCase{422, "VALIDATION_ERROR", `Entry data validation failed for blueprint "blog"`, map[string][]string{"subtitle": {"This field is required"}}}},
		{"empty title", "/api/entries/blog/hello", map[string]any{"contentHash": hello, "title": ""}, nil,
			errCase{422, "VALIDATION_ERROR", "", map[string][]string{"title": {"Title is required"}}}},
		{"reserved key and missing hash together", "/api/entries/blog/hello", map[string]any{"data": map[string]any{"slug": "x"}}, nil,
			errCase{422, "VALIDATION_ERROR", "Entry data is invalid", map[string][]string{"slug": {"slug is managed by the content engine"}, "contentHash": {"contentHash is required"}}}},
		{"invalid slug in the path", "/api/entries/blog/he%20llo", map[string]any{"contentHash": hello}, nil,
			errCase{400, "BAD_REQUEST", `Invalid entry slug "he llo": use letters, digits, '-' and '_'`, nil}},
		{"not JSON", "/api/entries/blog/hello", "nope", nil, errCase{400, "BAD_REQUEST", "", nil}},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := e.do(t, webtest.Request{Method: "PUT", Path: tc.path, Token: tokAdmin, Body: tc.body, Header: tc.header})
			checkError(t, w, tc.want)
			if tc.want.status == 409 && strings.Contains(tc.name, "stale contentHash") {
				var d struct {
					Error struct {
						SubmittedHash string `json:"submittedHash"`
						Details       struct {
							SubmittedHash string `json:"submittedHash"`
							CurrentHash   string `json:"currentHash"`
						} `json:"details"`
					} `json:"error"`
				}
				webtest.DecodeJSON(t, w, &d)
				if d.Error.Details.SubmittedHash != stale || d.Error.Details.CurrentHash != hello || d.Error.SubmittedHash != stale {
					t.Errorf("details = %+v", d.Error)
				}
			}
		})
	}
	t.Run("refused updates leave the file alone", func(t *testing.T) {
		t.Parallel()
		if h := e.hashOf(t, "blog", "hello"); h != hello {
			t.Errorf("file changed")
		}
	})
}

func TestDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Warm the cache, then delete: the entry must be gone everywhere.
	e.do(t, webtest.Request{Path: "/api/entries/blog/second", Token: tokDeleter})
	w := e.do(t, webtest.Request{Method: "DELETE", Path: "/api/entries/blog/second", Token: tokDeleter})
	if w.Code != 200 || strings.TrimSpace(w.Body.String()) != `{"success":true}` {
		t.Fatalf("status = %d; body %s", w.Code, w.Body)
	}
	if _, err := os.Stat(e.file("blog", "second")); err == nil {
		t.Errorf("file still exists")
	}
	checkError(t, e.do(t, webtest.Request{Path: "/api/entries/blog/second", Token: tokDeleter}), errCase{404, "NOT_FOUND", `Entry "blog/second" not found`, nil})
	var l listBody
	webtest.DecodeJSON(t, e.do(t, webtest.Request{Path: "/api/entries/blog", Token: tokDeleter}), &l)
	if l.Meta.Total != 2 || len(l.Data) != 2 {
		t.Errorf("list after delete = %v total %d", slugs(l), l.Meta.Total)
	}
	checkError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/entries/blog/second", Token: tokDeleter}), errCase{404, "NOT_FOUND", `Entry "blog/second" not found`, nil})
	checkError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/entries/nope/x", Token: tokDeleter}), errCase{404, "NOT_FOUND", `Collection "nope" not found`, nil})
	checkError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/entries/blog/-x", Token: tokDeleter}), errCase{400, "BAD_REQUEST", "", nil})
}

// 32 clients update one entry with the hash they all read: the store's per-file lock and hash
// check let exactly one win, the others get 409, and the file is whole afterwards.
func TestConcurrentUpdates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	hash := e.hashOf(t, "blog", "hello")
	const n = 32
	codes := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/entries/blog/hello", Token: tokEditor,
				Body: map[string]any{"contentHash": hash, "title": fmt.Sprintf("Writer %02d", i), "content": strings.Repeat(fmt.Sprintf("line %d\n", i), 200)}})
			codes[i] = w.Code
			if w.Code == 409 {
				if eb := webtest.DecodeError(t, w); eb.Error.Code != "CONFLICT" {
					t.Errorf("writer %d: code %q", i, eb.Error.Code)
				}
			}
		})
	}
	close(start)
	wg.Wait()
	won, lost := 0, 0
	winner := -1
	for i, c := range codes {
		switch c {
		case 200:
			won++
			winner = i
		case 409:
			lost++
		default:
			t.Errorf("writer %d got status %d", i, c)
		}
	}
	if won != 1 || lost != n-1 {
		t.Fatalf("%d succeeded and %d got 409, want 1 and %d", won, lost, n-1)
	}
	p := e.parsed(t, "blog", "hello")
	if want := fmt.Sprintf("Writer %02d", winner); p.Title != want || !strings.HasPrefix(p.Content, fmt.Sprintf("line %d\n", winner)) {
		t.Errorf("file has title %q, want the winner's %q", p.Title, want)
	}
	ents, _ := os.ReadDir(e.dir + "/content/collections/blog")
	if len(ents) != 3 {
		t.Errorf("collection folder holds %d files, want 3 (no temp files left)", len(ents))
	}
}

// Parallel creates of one slug: exactly one 201, the rest 409.
func TestConcurrentCreates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const n = 16
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			w := e.do(t, webtest.Request{Method: "POST", Path: "/api/entries/blog", Token: tokEditor, Body: map[string]any{"title": "Same title"}})
			codes[i] = w.Code
		})
	}
	wg.Wait()
	created := 0
	for i, c := range codes {
		if c == 201 {
			created++
		} else if c != 409 {
			t.Errorf("creator %d got %d", i, c)
		}
	}
	if created != 1 {
		t.Errorf("%d creates succeeded, want 1", created)
	}
	e.parsed(t, "blog", "same-title")
}
