package entries_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/handlers/entries"
	"cms/handlers/web/webtest"
)

// readCounter counts the entries read from disk, by slug.
type readCounter struct {
	entries.Store
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
// all: the least recently used go first, so the hot one is read from disk once.
func TestHotEntryStaysCached(t *testing.T) {
	t.Parallel()
	var site strings.Builder
	site.WriteString("-- resources/collections/blog.yaml --\ntitle: Blog\nroute: /blog/{slug}\n")
	for i := range 200 {
		fmt.Fprintf(&site, "-- content/collections/blog/post-%03d.md --\n---\ntitle: Post %d\nstatus: published\n---\n\n%s\n", i, i, strings.Repeat("Some body text. ", 60))
	}
	st := &readCounter{Store: contenttest.OpenStore(t, contenttest.WriteSite(t, site.String())), reads: map[string]int{}}
	// About 60 encoded entries fit.
	h, err := entries.New(entries.Deps{Store: st, Auth: newAuth(t), CacheBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	get := func(slug string) {
		if w := webtest.Do(t, h, webtest.Request{Path: "/api/entries/blog/" + slug, Token: tokEditor}); w.Code != 200 {
			t.Fatalf("GET %s: %d %s", slug, w.Code, w.Body)
		}
	}
	for i := range 200 {
		get("post-000")
		get(fmt.Sprintf("post-%03d", i))
	}
	if n := st.reads["post-000"]; n != 1 {
		t.Errorf("the hot entry was read from disk %d times, want once", n)
	}
	if n := st.reads["post-150"]; n != 1 {
		t.Errorf("an entry read once was read from disk %d times", n)
	}
}
