package fsstore_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/query"
)

const sharedSite = `
-- resources/collections/posts.yaml --
title: Posts
-- content/collections/posts/a.md --
---
title: A
status: published
category: news
tags: [go, web]
author_name: Ann
---
A.
-- content/collections/posts/b.md --
---
title: B
status: published
category: news
tags: [go, web]
author_name: Ann
---
B.
-- content/collections/posts/c.md --
---
title: C
status: published
category: news
tags:
  - go
  - web
author_name: Ann
---
C.
`

// The index shares values that repeat across entries (one category string for all entries of
// that category). Editing one entry must leave the others as they were, whether the index was
// built from the files or loaded from its snapshot.
func TestSharedValuesStayPerEntry(t *testing.T) {
	dir := contenttest.WriteSite(t, sharedSite)
	open(t, dir, false, fsstore.WatchNone).Close() // leaves a snapshot
	for _, from := range []string{"snapshot", "files"} {
		t.Run(from, func(t *testing.T) {
			if from == "files" {
				rm(t, dir, fsstore.SnapshotFile)
			}
			st := open(t, dir, false, fsstore.WatchNone)
			if got := st.IndexInfo().FromSnapshot; got != (from == "snapshot") {
				t.Fatalf("loaded from the snapshot: %v", got)
			}
			data := func(slug string) string { // as the index holds it
				t.Helper()
				e, err := st.EntryMeta("posts", slug)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(e.Data)
				return string(b)
			}
			// A query sorting by a custom field (an order the snapshot does not keep) decodes,
			// and shares, every entry's data first.
			es, _, err := st.Entries("posts", query.Query{Filter: map[string]any{"category": "news"},
				Sort: []query.SortKey{{Field: "author_name"}, {Field: "title"}}})
			if err != nil || len(es) != 3 {
				t.Fatalf("category news before the edit: %d entries, %v", len(es), err)
			}
			if from == "snapshot" {
				// One decoder shares them: without that this would not test sharing.
				ca, cc := es[0].Data.Value("category").(string), es[2].Data.Value("category").(string)
				if unsafe.StringData(ca) != unsafe.StringData(cc) {
					t.Fatal("the entries' equal categories are not shared")
				}
			}
			same := `{"category":"news","tags":["go","web"],"author_name":"Ann"}`
			for _, s := range []string{"a", "b", "c"} {
				if got := data(s); got != same {
					t.Fatalf("%s before the edit: %s", s, got)
				}
			}
			cur, err := st.Entry("posts", "b")
			if err != nil {
				t.Fatal(err)
			}
			next := *cur
			next.Data = cur.Data.Clone()
			next.Data.Set("category", "sport")
			next.Data.Value("tags").([]any)[0] = "rust"
			next.Data.Set("author_name", "Bo")
			if _, err := st.UpdateEntry("posts", "b", cur.Hash, &next); err != nil {
				t.Fatal(err)
			}
			if got, want := data("b"), `{"category":"sport","tags":["rust","web"],"author_name":"Bo"}`; got != want {
				t.Errorf("b after its edit: %s, want %s", got, want)
			}
			for _, s := range []string{"a", "c"} {
				if got := data(s); got != same {
					t.Errorf("%s after b's edit: %s, want %s", s, got, same)
				}
			}
			for cat, want := range map[string]string{"news": "a,c", "sport": "b"} {
				es, _, err := st.Entries("posts", query.Query{Filter: map[string]any{"category": cat}, Sort: []query.SortKey{{Field: "title"}}})
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.Join(slugs(es), ","); got != want {
					t.Errorf("category %s: %s, want %s", cat, got, want)
				}
			}
			// Put b back for the next round.
			cur, _ = st.Entry("posts", "b")
			next = *cur
			next.Data = cur.Data.Clone()
			next.Data.Set("category", "news")
			next.Data.Set("tags", []any{"go", "web"})
			next.Data.Set("author_name", "Ann")
			if _, err := st.UpdateEntry("posts", "b", cur.Hash, &next); err != nil {
				t.Fatal(err)
			}
			st.Close()
		})
	}
}
