package graphql_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/markdown"
	"cms/handlers/graphql"
	"cms/handlers/publicentries"
)

// benchEntries is the size of the bench site.
const benchEntries = 10_000

// writeBenchSite generates a site with one collection of n entries with a few custom fields.
func writeBenchSite(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	files := map[string]string{
		"resources/collections/articles.yaml": "title: Articles\nroute: /articles/{slug}\n",
		"resources/blueprints/collections/articles.yaml": `fields:
  - handle: category
    field: {type: select, options: {options: [news, howto, review, opinion]}}
  - handle: rating
    field: {type: number, options: {integer: true}}
  - handle: featured
    field: {type: toggle}
  - handle: summary
    field: {type: text}
  - handle: tags
    field: {type: taxonomy}
`,
	}
	for p, body := range files {
		writeFile(b, filepath.Join(dir, p), body)
	}
	cats := []string{"news", "howto", "review", "opinion"}
	coll := filepath.Join(dir, "content", "collections", "articles")
	if err := os.MkdirAll(coll, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		status := "published"
		if i%10 == 9 {
			status = "draft"
		}
		body := fmt.Sprintf(`---
title: Article %05d
slug: article-%05d
status: %s
createdAt: 2025-%02d-%02dT10:00:00.000Z
updatedAt: 2026-01-01T10:00:00.000Z
category: %s
rating: %d
featured: %t
summary: Summary of article %d, a few words long.
tags: [t%d, t%d]
---

# Article %d

Some *Markdown* body text for article %d.
`, i, i, status, i%12+1, i%28+1, cats[i%4], (i*7919)%1000, i%3 == 0, i, i%50, i%7, i, i)
		if err := os.WriteFile(filepath.Join(coll, fmt.Sprintf("article-%05d.md", i)), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func writeFile(b testing.TB, p, body string) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		b.Fatal(err)
	}
}

// The same question both ways: 10 published articles of one category, highest rating first,
// five fields (REST always answers with the whole entry).
const (
	benchGraphQL = `{ articlesList(limit: 10, sort: "rating:desc", filter: {category: "news"}) { title slug rating category createdAt } }`
	benchREST    = `/api/public/entries/articles?limit=10&sort=-rating&filter=%7B%22category%22%3A%22news%22%7D`
)

func runBench(b *testing.B, h http.Handler, newReq func() *http.Request, check func(*httptest.ResponseRecorder)) {
	b.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newReq())
	check(w)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newReq())
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body.String())
		}
	}
}

// BenchmarkGraphQLList is the list query of issue 5 on a 10,000-entry site, answered from the
// response cache (as repeated queries are) and with the response cache off (every request
// executes; parsed documents are still cached). Compare with BenchmarkRESTList.
func BenchmarkGraphQLList(b *testing.B) {
	dir := writeBenchSite(b, benchEntries)
	st := contenttest.OpenStore(b, dir)
	body := `{"query":` + mustJSON(benchGraphQL) + `}`
	newReq := func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+readerTok)
		return r
	}
	check := func(w *httptest.ResponseRecorder) {
		if w.Code != http.StatusOK || strings.Contains(w.Body.String(), `"errors"`) || strings.Count(w.Body.String(), `"slug"`) != 10 {
			b.Fatalf("unexpected answer %d: %.300s", w.Code, w.Body.String())
		}
	}
	for _, mode := range []struct {
		name  string
		cache int64
	}{{"cached", 0}, {"uncached", -1}} {
		b.Run(mode.name, func(b *testing.B) {
			cfg := testConfig()
			cfg.CacheBytes = mode.cache
			h := newHandlerOn(b, st, cfg)
			runBench(b, h, newReq, check)
		})
	}
}

// BenchmarkRESTList is the same query through the public REST API (handlers/publicentries), with
// its response cache on (as deployed) and off.
func BenchmarkRESTList(b *testing.B) {
	dir := writeBenchSite(b, benchEntries)
	st := contenttest.OpenStore(b, dir)
	newReq := func() *http.Request { return httptest.NewRequest(http.MethodGet, benchREST, nil) }
	check := func(w *httptest.ResponseRecorder) {
		if w.Code != http.StatusOK || strings.Count(w.Body.String(), `"slug"`) != 10 {
			b.Fatalf("unexpected answer %d: %.300s", w.Code, w.Body.String())
		}
	}
	for _, mode := range []struct {
		name  string
		cache int64
	}{{"cached", 0}, {"uncached", -1}} {
		b.Run(mode.name, func(b *testing.B) {
			h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false), CacheBytes: mode.cache, Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			runBench(b, h, newReq, check)
		})
	}
}

// BenchmarkGraphQLQueryParse measures a query that is new each time (no document cache hit): the
// cost graphql-go parsing and validation adds.
func BenchmarkGraphQLQueryParse(b *testing.B) {
	st := contenttest.OpenStore(b, contenttest.WriteSite(b, site))
	cfg := testConfig()
	cfg.CacheBytes = -1
	cfg.DocumentCacheSize = -1
	h := newHandlerOn(b, st, cfg)
	body := `{"query":` + mustJSON(`{ blogs(limit: 3, sort: "title:asc", filter: {featured: true}) { title slug reading_time tags createdAt } }`) + `}`
	runBench(b, h, func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+adminTok)
		return r
	}, func(w *httptest.ResponseRecorder) {
		if strings.Contains(w.Body.String(), `"errors"`) {
			b.Fatal(w.Body.String())
		}
	})
}

// The real store is what the group reads.
var _ graphql.Store = (*fsstore.Store)(nil)
