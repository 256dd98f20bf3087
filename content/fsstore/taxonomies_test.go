package fsstore_test

import (
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
)

const taxSite = `
-- resources/taxonomies/tags.yaml --
title: Tags
-- resources/collections/blog.yaml --
title: Blog
taxonomies: [tags]
-- resources/blueprints/collections/blog.yaml --
fields:
  - handle: labels
    field: {type: taxonomy, options: {taxonomy: tags}}
-- resources/collections/pages.yaml --
title: Pages
-- content/taxonomies/tags/news.yaml --
title: News
description: Latest
slug: ignored
colour: red
-- content/taxonomies/tags/bare.yaml --
-- content/collections/blog/a.md --
---
title: A
labels: [news, other]
---
-- content/collections/blog/b.md --
---
title: B
labels: [other]
---
-- content/collections/pages/p.md --
---
title: P
tags: [news]
---
`

func TestTerms(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, taxSite)
	st := contenttest.OpenStore(t, dir)
	terms, err := st.Terms("tags")
	if err != nil || len(terms) != 2 {
		t.Fatalf("Terms = %v, %v", terms, err)
	}
	if terms[0].Slug != "bare" || terms[0].Title != "bare" || terms[1].Title != "News" || terms[1].Description != "Latest" ||
		terms[1].Data.Len() != 1 || terms[1].Data.Value("colour") != "red" {
		t.Errorf("terms = %+v %+v", terms[0], terms[1])
	}
	if _, err := st.Terms("nope"); !content.IsNotFound(err) {
		t.Errorf("Terms(undefined) err = %v, want NotFound", err)
	}
	if _, _, err := st.Term("tags", "missing"); !content.IsNotFound(err) {
		t.Errorf("Term(missing) err = %v, want NotFound", err)
	}

	created, hash, err := st.CreateTerm(&content.Term{Taxonomy: "tags", Slug: "guides", Title: "Guides", Data: content.NewMap(0)})
	if err != nil || created.Title != "Guides" || hash == "" {
		t.Fatalf("CreateTerm = %+v, %q, %v", created, hash, err)
	}
	if got := readFile(t, dir, "content/taxonomies/tags/guides.yaml"); got != "title: Guides\n" {
		t.Errorf("term file = %q", got)
	}
	if _, _, err := st.CreateTerm(&content.Term{Taxonomy: "tags", Slug: "guides", Title: "Again"}); content.KindOf(err) != content.Conflict {
		t.Errorf("duplicate CreateTerm err = %v, want Conflict", err)
	}
	if _, _, err := st.CreateTerm(&content.Term{Taxonomy: "tags", Slug: "../x", Title: "X"}); content.KindOf(err) != content.Invalid {
		t.Errorf("bad slug err = %v, want Invalid", err)
	}
	if _, _, err := st.UpdateTerm(&content.Term{Taxonomy: "tags", Slug: "guides", Title: "G"}, "stale"); content.KindOf(err) != content.Conflict {
		t.Errorf("stale UpdateTerm err = %v, want Conflict", err)
	}
	upd, _, err := st.UpdateTerm(&content.Term{Taxonomy: "tags", Slug: "guides", Title: "G", Description: "D"}, hash)
	if err != nil || upd.Description != "D" {
		t.Errorf("UpdateTerm = %+v, %v", upd, err)
	}
	if _, _, err := st.UpdateTerm(&content.Term{Taxonomy: "tags", Slug: "ghost", Title: "G"}, ""); !content.IsNotFound(err) {
		t.Errorf("UpdateTerm(missing) err = %v, want NotFound", err)
	}

	refs, err := st.TermReferences("tags", "news", 0)
	if err != nil || strings.Join(refs, ",") != "blog/a" {
		t.Errorf("TermReferences(news) = %v, %v; want blog/a (pages does not list tags)", refs, err)
	}
	if err := st.DeleteTerm("tags", "guides"); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteTerm("tags", "guides"); !content.IsNotFound(err) {
		t.Errorf("second DeleteTerm err = %v, want NotFound", err)
	}
}
