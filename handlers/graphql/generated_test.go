package graphql_test

import (
	"os"
	"path/filepath"
	"testing"

	"cms/content/codegen"
	"cms/content/contenttest"
)

// TestGeneratedHelpersQueries runs every query the generated GraphQL helpers send (cms
// generate's graphql.ts) against the server's schema, with the variables the helpers pass:
// names, argument types and selections must all resolve, for collections whose handles need the
// naming rules (case-studies, news) and blueprint fields that need sanitising.
func TestGeneratedHelpersQueries(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "..", "content", "codegen", "testdata", "site.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := contenttest.WriteSite(t, string(raw)+`
-- content/collections/blog/hello.md --
---
title: Hello
status: published
category: news
rating: 4
---
-- content/collections/news/today.md --
---
title: Today
status: published
---
`)
	st := contenttest.OpenStore(t, dir)
	h := newHandlerOn(t, st, testConfig())
	ops := codegen.GraphQLOperations(codegen.Load(st, "", ""))
	if len(ops) != 6 {
		t.Fatalf("%d operations, want 2 for each of 3 collections", len(ops))
	}
	for _, op := range ops {
		vars := map[string]any{"slug": "hello", "status": "published"}
		if op.List {
			vars = map[string]any{"limit": 5, "offset": 0, "sort": "title:desc", "status": "published", "filter": map[string]any{"title": "Hello"}}
		}
		r := post(t, h, gqlReq{token: adminTok, query: op.Query, variables: vars})
		noErrors(t, r)
		if op.Collection == "blog" {
			if op.List && len(slugs(t, r, op.Field)) != 1 {
				t.Errorf("%s: %s", op.Field, r.raw)
			}
			if !op.List && r.Data[op.Field] == nil {
				t.Errorf("%s: no entry: %s", op.Field, r.raw)
			}
		}
	}
}
