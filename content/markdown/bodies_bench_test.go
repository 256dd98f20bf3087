package markdown_test

import (
	"strings"
	"testing"

	"cms/content"
	"cms/content/markdown"
)

// BenchmarkBodies compares reading a kept body with rendering it again, for a ~3 KB post.
func BenchmarkBodies(b *testing.B) {
	var src strings.Builder
	for i := 0; i < 12; i++ {
		src.WriteString("A paragraph with *emphasis*, a [link](https://example.com/) and `code`, long enough to look like prose in a post.\n\n## Heading\n\n")
	}
	e := &content.Entry{Collection: "blog", Slug: "post", Version: "h", Content: src.String()}
	bodies := markdown.NewBodies(markdown.New(false), 1<<20)
	if _, err := bodies.Render(e); err != nil {
		b.Fatal(err)
	}
	b.Run("kept", func(b *testing.B) {
		for b.Loop() {
			if _, ok := bodies.Get("blog", "post", "h"); !ok {
				b.Fatal("not kept")
			}
		}
	})
	b.Run("render", func(b *testing.B) {
		r := markdown.New(false)
		for b.Loop() {
			if _, err := r.Render(e.Content); err != nil {
				b.Fatal(err)
			}
		}
	})
}
