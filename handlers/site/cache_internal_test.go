package site

import (
	"bytes"
	"testing"

	"cms/content/lru"
)

// TestCachedPageHoldsWhatItCounts: a cached page keeps its compressed bytes without the spare
// capacity of the buffer they were written into (sized for half the page), so the pages'
// byte budget bounds the memory they hold.
func TestCachedPageHoldsWhatItCounts(t *testing.T) {
	t.Parallel()
	q := &request{s: &site{pages: lru.New[string, *cachedPage](1 << 20)}}
	body := bytes.Repeat([]byte("<p>the same paragraph, compressed well</p>\n"), 500)
	gz := q.toCache("/page", 1, 200, body, `"e"`)
	p, ok := q.s.pages.Get("/page")
	if gz == nil || !ok || !bytes.Equal(p.gz, gz) {
		t.Fatal("page not cached")
	}
	if cap(p.gz) > len(p.gz)+len(p.gz)/8 {
		t.Errorf("cached page: %d bytes in a buffer of %d", len(p.gz), cap(p.gz))
	}
}
