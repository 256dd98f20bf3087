package markdown_test

import (
	"fmt"
	"strings"
	"testing"

	"cms/content"
	"cms/content/lru"
	"cms/content/markdown"
)

// A kept body is found for its file's hash only: a changed file is rendered again.
func TestBodies(t *testing.T) {
	t.Parallel()
	b := markdown.NewBodies(markdown.New(false), 1<<20)
	e := &content.Entry{Collection: "blog", Slug: "a", Version: "h1", Content: "**one**"}
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

// When the budget binds, kept bodies are compressed before any is dropped, and read back the
// same.
func TestBodiesShrink(t *testing.T) {
	t.Parallel()
	src := strings.Repeat("A paragraph with *emphasis* and a [link](https://example.com/), long enough to compress.\n\n", 20)
	html, err := markdown.New(false).Render(src)
	if err != nil {
		t.Fatal(err)
	}
	one := len(src) + len(html) + 10 + lru.Overhead                // a body as it is, its key and hash
	b := markdown.NewBodies(markdown.New(false), int64(4*one+100)) // four as they are, not five
	want := map[string]markdown.Body{}
	for i := range 5 {
		e := &content.Entry{Collection: "blog", Slug: fmt.Sprint("p", i), Version: fmt.Sprint("h", i), Content: src + fmt.Sprint(i)}
		got, err := b.Render(e)
		if err != nil {
			t.Fatal(err)
		}
		want[e.Slug] = got
	}
	st := b.Stats()
	if st.Shrunk == 0 || st.Entries != 5 || st.Bytes > st.MaxBytes {
		t.Fatalf("stats %+v: want all five kept, some compressed, within the budget", st)
	}
	for slug, w := range want {
		if got, ok := b.Get("blog", slug, "h"+slug[1:]); !ok || got != w {
			t.Errorf("%s: kept %v, equal %v", slug, ok, got == w)
		}
	}
}
