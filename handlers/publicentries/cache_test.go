package publicentries_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/publicentries"
	"cms/handlers/web/webtest"
)

// readCounter counts the entries read from disk, by slug.
type readCounter struct {
	publicentries.Store
	mu    sync.Mutex
	reads map[string]int
}

func (s *readCounter) Entry(collection, slug string) (*content.Entry, error) {
	s.mu.Lock()
	s.reads[slug]++
	s.mu.Unlock()
	return s.Store.Entry(collection, slug)
}

// An entry read often stays cached while many others pass through a cache too small for them
// all: the least recently used go first, so the hot one is read and rendered once.
func TestHotEntryStaysCached(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("-- resources/collections/blog.yaml --\ntitle: Blog\nroute: /blog/{slug}\n")
	const n = 600
	for i := range n {
		fmt.Fprintf(&b, "-- content/collections/blog/post-%03d.md --\n---\ntitle: Post %d\nstatus: published\n---\n\n%s\n", i, i, strings.Repeat("Some body text. ", 30))
	}
	st := &readCounter{Store: contenttest.OpenStore(t, contenttest.WriteSite(t, b.String())), reads: map[string]int{}}
	// Some tens of entries fit.
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false), CacheBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	get := func(slug string) {
		if w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/" + slug}); w.Code != 200 {
			t.Fatalf("GET %s: %d %s", slug, w.Code, w.Body)
		}
	}
	for i := range n {
		get("post-000")
		get(fmt.Sprintf("post-%03d", i))
	}
	if got := st.reads["post-000"]; got != 1 {
		t.Errorf("the hot entry was read %d times, want once", got)
	}
}
