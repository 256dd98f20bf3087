package publicentries_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/publicentries"
	"cms/handlers/web/webtest"
)

const site = `
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{year}/{month}/{day}/{slug}
dated: true
-- resources/collections/pages.yaml --
title: Pages
sortable: true
-- resources/collections/docs.yaml --
title: Docs
route: /docs/{slug}
-- content/collections/blog/one.md --
---
title: One
status: published
createdAt: 2026-03-05T10:00:00.000Z
updatedAt: 2026-03-05T10:00:00.000Z
rating: 10
category: news
tags: [go, cms]
---

# One

<script>alert(1)</script>
-- content/collections/blog/two.md --
---
title: Two
status: published
createdAt: 2026-01-20T10:00:00.000Z
rating: 9
category: howto
---

Two body.
-- content/collections/blog/three.md --
---
title: Three
status: published
createdAt: 2026-02-01T10:00:00.000Z
rating: 100
category: news
featured: true
---
-- content/collections/blog/secret.md --
---
title: Secret draft
status: draft
createdAt: 2026-04-01T10:00:00.000Z
category: news
---

Not for the public.
-- content/collections/pages/b.md --
---
title: B
status: published
order: 2
---
-- content/collections/pages/a.md --
---
title: A
status: published
order: 1
---
-- content/collections/docs/zeta.md --
---
title: zeta
status: published
---
-- content/collections/docs/alpha.md --
---
title: Alpha
status: published
---
-- resources/collections/news.yaml --
title: News
blueprint: news
dated: true
route: /news/{slug}
-- resources/blueprints/collections/news.yaml --
fields:
  - handle: excerpt
    field: {type: text}
  - handle: featured
    field: {type: toggle}
-- content/collections/news/first.md --
---
title: First
status: published
createdAt: 2026-01-10T08:00:00.000Z
excerpt: The first one
featured: true
---

A long body that a projection leaves out.
-- content/collections/news/second.md --
---
title: Second
status: published
createdAt: 2026-02-10T08:00:00.000Z
excerpt: The second one
---
-- content/collections/news/hidden.md --
---
title: Hidden
status: draft
createdAt: 2026-02-11T08:00:00.000Z
featured: true
---
`

func newHandler(t *testing.T, dir string) http.Handler {
	t.Helper()
	h, err := publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(t, dir), Markdown: markdown.New(false)})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

type entryJSON struct {
	Title, Slug, Status, Collection, CreatedAt, URL, Content, HTML string
	Data                                                           map[string]any
}

type listJSON struct {
	Data []entryJSON `json:"data"`
	Meta struct{ Total, Offset, Limit int }
}

func slugs(l listJSON) string {
	var s []string
	for _, e := range l.Data {
		s = append(s, e.Slug)
	}
	return strings.Join(s, ",")
}

func TestList(t *testing.T) {
	t.Parallel()
	h := newHandler(t, contenttest.WriteSite(t, site))
	f := url.QueryEscape
	tests := []struct {
		name      string
		path      string
		want      string
		wantTotal int
	}{
		{"dated collection newest first, drafts hidden", "/api/public/entries/blog", "one,three,two", 3},
		{"sortable collection by manual order", "/api/public/entries/pages", "a,b", 2},
		{"plain collection by title", "/api/public/entries/docs", "alpha,zeta", 2},
		{"sort numeric ascending", "/api/public/entries/blog?sort=rating", "two,one,three", 3},
		{"sort numeric descending", "/api/public/entries/blog?sort=-rating", "three,one,two", 3},
		{"sort by date", "/api/public/entries/blog?sort=createdAt", "two,three,one", 3},
		{"filter", "/api/public/entries/blog?filter=" + f(`{"category":"news"}`), "one,three", 2},
		{"filter boolean", "/api/public/entries/blog?filter=" + f(`{"featured":true}`), "three", 1},
		{"filter list membership", "/api/public/entries/blog?filter=" + f(`{"tags":"go"}`), "one", 1},
		{"asking for drafts changes nothing", "/api/public/entries/blog?filter=" + f(`{"status":"draft"}`), "one,three,two", 3},
		{"draft filtered by its own field stays hidden", "/api/public/entries/blog?filter=" + f(`{"title":"Secret draft"}`), "", 0},
		{"limit", "/api/public/entries/blog?limit=2&sort=-rating", "three,one", 3},
		{"offset", "/api/public/entries/blog?limit=1&offset=1&sort=-rating", "one", 3},
		{"largest limit", "/api/public/entries/blog?limit=1000&sort=-rating", "three,one,two", 3},
		{"asking for every status changes nothing", "/api/public/entries/blog?status=all", "one,three,two", 3},
		{"asking for drafts by status changes nothing", "/api/public/entries/blog?status=draft", "one,three,two", 3},
		{"date range", "/api/public/entries/blog?filter=" + f(`{"createdAt":{"$gte":"2026-01-25","$lt":"2026-04-01"}}`), "one,three", 2},
		{"date range never shows drafts", "/api/public/entries/blog?filter=" + f(`{"createdAt":{"$gte":"2026-03-31"}}`), "", 0},
		{"number range", "/api/public/entries/blog?sort=rating&filter=" + f(`{"rating":{"$gt":9,"$lte":100}}`), "one,three", 2},
		{"in", "/api/public/entries/blog?filter=" + f(`{"category":{"$in":["howto","other"]}}`), "two", 1},
		{"not in", "/api/public/entries/blog?filter=" + f(`{"category":{"$nin":["howto"]}}`), "one,three", 2},
		{"contains", "/api/public/entries/blog?filter=" + f(`{"tags":{"$contains":"cms"}}`), "one", 1},
		{"exists", "/api/public/entries/blog?filter=" + f(`{"featured":{"$exists":false}}`), "one,two", 2},
		{"not equal", "/api/public/entries/blog?filter=" + f(`{"category":{"$ne":"news"}}`), "two", 1},
		{"several sort keys", "/api/public/entries/blog?sort=category,-rating", "two,three,one", 3},
		{"blueprint fields and metadata", "/api/public/entries/news?sort=-featured,createdAt&filter=" + f(`{"excerpt":{"$exists":true}}`), "first,second", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := webtest.Do(t, h, webtest.Request{Path: tt.path})
			if w.Code != http.StatusOK {
				t.Fatalf("status = %d: %s", w.Code, w.Body)
			}
			var l listJSON
			webtest.DecodeJSON(t, w, &l)
			if slugs(l) != tt.want || l.Meta.Total != tt.wantTotal {
				t.Errorf("got %s (total %d), want %s (total %d)", slugs(l), l.Meta.Total, tt.want, tt.wantTotal)
			}
			for _, e := range l.Data {
				if e.Status != "published" {
					t.Errorf("%s has status %s", e.Slug, e.Status)
				}
			}
		})
	}
}

// fields= sends the fields named and nothing else: no body, no HTML.
func TestListProjection(t *testing.T) {
	t.Parallel()
	h := newHandler(t, contenttest.WriteSite(t, site))
	w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/news?fields=title,slug,excerpt,url"})
	want := `{"data":[{"title":"Second","slug":"second","url":"/news/second","data":{"excerpt":"The second one"}},` +
		`{"title":"First","slug":"first","url":"/news/first","data":{"excerpt":"The first one"}}],"meta":{"total":2,"offset":0,"limit":100}}`
	if w.Code != http.StatusOK || w.Body.String() != want {
		t.Errorf("status %d, body\n%s\nwant\n%s", w.Code, w.Body, want)
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/news?fields=html&filter=" + url.QueryEscape(`{"slug":"first"}`)})
	var got struct{ Data []map[string]string }
	webtest.DecodeJSON(t, w, &got)
	if len(got.Data) != 1 || len(got.Data[0]) != 1 || got.Data[0]["html"] != "<p>A long body that a projection leaves out.</p>\n" {
		t.Errorf("html projection = %s", w.Body)
	}
}

func TestSingle(t *testing.T) {
	t.Parallel()
	h := newHandler(t, contenttest.WriteSite(t, site))
	w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/one"})
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d: %s", w.Code, w.Body)
	}
	var got struct{ Data entryJSON }
	webtest.DecodeJSON(t, w, &got)
	e := got.Data
	if e.Title != "One" || e.Collection != "blog" || e.CreatedAt != "2026-03-05T10:00:00.000Z" {
		t.Errorf("metadata = %+v", e)
	}
	if e.URL != "/blog/2026/03/05/one" {
		t.Errorf("url = %q, want /blog/2026/03/05/one", e.URL)
	}
	if e.Data["category"] != "news" || e.Data["rating"] != float64(10) {
		t.Errorf("custom fields not under data: %v", e.Data)
	}
	if !strings.HasPrefix(e.Content, "# One") {
		t.Errorf("content = %q", e.Content)
	}
	if strings.Contains(e.HTML, "<script>") || !strings.Contains(e.HTML, "&lt;script&gt;") {
		t.Errorf("raw HTML was not escaped: %s", e.HTML)
	}
	if !strings.Contains(e.HTML, "<h1") {
		t.Errorf("markdown not rendered: %s", e.HTML)
	}
	// The markup goes out as markup, not as \u003ch1\u003e (a sixth more bytes).
	if !strings.Contains(w.Body.String(), `"html":"<h1`) {
		t.Errorf("html escaped on the wire: %s", w.Body)
	}
	etag := w.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	w2 := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/one", Header: http.Header{"If-None-Match": {etag}}})
	if w2.Code != http.StatusNotModified || w2.Body.Len() != 0 {
		t.Errorf("If-None-Match: status %d, body %q; want 304 and no body", w2.Code, w2.Body)
	}
	w3 := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/one", Header: http.Header{"If-None-Match": {`"other"`}}})
	if w3.Code != http.StatusOK {
		t.Errorf("stale If-None-Match: status %d", w3.Code)
	}
}

func TestRawHTMLOptIn(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(true)})
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Data entryJSON }
	webtest.DecodeJSON(t, webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/one"}), &got)
	if !strings.Contains(got.Data.HTML, "<script>") {
		t.Errorf("with allowHtml raw HTML should pass through: %s", got.Data.HTML)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	h := newHandler(t, contenttest.WriteSite(t, site))
	tests := []struct {
		name       string
		method     string
		path       string
		wantStatus int
		wantCode   string
		wantMsg    string
	}{
		{"draft", "GET", "/api/public/entries/blog/secret", 404, "NOT_FOUND", "Entry not found"},
		{"missing entry", "GET", "/api/public/entries/blog/nope", 404, "NOT_FOUND", "Entry not found"},
		{"unknown collection", "GET", "/api/public/entries/nope", 404, "NOT_FOUND", "Collection"},
		{"unknown collection single", "GET", "/api/public/entries/nope/one", 404, "NOT_FOUND", ""},
		{"encoded slash in slug", "GET", "/api/public/entries/blog/a%2Fb", 400, "BAD_REQUEST", "Invalid entry identifier"},
		{"dot dot slug", "GET", "/api/public/entries/blog/..%2E", 400, "BAD_REQUEST", ""},
		{"bad collection handle", "GET", "/api/public/entries/%2E%2E", 400, "BAD_REQUEST", "Invalid collection"},
		{"malformed filter", "GET", "/api/public/entries/blog?filter=%7Bbad", 400, "BAD_REQUEST", "filter is not valid JSON"},
		{"filter not an object", "GET", "/api/public/entries/blog?filter=%5B1%5D", 400, "BAD_REQUEST", "JSON object"},
		{"non-numeric limit", "GET", "/api/public/entries/blog?limit=ten", 400, "BAD_REQUEST", `limit must be a whole number from 1 to 1000, got "ten"`},
		{"negative limit", "GET", "/api/public/entries/blog?limit=-1", 400, "BAD_REQUEST", `limit must be a whole number from 1 to 1000, got "-1"`},
		{"limit zero", "GET", "/api/public/entries/blog?limit=0", 400, "BAD_REQUEST", `limit must be a whole number from 1 to 1000, got "0"`},
		{"limit too large", "GET", "/api/public/entries/blog?limit=5000", 400, "BAD_REQUEST", `limit must be a whole number from 1 to 1000, got "5000"`},
		{"offset too large", "GET", "/api/public/entries/blog?offset=1000001", 400, "BAD_REQUEST", `offset must be a whole number from 0 to 1000000, got "1000001"`},
		{"bad sort", "GET", "/api/public/entries/blog?sort=-", 400, "BAD_REQUEST", "sort field"},
		{"sort injection", "GET", "/api/public/entries/blog?sort=title%3Bdrop", 400, "BAD_REQUEST", "sort field"},
		{"repeated parameter", "GET", "/api/public/entries/blog?limit=1&limit=2", 400, "BAD_REQUEST", "only once"},
		{"unknown operator", "GET", "/api/public/entries/blog?filter=" + url.QueryEscape(`{"rating":{"$gtx":1}}`), 400, "BAD_REQUEST", `unknown filter operator "$gtx" for "rating"`},
		{"operator object mixed with fields", "GET", "/api/public/entries/blog?filter=" + url.QueryEscape(`{"rating":{"$gt":1,"x":2}}`), 400, "BAD_REQUEST", "an object of operators"},
		{"unknown filter field", "GET", "/api/public/entries/news?filter=" + url.QueryEscape(`{"rating":1}`), 400, "BAD_REQUEST", `filter field "rating" is not a field of collection "news"`},
		{"unknown sort field", "GET", "/api/public/entries/news?sort=-featured,rating", 400, "BAD_REQUEST", `sort field "rating" is not a field of collection "news"`},
		{"unknown projected field", "GET", "/api/public/entries/news?fields=title,body", 400, "BAD_REQUEST", `fields: "body" is not a field of collection "news"`},
		{"bad projection", "GET", "/api/public/entries/news?fields=title,,slug", 400, "BAD_REQUEST", "not a valid field name"},
		{"wrong method", "POST", "/api/public/entries/blog", 405, "METHOD_NOT_ALLOWED", ""},
		{"unknown route", "GET", "/api/public/other", 404, "NOT_FOUND", "Route not found"},
		{"too many segments", "GET", "/api/public/entries/blog/one/two", 404, "NOT_FOUND", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := webtest.Do(t, h, webtest.Request{Method: tt.method, Path: tt.path})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tt.wantStatus, w.Body)
			}
			e := webtest.DecodeError(t, w)
			if e.Error.Code != tt.wantCode || !strings.Contains(e.Error.Message, tt.wantMsg) {
				t.Errorf("error = %+v, want %s containing %q", e.Error, tt.wantCode, tt.wantMsg)
			}
		})
	}
}

func TestChangesInvalidateCache(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	st := contenttest.OpenStore(t, dir)
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false)})
	if err != nil {
		t.Fatal(err)
	}
	first := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/two"})
	cur, err := st.Entry("blog", "two")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Status = "draft"
	if _, err := st.UpdateEntry("blog", "two", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/two"}); w.Code != http.StatusNotFound {
		t.Errorf("unpublished entry still served from cache: %d (first was %d)", w.Code, first.Code)
	}
	var l listJSON
	webtest.DecodeJSON(t, webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog"}), &l)
	if slugs(l) != "one,three" {
		t.Errorf("list after unpublish = %s", slugs(l))
	}
}

func TestFixtureSiteServesPublishedEntries(t *testing.T) {
	t.Parallel()
	h := newHandler(t, contenttest.CopyFixture(t, "madori-site"))
	var l listJSON
	w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/docs?limit=100"})
	webtest.DecodeJSON(t, w, &l)
	if w.Code != 200 || l.Meta.Total != 16 || len(l.Data) != 16 {
		t.Fatalf("docs: status %d, %d entries (total %d)", w.Code, len(l.Data), l.Meta.Total)
	}
	var one struct{ Data entryJSON }
	webtest.DecodeJSON(t, webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/docs/forms"}), &one)
	if one.Data.URL != "/docs/forms" || one.Data.Title != "Forms" || !strings.Contains(one.Data.HTML, "<h1") {
		t.Errorf("docs/forms = %+v", one.Data)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog"}); w.Code != 404 {
		t.Errorf("broken blog collection: status %d, want 404", w.Code)
	}
}

func BenchmarkSingleEntryCached(b *testing.B) {
	h := newBenchHandler(b)
	req := webtest.Request{Path: "/api/public/entries/blog/one"}
	b.ReportAllocs()
	for b.Loop() {
		webtest.Do(b, h, req)
	}
}

func newBenchHandler(b *testing.B) http.Handler {
	st := contenttest.OpenStore(b, contenttest.WriteSite(b, site))
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false)})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// Editing one entry changes its own ETag and no other entry's.
func TestETagsAreForEachEntry(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	st := contenttest.OpenStore(t, dir)
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false)})
	if err != nil {
		t.Fatal(err)
	}
	etag := func(slug string) string {
		return webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/" + slug}).Header().Get("ETag")
	}
	one, two := etag("one"), etag("two")
	cur, err := st.Entry("blog", "two")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Title = "Two, edited"
	if _, err := st.UpdateEntry("blog", "two", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	if etag("one") != one {
		t.Error("an unrelated entry's ETag changed")
	}
	if etag("two") == two {
		t.Error("the edited entry kept its ETag")
	}
	var got struct{ Data entryJSON }
	webtest.DecodeJSON(t, webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/two"}), &got)
	if got.Data.Title != "Two, edited" {
		t.Errorf("served a stale entry: %q", got.Data.Title)
	}
}
