package publicentries_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cms/content/codegen"
	"cms/content/codegen/codegentest"
	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/content/sitegen"
	"cms/handlers/apidoc"
	"cms/handlers/publicentries"
	"cms/handlers/web/webtest"
)

// mixedSite is a collection whose values cross the sort and filter rules: missing values, null,
// numbers against strings, lists, dates with zones, letters case and accents, drafts.
const mixedSite = `
-- resources/collections/mixed.yaml --
title: Mixed
sortable: true
route: /m/{collection}/{year}-{month}-{day}/{slug}
-- content/collections/mixed/a.md --
---
title: apple
status: published
createdAt: 2024-01-01T01:00:00+02:00
order: 3
n: 10
when: 2024-01-01T10:00:00+02:00
tags: [x, y]
kind: fruit
---
-- content/collections/mixed/b.md --
---
title: Banana
status: published
createdAt: 2024-02-29
order: 1
n: 9.5
when: 2024-01-01T09:00:00Z
tags: [y]
kind: fruit
---
-- content/collections/mixed/c.md --
---
title: cherry
status: published
createdAt: 2024-03-01 10:00:00
n: "10"
when: 2024-01-01
kind: null
---
-- content/collections/mixed/d.md --
---
title: Éclair
status: published
order: 2
n: true
when: not a date
tags: x
---
-- content/collections/mixed/e.md --
---
title: apple
status: draft
order: 0
kind: fruit
---
-- content/collections/mixed/f.md --
---
status: published
order: 2
n: -1
author: zed
---
-- content/collections/mixed/g-2.md --
---
title: "100"
status: published
n: 1e3
when: 2023-12-31T23:59:59.5-01:00
---
`

// publicSite is a generated 150-entry site plus the mixed collection, its public handler, and
// the generated output written to a folder.
func publicSite(t *testing.T) (dir string, h http.Handler, files []codegen.File) {
	t.Helper()
	dir = t.TempDir()
	if err := sitegen.Generate(dir, 150, sitegen.Options{BodyBytes: 100, Config: "watch: none\n", Workers: 2}); err != nil {
		t.Fatal(err)
	}
	contenttest.AddFiles(t, dir, mixedSite)
	st := contenttest.OpenStore(t, dir)
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false)})
	if err != nil {
		t.Fatal(err)
	}
	files, err = codegen.Generate(codegen.Load(st, "/api/public", "/api/graphql"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, h, files
}

type listQuery struct {
	Collection string         `json:"collection"`
	Limit      int            `json:"limit,omitempty"`
	Offset     int            `json:"offset,omitempty"`
	Sort       string         `json:"sort,omitempty"`
	Filter     map[string]any `json:"filter,omitempty"`
	Status     string         `json:"status,omitempty"`
}

type listAnswer struct {
	Slugs []string `json:"slugs"`
	URLs  []string `json:"urls"`
	Total int      `json:"total"`
	Error string   `json:"error,omitempty"`
}

func queryTable() []listQuery {
	qs := []listQuery{
		{Collection: "posts"},
		{Collection: "posts", Limit: 7},
		{Collection: "posts", Limit: 10, Offset: 40},
		{Collection: "posts", Offset: 500},
		{Collection: "posts", Sort: "title"},
		{Collection: "posts", Sort: "-rating,title", Limit: 30},
		{Collection: "posts", Sort: "rating", Filter: map[string]any{"category": "news"}},
		{Collection: "posts", Filter: map[string]any{"tags": "go"}},
		{Collection: "posts", Filter: map[string]any{"featured": true, "category": "guides"}},
		{Collection: "posts", Filter: map[string]any{"tags": []any{"go"}}},
		{Collection: "posts", Filter: map[string]any{"status": "draft"}},
		{Collection: "posts", Sort: "updatedAt", Limit: 25, Offset: 3},
		{Collection: "posts", Sort: "-author_name,+slug"},
		{Collection: "posts", Filter: map[string]any{"rating": 50}},
		{Collection: "posts", Filter: map[string]any{"nothing": nil}, Limit: 5},
		{Collection: "posts", Sort: "nothing,-createdAt", Limit: 5},
		{Collection: "posts", Limit: 1001},
		{Collection: "posts", Sort: "a,b,c,d,e"},
		{Collection: "posts", Sort: "-bad field"},
		{Collection: "posts", Filter: map[string]any{"bad key": 1}},
		{Collection: "posts", Filter: map[string]any{"rating": map[string]any{"$gte": 50}, "category": map[string]any{"$in": []any{"news", "guides"}}}, Sort: "-rating"},
		{Collection: "posts", Filter: map[string]any{"tags": map[string]any{"$contains": "go"}, "featured": map[string]any{"$ne": true}}, Limit: 10},
		{Collection: "posts", Filter: map[string]any{"nothing": map[string]any{"$exists": false}}},
	}
	for _, s := range []string{"", "title", "-title", "n", "-n", "when", "-when", "order", "-order", "kind", "author", "tags", "title,n", "-kind,-title"} {
		qs = append(qs, listQuery{Collection: "mixed", Sort: s})
	}
	for _, f := range []map[string]any{{"kind": "fruit"}, {"kind": nil}, {"n": 10}, {"n": "10"}, {"n": 10.0}, {"tags": "x"}, {"tags": []any{"y"}},
		{"n": true}, {"title": "apple"}, {"author": "zed"}, {"author": nil}, {"missing": nil},
		// operators (docs/queries.md): kinds in ranges, dates in time order, missing and null values
		{"n": map[string]any{"$gt": 9}}, {"n": map[string]any{"$gte": "10", "$lt": "9"}}, {"when": map[string]any{"$gte": "2024-01-01T09:00:00Z"}},
		{"title": map[string]any{"$lt": "b"}}, {"kind": map[string]any{"$exists": false}}, {"kind": map[string]any{"$ne": "fruit"}},
		{"n": map[string]any{"$in": []any{10, true, nil}}}, {"tags": map[string]any{"$nin": []any{"y"}}, "order": map[string]any{"$lte": 2}},
		{"tags": map[string]any{"$contains": "x"}},
		// refused operators, each with the server's message
		{"n": map[string]any{"$foo": 1}}, {"n": map[string]any{}}, {"n": map[string]any{"$gt": 1, "x": 2}}, {"n": map[string]any{"$gt": true}},
		{"n": map[string]any{"$in": "x"}}, {"n": map[string]any{"$exists": 1}}, {"n": map[string]any{"$contains": nil}}} {
		qs = append(qs, listQuery{Collection: "mixed", Filter: f, Sort: "slug"})
	}
	return qs
}

// apiAnswer asks the public API.
func apiAnswer(t *testing.T, h http.Handler, q listQuery) listAnswer {
	t.Helper()
	v := url.Values{}
	if q.Limit != 0 {
		v.Set("limit", fmt.Sprint(q.Limit))
	}
	if q.Offset != 0 {
		v.Set("offset", fmt.Sprint(q.Offset))
	}
	if q.Sort != "" {
		v.Set("sort", q.Sort)
	}
	if q.Filter != nil {
		b, _ := json.Marshal(q.Filter)
		v.Set("filter", string(b))
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/" + q.Collection + "?" + v.Encode()})
	if w.Code != http.StatusOK {
		return listAnswer{Error: webtest.DecodeError(t, w).Error.Message}
	}
	var l struct {
		Data []struct{ Slug, URL string }
		Meta struct{ Total int }
	}
	webtest.DecodeJSON(t, w, &l)
	a := listAnswer{Slugs: []string{}, URLs: []string{}, Total: l.Meta.Total}
	for _, e := range l.Data {
		a.Slugs = append(a.Slugs, e.Slug)
		a.URLs = append(a.URLs, e.URL)
	}
	return a
}

// TestFileClientMatchesPublicAPI: the generated file client (run with node over the site's
// files) and the public API return the same slugs in the same order, the same URLs, the same
// totals and the same errors, for a table of queries on a generated site and on a collection of mixed values.
func TestFileClientMatchesPublicAPI(t *testing.T) {
	tools := codegentest.Tools(t)
	if _, err := os.Stat(filepath.Join(tools, "node_modules", "yaml")); err != nil {
		t.Skipf("CMS_TS_TOOLS lacks the yaml package the test's file client parses front matter with: %v", err)
	}
	site, h, files := publicSite(t)
	src, out := t.TempDir(), t.TempDir()
	for _, f := range files {
		codegentest.WriteFile(t, src, f.Path, f.Data)
	}
	script := `import { createClient, QueryError } from "./index";
import { parse } from "yaml";
import { readFileSync } from "node:fs";
async function main(): Promise<void> {
  const qs = JSON.parse(readFileSync(0, "utf8")) as { collection: string; limit?: number; offset?: number; sort?: string; filter?: Record<string, unknown> }[];
  const c = createClient({ root: process.argv[2] ?? ".", parseYaml: (s) => parse(s) as unknown });
  const out: unknown[] = [];
  for (const q of qs) {
    try {
      const r = await c.list(q.collection as "posts", q);
      out.push({ slugs: r.data.map((e) => e.slug), urls: r.data.map((e) => e.url), total: r.meta.total });
    } catch (e) {
      if (!(e instanceof QueryError)) throw e;
      out.push({ slugs: null, total: 0, error: e.message });
    }
  }
  process.stdout.write(JSON.stringify(out));
}
void main();
`
	codegentest.WriteFile(t, src, "query.ts", []byte(script))
	codegentest.Compile(t, tools, src, out)

	qs := queryTable()
	in, _ := json.Marshal(qs)
	cmd := exec.Command("node", filepath.Join(out, "query.js"), site)
	cmd.Stdin = strings.NewReader(string(in))
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []listAnswer
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	for i, q := range qs {
		want := apiAnswer(t, h, q)
		g := got[i]
		if want.Error != "" || g.Error != "" {
			if want.Error != g.Error {
				t.Errorf("%+v: error\n  API:  %q\n  file: %q", q, want.Error, g.Error)
			}
			continue
		}
		if !slices.Equal(want.Slugs, g.Slugs) || want.Total != g.Total {
			t.Errorf("%+v:\n  API:  %d %v\n  file: %d %v", q, want.Total, want.Slugs, g.Total, g.Slugs)
		} else if !slices.Equal(want.URLs, g.URLs) {
			t.Errorf("%+v: URLs\n  API:  %v\n  file: %v", q, want.URLs, g.URLs)
		}
	}
}

// TestGeneratedGoClient: the generated Go package compiles in a module of its own and its typed
// client reads the public API over HTTP: a filtered, sorted list, one entry, and nil for a draft.
func TestGeneratedGoClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module")
	}
	_, h, files := publicSite(t)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	mod := t.TempDir()
	for _, f := range files {
		if p, ok := strings.CutPrefix(f.Path, "go/"); ok {
			codegentest.WriteFile(t, mod, p, f.Data)
		}
	}
	codegentest.WriteFile(t, mod, "go.mod", []byte("module example.com/frontend\n\ngo 1.22\n"))
	codegentest.WriteFile(t, mod, "cmsclient/client_test.go", []byte(`package cmsclient

import (
	"context"
	"os"
	"testing"
)

func TestClient(t *testing.T) {
	c := &Client{BaseURL: os.Getenv("CMS_URL")}
	ctx := context.Background()
	l, err := c.ListPosts(ctx, ListParams{Limit: 3, Sort: "-rating", Filter: map[string]any{"category": "news"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Data) != 3 || l.Meta.Limit != 3 || l.Meta.Total < 3 {
		t.Fatalf("list: %+v", l)
	}
	for i, e := range l.Data {
		if e.Data.Category == nil || *e.Data.Category != "news" || e.Data.Rating == nil || e.Status != "published" {
			t.Fatalf("entry %d: %+v", i, e)
		}
		if i > 0 && *e.Data.Rating > *l.Data[i-1].Data.Rating {
			t.Fatal("not sorted by -rating")
		}
	}
	one, err := c.GetPosts(ctx, l.Data[0].Slug)
	if err != nil || one == nil || one.Title != l.Data[0].Title || one.HTML == "" {
		t.Fatalf("get: %+v %v", one, err)
	}
	none, err := c.GetPosts(ctx, "no-such-entry")
	if err != nil || none != nil {
		t.Fatalf("missing entry: %+v %v", none, err)
	}
	if _, err := c.ListPosts(ctx, ListParams{Sort: "bad field"}); err == nil {
		t.Fatal("bad sort accepted")
	} else if e, ok := err.(*APIError); !ok || e.Status != 400 || e.Code != "BAD_REQUEST" {
		t.Fatalf("bad sort: %v", err)
	}
}
`))
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "CMS_URL="+srv.URL, "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test of the generated package: %v\n%s", err, out)
	}
}

// TestPublicOpenAPIDocument: {basePath}/openapi.json answers anonymously with the public part of
// the document, under a configured base path too, without any signed-in route.
func TestPublicOpenAPIDocument(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	st := contenttest.OpenStore(t, dir)
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false), BasePath: "/content",
		APIDoc: &apidoc.Doc{Defs: st, PublicBasePath: "/content", PublicOnly: true}})
	if err != nil {
		t.Fatal(err)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/content/openapi.json"})
	if w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var doc struct {
		Paths map[string]map[string]struct{ Security []any }
	}
	webtest.DecodeJSON(t, w, &doc)
	if doc.Paths["/content/entries/{collection}/{slug}"] == nil || doc.Paths["/content/openapi.json"] == nil || doc.Paths["/api/forms/{handle}/submit"] == nil {
		t.Errorf("public paths missing: %d paths", len(doc.Paths))
	}
	for p, item := range doc.Paths {
		for m, op := range item {
			if len(op.Security) > 0 || strings.HasPrefix(p, "/api/users") {
				t.Errorf("signed-in route in the public document: %s %s", m, p)
			}
		}
	}
}
