package markdown_test

import (
	"testing"

	"cms/content"
	"cms/content/markdown"
)

// A kept body is found for its file's hash only: a changed file is rendered again.
func TestBodies(t *testing.T) {
	t.Parallel()
	b := markdown.NewBodies(markdown.New(false), 1<<20)
	e := &content.Entry{Collection: "blog", Slug: "a", Hash: "h1", Content: "**one**"}
	got, err := b.Render(e)
	if err != nil || got.HTML != "<p><strong>one</strong></p>\n" || got.Content != "**one**" {
		t.Fatalf("Render = %+v, %v", got, err)
	}
	if k, ok := b.Get("blog", "a", "h1"); !ok || k != got {
		t.Errorf("Get same hash = %+v %v", k, ok)
	}
	for _, c := range []struct{ coll, slug, hash string }{{"blog", "a", "h2"}, {"blog", "b", "h1"}, {"pages", "a", "h1"}, {"blog", "a", ""}} {
		if _, ok := b.Get(c.coll, c.slug, c.hash); ok {
			t.Errorf("Get %v: found", c)
		}
	}
	var none *markdown.Bodies
	if _, ok := none.Get("blog", "a", "h1"); ok {
		t.Error("nil Bodies found a body")
	}
}
