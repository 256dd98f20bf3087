package entries_test

import (
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cms/handlers/web/webtest"
)

func TestList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ok := []struct {
		name       string
		query      string
		want       []string
		total      int
		wantOffset int
		wantLimit  int
	}{
		{"every status in the collection's order", "", []string{"hello", "second", "third"}, 3, 0, 100},
		{"drafts only", "status=draft", []string{"second"}, 1, 0, 100},
		{"published only", "status=published", []string{"hello", "third"}, 2, 0, 100},
		{"sort descending", "sort=-title", []string{"third", "second", "hello"}, 3, 0, 100},
		{"sort by a custom field, missing values last", "sort=excerpt", []string{"second", "hello", "third"}, 3, 0, 100},
		{"filter on a custom field", "filter=" + url.QueryEscape(`{"featured":true}`), []string{"third"}, 1, 0, 100},
		{"filter on status", "filter=" + url.QueryEscape(`{"status":"draft"}`), []string{"second"}, 1, 0, 100},
		{"page", "limit=1&offset=1", []string{"second"}, 3, 1, 1},
		{"offset past the end", "offset=10", []string{}, 3, 10, 100},
		{"largest limit", "limit=1000", []string{"hello", "second", "third"}, 3, 0, 1000},
		{"largest offset", "offset=1000000", []string{}, 3, 1000000, 100},
		{"unknown parameters are ignored", "colour=blue", []string{"hello", "second", "third"}, 3, 0, 100},
		{"date range", "filter=" + url.QueryEscape(`{"createdAt":{"$gte":"2026-02-01","$lt":"2026-03-02"}}`), []string{"second"}, 1, 0, 100},
		{"date range including drafts, newest first", "sort=-createdAt&filter=" + url.QueryEscape(`{"createdAt":{"$gt":"2026-01-02T10:00:00.000Z"}}`), []string{"third", "second"}, 2, 0, 100},
		{"in", "filter=" + url.QueryEscape(`{"slug":{"$in":["third","hello","nope"]}}`), []string{"hello", "third"}, 2, 0, 100},
		{"not equal", "filter=" + url.QueryEscape(`{"featured":{"$ne":true}}`), []string{"hello", "second"}, 2, 0, 100},
		{"exists", "filter=" + url.QueryEscape(`{"excerpt":{"$exists":false}}`), []string{"third"}, 1, 0, 100},
		{"several sort keys", "sort=-featured,title", []string{"third", "hello", "second"}, 3, 0, 100},
		{"search includes drafts", "q=post", []string{"second", "third"}, 2, 0, 100},
		{"search ranks by relevance", "q=body", []string{"second", "third"}, 2, 0, 100},
		{"search by prefix", "q=thr", []string{"third"}, 1, 0, 100},
		{"search drafts only", "q=body&status=draft", []string{"second"}, 1, 0, 100},
		{"search published only, paged", "q=post&status=published&limit=1", []string{"third"}, 1, 0, 1},
		{"search, second page", "q=post&limit=1&offset=1", []string{"third"}, 2, 1, 1},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := e.do(t, webtest.Request{Path: "/api/entries/blog?" + tc.query, Token: tokEditor})
			if w.Code != http.StatusOK {
				t.Fatalf("status = %d; body %s", w.Code, w.Body)
			}
			var l listBody
			webtest.DecodeJSON(t, w, &l)
			if got := slugs(l); !slices.Equal(got, tc.want) {
				t.Errorf("slugs = %v, want %v", got, tc.want)
			}
			if l.Meta.Total != tc.total || l.Meta.Offset != tc.wantOffset || l.Meta.Limit != tc.wantLimit {
				t.Errorf("meta = %+v, want total %d offset %d limit %d", l.Meta, tc.total, tc.wantOffset, tc.wantLimit)
			}
			if cc := w.Header().Get("Cache-Control"); cc != "private, no-cache" {
				t.Errorf("Cache-Control = %q", cc)
			}
		})
	}

	bad := []struct {
		name, query, message string
	}{
		{"unknown status", "status=all", `status must be published or draft, got "all"`},
		{"limit not a number", "limit=ten", `limit must be a whole number from 1 to 1000, got "ten"`},
		{"limit zero", "limit=0", `limit must be a whole number from 1 to 1000, got "0"`},
		{"limit too large", "limit=1001", `limit must be a whole number from 1 to 1000, got "1001"`},
		{"negative offset", "offset=-1", `offset must be a whole number from 0 to 1000000, got "-1"`},
		{"offset too large", "offset=1000001", `offset must be a whole number from 0 to 1000000, got "1000001"`},
		{"long input is cut in the message", "limit=" + strings.Repeat("9", 100), `limit must be a whole number from 1 to 1000, got "` + strings.Repeat("9", 64) + `…"`},
		{"bad sort field", "sort=" + url.QueryEscape("ti tle"), `sort field "ti tle" is not a valid field name (use field or -field)`},
		{"filter not JSON", "filter=%7Bnope", ""},
		{"filter not an object", "filter=%5B1%5D", "filter must be a JSON object of field to value"},
		{"repeated parameter", "limit=1&limit=2", "limit may be given only once"},
		{"unknown filter field", "filter=" + url.QueryEscape(`{"featurd":true}`), `filter field "featurd" is not a field of collection "blog"`},
		{"unknown sort field", "sort=-featured,colour", `sort field "colour" is not a field of collection "blog"`},
		{"unknown operator", "filter=" + url.QueryEscape(`{"createdAt":{"$after":"2026-01-01"}}`), `unknown filter operator "$after" for "createdAt": use $ne, $in, $nin, $gt, $gte, $lt, $lte, $contains, $exists`},
		{"bad operator value", "filter=" + url.QueryEscape(`{"createdAt":{"$gte":null}}`), `$gte of "createdAt" must be a number, a date or a string`},
		{"unknown projected field", "fields=title,colour", `fields: "colour" is not a field of collection "blog"`},
		{"html is not a CP field", "fields=html", `fields: "html" is not a field of collection "blog"`},
		{"search with a sort", "q=post&sort=title", "q orders by relevance and cannot be combined with filter or sort"},
		{"search too long", "q=" + strings.Repeat("a", 201), "q is longer than 200 bytes"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := e.do(t, webtest.Request{Path: "/api/entries/blog?" + tc.query, Token: tokEditor})
			checkError(t, w, errCase{status: 400, code: "BAD_REQUEST", message: tc.message})
		})
	}
}

func TestListEntryShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.do(t, webtest.Request{Path: "/api/entries/blog?limit=1", Token: tokEditor})
	var l listBody
	webtest.DecodeJSON(t, w, &l)
	if len(l.Data) != 1 {
		t.Fatalf("got %d entries: %s", len(l.Data), w.Body)
	}
	got := l.Data[0]
	want := wireEntry{Title: "Hello world", Slug: "hello", Status: "published", Collection: "blog",
		CreatedAt: "2026-01-02T10:00:00.000Z", UpdatedAt: "2026-01-02T10:00:00.000Z", URL: "/blog/hello",
		Content: "Hello *there*.", ContentHash: e.hashOf(t, "blog", "hello")}
	if got.Data["excerpt"] != "First post" || got.Data["featured"] != false || len(got.Data) != 2 {
		t.Errorf("data = %v", got.Data)
	}
	got.Data = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entry =\n%+v\nwant\n%+v", got, want)
	}
	// Keys in the documented order, data last but one.
	body := strings.TrimPrefix(w.Body.String(), `{"data":[`)
	order := []string{`"title"`, `"slug"`, `"status"`, `"collection"`, `"createdAt"`, `"updatedAt"`, `"url"`, `"content"`, `"data"`, `"contentHash"`}
	last := -1
	for _, k := range order {
		i := strings.Index(body, k)
		if i < last {
			t.Errorf("key %s out of order in %s", k, body)
		}
		last = i
	}
	if strings.Contains(body, `"author"`) {
		t.Errorf("author without a value is sent: %s", body)
	}
}

// fields= sends only the fields named, custom ones under data; the files are read only for content
// and contentHash, which the index does not keep.
func TestListProjection(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.do(t, webtest.Request{Path: "/api/entries/blog?fields=slug,excerpt,title,contentHash&limit=2", Token: tokEditor})
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d: %s", w.Code, w.Body)
	}
	var l struct {
		Data []map[string]any
		Meta struct{ Total, Limit, Offset int }
	}
	webtest.DecodeJSON(t, w, &l)
	if len(l.Data) != 2 || l.Meta.Total != 3 || l.Meta.Limit != 2 {
		t.Fatalf("got %s", w.Body)
	}
	first := l.Data[0]
	if len(first) != 4 || first["slug"] != "hello" || first["title"] != "Hello world" || first["contentHash"] != e.hashOf(t, "blog", "hello") {
		t.Errorf("first = %v", first)
	}
	if d, _ := first["data"].(map[string]any); len(d) != 1 || d["excerpt"] != "First post" {
		t.Errorf("data = %v", first["data"])
	}
	if w := e.do(t, webtest.Request{Path: "/api/entries/blog?fields=content&limit=1", Token: tokEditor}); !strings.Contains(w.Body.String(), `{"content":"Hello *there*."}`) {
		t.Errorf("content projection = %s", w.Body)
	}
}

func TestGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Run("draft entry with hash and ETag", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Path: "/api/entries/blog/second", Token: tokEditor})
		if w.Code != http.StatusOK {
			t.Fatalf("status = %d; body %s", w.Code, w.Body)
		}
		got := decodeEntry(t, w)
		hash := e.hashOf(t, "blog", "second")
		if got.Status != "draft" || got.Title != "Second post" || got.Content != "Body two." || got.Data["excerpt"] != "Another" {
			t.Errorf("entry = %+v", got)
		}
		if got.ContentHash != hash {
			t.Errorf("contentHash = %q, want sha256 of the file %q", got.ContentHash, hash)
		}
		if et := w.Header().Get("ETag"); et != `"`+hash+`"` {
			t.Errorf("ETag = %q, want %q", et, `"`+hash+`"`)
		}
	})
	t.Run("route with date placeholders", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Path: "/api/entries/news/launch", Token: tokEditor})
		if got := decodeEntry(t, w); got.URL != "/news/2026/launch" {
			t.Errorf("url = %q", got.URL)
		}
	})
	t.Run("If-None-Match with the current hash", func(t *testing.T) {
		t.Parallel()
		etag := `"` + e.hashOf(t, "blog", "hello") + `"`
		w := e.do(t, webtest.Request{Path: "/api/entries/blog/hello", Token: tokEditor, Header: http.Header{"If-None-Match": {`"x", ` + etag}}})
		if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
			t.Errorf("status = %d, body %q; want 304 and no body", w.Code, w.Body)
		}
	})
	t.Run("HEAD", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Method: http.MethodHead, Path: "/api/entries/blog/hello", Token: tokEditor})
		if w.Code != http.StatusOK || w.Header().Get("ETag") == "" {
			t.Errorf("status = %d, ETag %q", w.Code, w.Header().Get("ETag"))
		}
	})

	errs := []struct {
		name, path string
		want       errCase
	}{
		{"missing entry", "/api/entries/blog/nope", errCase{404, "NOT_FOUND", `Entry "blog/nope" not found`, nil}},
		{"unknown collection", "/api/entries/recipes/soup", errCase{404, "NOT_FOUND", `Collection "recipes" not found`, nil}},
		{"unknown collection list", "/api/entries/recipes", errCase{404, "NOT_FOUND", `Collection "recipes" not found`, nil}},
		{"slug with a dot", "/api/entries/blog/hello.md", errCase{400, "BAD_REQUEST", `Invalid entry slug "hello.md": use letters, digits, '-' and '_'`, nil}},
		{"encoded slash in slug", "/api/entries/blog/a%2Fb", errCase{400, "BAD_REQUEST", `Invalid entry slug "a/b": use letters, digits, '-' and '_'`, nil}},
		{"collection handle with a dot", "/api/entries/.blog", errCase{400, "BAD_REQUEST", `Invalid collection handle ".blog": use letters, digits, '-' and '_'`, nil}},
		{"deeper path", "/api/entries/blog/hello/extra", errCase{404, "NOT_FOUND", "Route not found: GET /api/entries/blog/hello/extra", nil}},
		{"trailing slash", "/api/entries/blog/", errCase{404, "NOT_FOUND", "", nil}},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkError(t, e.do(t, webtest.Request{Path: tc.path, Token: tokEditor}), tc.want)
		})
	}
}

// A file changed behind the API's back is served fresh once the store has seen the change, so
// the contentHash a client gets is the file's.
func TestGetAfterWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := decodeEntry(t, e.do(t, webtest.Request{Path: "/api/entries/blog/hello", Token: tokEditor}))
	w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/entries/blog/hello", Token: tokEditor,
		Body: map[string]any{"contentHash": first.ContentHash, "content": "Changed."}})
	if w.Code != http.StatusOK {
		t.Fatalf("PUT status = %d; body %s", w.Code, w.Body)
	}
	got := decodeEntry(t, e.do(t, webtest.Request{Path: "/api/entries/blog/hello", Token: tokEditor}))
	if got.Content != "Changed." || got.ContentHash != e.hashOf(t, "blog", "hello") || got.ContentHash == first.ContentHash {
		t.Errorf("after PUT: content %q hash %q (file %q, before %q)", got.Content, got.ContentHash, e.hashOf(t, "blog", "hello"), first.ContentHash)
	}
	l := listBody{}
	webtest.DecodeJSON(t, e.do(t, webtest.Request{Path: "/api/entries/blog?filter=" + url.QueryEscape(`{"slug":"hello"}`), Token: tokEditor}), &l)
	if len(l.Data) != 1 || l.Data[0].Content != "Changed." || l.Data[0].ContentHash != got.ContentHash {
		t.Errorf("list after PUT = %+v", l.Data)
	}
}
