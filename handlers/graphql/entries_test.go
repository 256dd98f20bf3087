package graphql_test

import (
	"bytes"
	"context"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/handlers/graphql"
)

func TestNaming(t *testing.T) {
	t.Parallel()
	tests := []struct {
		handle, singular, plural, typeName string
	}{
		{"blog", "blog", "blogs", "Blog"},
		{"news", "news", "newsList", "News"},
		{"category", "category", "categories", "Category"},
		{"key", "key", "keys", "Key"},
		{"case-studies", "caseStudies", "caseStudiesList", "CaseStudies"},
		{"team-member", "teamMember", "teamMembers", "TeamMember"},
		{"faq_entry", "faqEntry", "faqEntries", "FaqEntry"},
		{"pages", "pages", "pagesList", "Pages"},
		{"docs", "docs", "docsList", "Docs"},
		{"2024-posts", "_2024Posts", "_2024PostsList", "_2024Posts"},
	}
	var archive strings.Builder
	for _, tc := range tests {
		archive.WriteString("-- resources/collections/" + tc.handle + ".yaml --\ntitle: X\n")
		archive.WriteString("-- content/collections/" + tc.handle + "/one.md --\n---\ntitle: One\nstatus: published\n---\n")
	}
	h := newHandler(t, archive.String(), testConfig())
	for _, tc := range tests {
		t.Run(tc.handle, func(t *testing.T) {
			t.Parallel()
			q := `{ one: ` + tc.singular + `(slug: "one") { __typename slug collection } all: ` + tc.plural + ` { slug } }`
			r := post(t, h, gqlReq{token: adminTok, query: q})
			noErrors(t, r)
			one, _ := r.Data["one"].(map[string]any)
			if one["__typename"] != tc.typeName || one["slug"] != "one" || one["collection"] != tc.handle {
				t.Errorf("%s(slug) = %v, want type %s", tc.singular, one, tc.typeName)
			}
			if got := slugs(t, r, "all"); !slices.Equal(got, []string{"one"}) {
				t.Errorf("%s = %v, want [one]", tc.plural, got)
			}
		})
	}
}

func TestNameCollisionSkipsOneCollection(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	dir := contenttest.WriteSite(t, `
-- resources/collections/case-studies.yaml --
title: A
-- resources/collections/case_studies.yaml --
title: B
-- resources/collections/global.yaml --
title: Clashes with the global query
-- resources/globals/site.yaml --
title: Site
-- content/collections/case-studies/one.md --
---
status: published
---
`)
	st := contenttest.OpenStore(t, dir)
	h, err := graphql.New(graphql.Deps{Store: st, Auth: newAuth(t), Config: testConfig(), Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	r := post(t, h, gqlReq{token: adminTok, query: `{ caseStudiesList { collection } global(handle: "site") { handle } }`})
	noErrors(t, r)
	if got := r.Data["caseStudiesList"].([]any); len(got) != 1 || got[0].(map[string]any)["collection"] != "case-studies" {
		t.Errorf("caseStudiesList = %v, want the entry of case-studies (the first collection by handle)", got)
	}
	for _, want := range []string{"case_studies", "global"} {
		if !strings.Contains(logs.String(), "collection="+want) {
			t.Errorf("log does not mention skipped collection %s:\n%s", want, logs.String())
		}
	}
}

func TestEntryFields(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	r := post(t, h, gqlReq{token: adminTok, query: `{ blog(slug: "alpha") {
		title slug status author collection createdAt updatedAt url content html
		excerpt featured reading_time rating tags cover gallery blocks meta_title field_typename _2nd
	} }`})
	noErrors(t, r)
	got := r.Data["blog"].(map[string]any)
	want := map[string]any{
		"title": "Alpha", "slug": "alpha", "status": "published", "author": "ann", "collection": "blog",
		"createdAt": "2026-01-01T10:00:00.000Z", "updatedAt": "2026-01-02T10:00:00.000Z", "url": "/blog/alpha",
		"content": "# Alpha\n\nBody of *alpha*.", "html": "<h1 id=\"alpha\">Alpha</h1>\n<p>Body of <em>alpha</em>.</p>\n",
		"excerpt": "First", "featured": true, "reading_time": float64(5), "rating": 4.5,
		"tags": []any{"go", "cms"}, "cover": "/assets/alpha.png", "gallery": []any{"/assets/a1.png", "/assets/a2.png"},
		"blocks":     []any{map[string]any{"_type": "text", "body": "Hello"}},
		"meta_title": "Alpha meta", "field_typename": "sneaky", "_2nd": "second",
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}

	// Fields an entry does not have are null, not errors.
	r = post(t, h, gqlReq{token: adminTok, query: `{ blog(slug: "gamma") { author excerpt rating cover gallery blocks } }`})
	noErrors(t, r)
	for k, v := range r.Data["blog"].(map[string]any) {
		if v != nil {
			t.Errorf("gamma.%s = %v, want null", k, v)
		}
	}
}

func TestTypesOfFieldsInSchema(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	r := post(t, h, gqlReq{token: adminTok, query: `{ __type(name: "Blog") { fields { name type { kind name ofType { name } } } } }`})
	noErrors(t, r)
	types := map[string]string{}
	for _, f := range r.Data["__type"].(map[string]any)["fields"].([]any) {
		fm := f.(map[string]any)
		tm := fm["type"].(map[string]any)
		name, _ := tm["name"].(string)
		if tm["kind"] != "SCALAR" {
			inner, _ := tm["ofType"].(map[string]any)["name"].(string)
			name = tm["kind"].(string) + " " + inner
		}
		types[fm["name"].(string)] = name
	}
	want := map[string]string{
		"title": "NON_NULL String", "author": "String", "html": "String",
		"excerpt": "String", "featured": "Boolean", "reading_time": "Int", "rating": "Float",
		"tags": "LIST String", "cover": "String", "gallery": "LIST String", "blocks": "JSON",
		"meta_title": "String", "field_typename": "String", "_2nd": "String",
	}
	for k, v := range want {
		if types[k] != v {
			t.Errorf("Blog.%s is %q, want %q", k, types[k], v)
		}
	}
	if len(types) != 21 {
		t.Errorf("Blog has %d fields, want 21 (10 standard + 11 of the blueprint): %v", len(types), types)
	}
}

func TestFilters(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	tests := []struct {
		name  string
		query string
		vars  any
		want  []string
		code  string // expected error code instead of a result
	}{
		{name: "toggle true", query: `{ blogs(filter: {featured: true}, sort: "title:asc") { slug } }`, want: []string{"alpha", "gamma"}},
		{name: "toggle false", query: `{ blogs(filter: {featured: false}) { slug } }`, want: []string{"beta"}},
		{name: "integer number", query: `{ blogs(filter: {reading_time: 12}) { slug } }`, want: []string{"beta"}},
		{name: "float number", query: `{ blogs(filter: {rating: 4.5}) { slug } }`, want: []string{"alpha"}},
		{name: "float number given as an integer", query: `{ blogs(filter: {rating: 3}) { slug } }`, want: []string{"beta"}},
		{name: "text", query: `{ blogs(filter: {excerpt: "Second"}) { slug } }`, want: []string{"beta"}},
		{name: "standard field", query: `{ blogs(filter: {title: "Gamma"}) { slug } }`, want: []string{"gamma"}},
		{name: "list contains", query: `{ blogs(filter: {tags: "go"}, sort: "slug:asc") { slug } }`, want: []string{"alpha", "beta"}},
		{name: "two fields", query: `{ blogs(filter: {tags: "go", featured: true}) { slug } }`, want: []string{"alpha"}},
		{name: "sanitised name maps to the file key", query: `{ blogs(filter: {meta_title: "Alpha meta"}) { slug } }`, want: []string{"alpha"}},
		{name: "no match", query: `{ blogs(filter: {excerpt: "nothing"}) { slug } }`, want: []string{}},
		{name: "variables typed", query: `query($f: BlogFilter) { blogs(filter: $f) { slug } }`, vars: map[string]any{"f": map[string]any{"featured": false, "reading_time": 12}}, want: []string{"beta"}},
		{name: "toggle given a string", query: `{ blogs(filter: {featured: "yes"}) { slug } }`, code: graphql.CodeValidationFailed},
		{name: "number given a string", query: `{ blogs(filter: {reading_time: "5"}) { slug } }`, code: graphql.CodeValidationFailed},
		{name: "unknown field", query: `{ blogs(filter: {colour: "red"}) { slug } }`, code: graphql.CodeValidationFailed},
		{name: "structured field is not filterable", query: `{ blogs(filter: {blocks: "x"}) { slug } }`, code: graphql.CodeValidationFailed},
		{name: "variable toggle given a string", query: `query($f: BlogFilter) { blogs(filter: $f) { slug } }`, vars: map[string]any{"f": map[string]any{"featured": "yes"}}, code: graphql.CodeBadRequest},
		{name: "variable int given a fraction", query: `query($f: BlogFilter) { blogs(filter: $f) { slug } }`, vars: map[string]any{"f": map[string]any{"reading_time": 1.5}}, code: graphql.CodeBadRequest},
		{name: "variable unknown filter field", query: `query($f: BlogFilter) { blogs(filter: $f) { slug } }`, vars: map[string]any{"f": map[string]any{"colour": "red"}}, code: graphql.CodeBadRequest},
		// where: the REST filter language, operators included.
		{name: "where date range", query: `query($w: String) { blogs(where: $w, sort: "createdAt:asc") { slug } }`, vars: map[string]any{"w": `{"createdAt":{"$gte":"2026-01-15","$lt":"2026-04-01"}}`}, want: []string{"beta", "gamma"}},
		{name: "where in", query: `query($w: String) { blogs(where: $w, sort: "slug:asc") { slug } }`, vars: map[string]any{"w": `{"tags":{"$in":["news","cms"]}}`}, want: []string{"alpha", "gamma"}},
		{name: "where with filter", query: `query($w: String) { blogs(where: $w, filter: {featured: true}) { slug } }`, vars: map[string]any{"w": `{"rating":{"$exists":false}}`}, want: []string{"gamma"}},
		{name: "where sanitised name", query: `query($w: String) { blogs(where: $w) { slug } }`, vars: map[string]any{"w": `{"meta_title":{"$ne":null}}`}, want: []string{"alpha"}},
		{name: "where drafts stay hidden", query: `query($w: String) { blogs(where: $w) { slug } }`, vars: map[string]any{"w": `{"createdAt":{"$gte":"2026-03-15"}}`}, want: []string{}},
		{name: "where unknown operator", query: `query($w: String) { blogs(where: $w) { slug } }`, vars: map[string]any{"w": `{"rating":{"$near":1}}`}, code: graphql.CodeBadRequest},
		{name: "where unknown field", query: `query($w: String) { blogs(where: $w) { slug } }`, vars: map[string]any{"w": `{"colour":"red"}`}, code: graphql.CodeBadRequest},
		{name: "where and filter name one field", query: `query($w: String) { blogs(where: $w, filter: {featured: true}) { slug } }`, vars: map[string]any{"w": `{"featured":{"$ne":false}}`}, code: graphql.CodeBadRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, gqlReq{token: adminTok, query: tc.query, variables: tc.vars})
			if tc.code != "" {
				if len(r.Errors) == 0 || r.Errors[0].Extensions.Code != tc.code {
					t.Fatalf("codes = %v, want %s: %s", r.codes(), tc.code, r.raw)
				}
				return
			}
			noErrors(t, r)
			if got := slugs(t, r, "blogs"); !slices.Equal(got, tc.want) {
				t.Errorf("blogs = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSortAndPagination(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	tests := []struct {
		name, args string
		want       []string
		code, msg  string
	}{
		{name: "default order is the collection's (title)", args: ``, want: []string{"alpha", "beta", "gamma"}},
		{name: "title desc", args: `(sort: "title:desc")`, want: []string{"gamma", "beta", "alpha"}},
		{name: "field alone is ascending", args: `(sort: "createdAt")`, want: []string{"alpha", "beta", "gamma"}},
		{name: "number desc", args: `(sort: "reading_time:desc")`, want: []string{"beta", "gamma", "alpha"}},
		{name: "missing values last", args: `(sort: "rating:asc")`, want: []string{"beta", "alpha", "gamma"}},
		{name: "limit", args: `(sort: "title:asc", limit: 2)`, want: []string{"alpha", "beta"}},
		{name: "offset", args: `(sort: "title:asc", limit: 2, offset: 2)`, want: []string{"gamma"}},
		{name: "offset past the end", args: `(offset: 10)`, want: []string{}},
		{name: "several keys", args: `(sort: "featured:desc,createdAt:desc")`, want: []string{"gamma", "alpha", "beta"}},
		{name: "several keys, second unknown", args: `(sort: "featured:desc,colour")`, code: graphql.CodeBadRequest, msg: `"colour"`},
		{name: "bad direction", args: `(sort: "title:up")`, code: graphql.CodeBadRequest, msg: "asc or desc"},
		{name: "unknown field", args: `(sort: "colour:asc")`, code: graphql.CodeBadRequest, msg: `"colour"`},
		{name: "not a field name", args: `(sort: "a b:asc")`, code: graphql.CodeBadRequest},
		{name: "largest limit", args: `(sort: "title:asc", limit: 1000)`, want: []string{"alpha", "beta", "gamma"}},
		{name: "limit zero", args: `(limit: 0)`, code: graphql.CodeBadRequest, msg: "limit must be a whole number from 1 to 1000, got 0"},
		{name: "limit too large", args: `(limit: 1001)`, code: graphql.CodeBadRequest, msg: "limit must be a whole number from 1 to 1000, got 1001"},
		{name: "negative offset", args: `(offset: -1)`, code: graphql.CodeBadRequest, msg: "offset must be a whole number from 0 to 1000000, got -1"},
		{name: "offset too large", args: `(offset: 1000001)`, code: graphql.CodeBadRequest, msg: "offset must be a whole number from 0 to 1000000, got 1000001"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, gqlReq{token: adminTok, query: `{ blogs` + tc.args + ` { slug } }`})
			if tc.code != "" {
				oneError(t, r, tc.code, tc.msg)
				if r.Data != nil {
					t.Errorf("data = %v, want null (blogs is non-null)", r.Data)
				}
				return
			}
			noErrors(t, r)
			if got := slugs(t, r, "blogs"); !slices.Equal(got, tc.want) {
				t.Errorf("blogs%s = %v, want %v", tc.args, got, tc.want)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	tests := []struct {
		name, token, query string
		want               []string
		code               string
	}{
		{name: "published by default", token: adminTok, query: `{ blogs { slug } }`, want: []string{"alpha", "beta", "gamma"}},
		{name: "drafts for an editor", token: adminTok, query: `{ blogs(status: "draft") { slug } }`, want: []string{"draft-post"}},
		{name: "all for an editor", token: adminTok, query: `{ blogs(status: "all", sort: "slug:asc") { slug } }`, want: []string{"alpha", "beta", "draft-post", "gamma"}},
		{name: "drafts for an editor scoped to the collection", token: blogTok, query: `{ blogs(status: "draft") { slug } }`, want: []string{"draft-post"}},
		{name: "drafts for a reader", token: readerTok, query: `{ blogs(status: "draft") { slug } }`, want: []string{"draft-post"}},
		{name: "drafts refused without view", token: noneTok, query: `{ blogs(status: "draft") { slug } }`, code: graphql.CodeForbidden},
		{name: "all refused without view", token: noneTok, query: `{ blogs(status: "all") { slug } }`, code: graphql.CodeForbidden},
		{name: "published for a reader", token: readerTok, query: `{ blogs(status: "published") { slug } }`, want: []string{"alpha", "beta", "gamma"}},
		{name: "a filter on status cannot widen it", token: readerTok, query: `{ blogs(filter: {status: "draft"}) { slug } }`, want: []string{}},
		{name: "unknown status", token: adminTok, query: `{ blogs(status: "archived") { slug } }`, code: graphql.CodeBadRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, gqlReq{token: tc.token, query: tc.query})
			if tc.code != "" {
				oneError(t, r, tc.code, "")
				return
			}
			noErrors(t, r)
			if got := slugs(t, r, "blogs"); !slices.Equal(got, tc.want) {
				t.Errorf("blogs = %v, want %v", got, tc.want)
			}
		})
	}

	single := []struct {
		name, token, query string
		found              bool
		code               string
	}{
		{name: "published entry", token: readerTok, query: `{ blog(slug: "alpha") { slug } }`, found: true},
		{name: "a draft is null by default", token: adminTok, query: `{ blog(slug: "draft-post") { slug } }`},
		{name: "a draft with status all", token: adminTok, query: `{ blog(slug: "draft-post", status: "all") { slug } }`, found: true},
		{name: "a published entry is not a draft", token: adminTok, query: `{ blog(slug: "alpha", status: "draft") { slug } }`},
		{name: "a draft for a reader", token: readerTok, query: `{ blog(slug: "draft-post", status: "draft") { slug } }`, found: true},
		{name: "a draft refused without view", token: noneTok, query: `{ blog(slug: "draft-post", status: "draft") { slug } }`, code: graphql.CodeForbidden},
		{name: "missing entry", token: readerTok, query: `{ blog(slug: "nope") { slug } }`},
		{name: "slug that is no file name", token: readerTok, query: `{ blog(slug: "../secret") { slug } }`},
	}
	for _, tc := range single {
		t.Run("single/"+tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, gqlReq{token: tc.token, query: tc.query})
			if tc.code != "" {
				oneError(t, r, tc.code, "")
				return
			}
			noErrors(t, r)
			if got := r.Data["blog"] != nil; got != tc.found {
				t.Errorf("found = %v, want %v: %s", got, tc.found, r.raw)
			}
		})
	}
}

func TestAuthorization(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site, testConfig())
	tests := []struct {
		name, token, query string
		code               string // "" = allowed
	}{
		{name: "anonymous list", query: `{ blogs { slug } }`, code: graphql.CodeUnauthenticated},
		{name: "anonymous single", query: `{ blog(slug: "alpha") { slug } }`, code: graphql.CodeUnauthenticated},
		{name: "anonymous global", query: `{ global(handle: "site-settings") { handle } }`, code: graphql.CodeUnauthenticated},
		{name: "anonymous navigations", query: `{ navigations { handle } }`, code: graphql.CodeUnauthenticated},
		{name: "unknown token", token: "nope", query: `{ blogs { slug } }`, code: graphql.CodeUnauthenticated},
		{name: "no grants", token: noneTok, query: `{ blogs { slug } }`, code: graphql.CodeForbidden},
		{name: "scoped role on its collection", token: blogTok, query: `{ blogs { slug } }`},
		{name: "scoped role on another collection", token: blogTok, query: `{ pagesList { slug } }`, code: graphql.CodeForbidden},
		{name: "scoped role on another single", token: blogTok, query: `{ pages(slug: "about") { slug } }`, code: graphql.CodeForbidden},
		{name: "scoped role on globals", token: blogTok, query: `{ globals { handle } }`, code: graphql.CodeForbidden},
		{name: "scoped role on navigation", token: blogTok, query: `{ navigation(handle: "main") { handle } }`, code: graphql.CodeForbidden},
		{name: "reader on every collection", token: readerTok, query: `{ blogs { slug } pagesList { slug } }`},
		{name: "admin on globals and navigation", token: adminTok, query: `{ globals { handle } navigations { handle } }`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, h, gqlReq{token: tc.token, query: tc.query})
			if tc.code == "" {
				noErrors(t, r)
				return
			}
			oneError(t, r, tc.code, "")
		})
	}

	t.Run("typename without a session", func(t *testing.T) {
		t.Parallel()
		r := post(t, h, gqlReq{query: `{ __typename }`})
		noErrors(t, r)
		if r.Data["__typename"] != "Query" {
			t.Errorf("data = %v", r.Data)
		}
	})
	t.Run("only the forbidden field is null", func(t *testing.T) {
		t.Parallel()
		r := post(t, h, gqlReq{token: blogTok, query: `{ blog(slug: "alpha") { slug } pages(slug: "about") { slug } }`})
		oneError(t, r, graphql.CodeForbidden, "")
		if r.Data["blog"] == nil || r.Data["pages"] != nil {
			t.Errorf("data = %v, want blog and a null pages", r.Data)
		}
		if !reflect.DeepEqual(r.Errors[0].Path, []any{"pages"}) {
			t.Errorf("path = %v, want [pages]", r.Errors[0].Path)
		}
	})
}

func TestResponseCacheFollowsContentAndPermissions(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	h := newHandlerOn(t, st, testConfig())
	q := gqlReq{token: adminTok, query: `{ blogs(status: "all", sort: "slug:asc") { slug excerpt } }`}
	first := post(t, h, q)
	noErrors(t, first)
	if got := slugs(t, first, "blogs"); len(got) != 4 {
		t.Fatalf("blogs = %v", got)
	}
	// Same query by a user without entries:view: not the admin's cached drafts.
	r := post(t, h, gqlReq{token: noneTok, query: q.query})
	oneError(t, r, graphql.CodeForbidden, "")

	if _, err := st.CreateEntry(&content.Entry{Collection: "blog", Slug: "delta", Title: "Delta", Status: "published"}); err != nil {
		t.Fatal(err)
	}
	after := post(t, h, q)
	noErrors(t, after)
	if got := slugs(t, after, "blogs"); !slices.Contains(got, "delta") {
		t.Errorf("after a write blogs = %v, want delta in it", got)
	}
}

func TestSchemaFollowsBlueprintChanges(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchPoll, PollInterval: time.Nanosecond, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := newHandlerOn(t, st, testConfig())
	q := gqlReq{token: adminTok, query: `{ blog(slug: "alpha") { subtitle } }`}
	oneError(t, post(t, h, q), graphql.CodeValidationFailed, "subtitle")

	contenttest.AddFiles(t, dir, `
-- resources/blueprints/collections/blog.yaml --
fields:
  - handle: subtitle
    field: {type: text}
-- content/collections/blog/alpha.md --
---
title: Alpha
status: published
subtitle: Now with a subtitle
---
`)
	// The edit is seen on the next poll, which a coarse clock may put off by a tick: retry. The
	// deadline only ends a test that would otherwise hang; it is far beyond any load.
	deadline := time.Now().Add(time.Minute)
	for {
		r := post(t, h, q)
		if len(r.Errors) == 0 {
			if got := r.Data["blog"].(map[string]any)["subtitle"]; got != "Now with a subtitle" {
				t.Errorf("subtitle = %v", got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the schema never picked up the new field: %s", r.raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestNoMarkdownRendererMeansNoHTMLField(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	h, err := graphql.New(graphql.Deps{Store: st, Auth: newAuth(t), Config: testConfig()})
	if err != nil {
		t.Fatal(err)
	}
	oneError(t, post(t, h, gqlReq{token: adminTok, query: `{ blogs { html } }`}), graphql.CodeValidationFailed, "html")
}
