package publicentries_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content/contenttest"
)

// TestCachedSingleEntryAllocations: a single entry served from the cache, with its seo member,
// is written from the cached pieces: no per-request copy of the entry or of its seo object.
func TestCachedSingleEntryAllocations(t *testing.T) {
	dir := contenttest.WriteSite(t, site+seoFiles)
	h := newSEOHandler(t, dir)
	const path = "/api/public/entries/blog/one"
	r := httptest.NewRequest(http.MethodGet, path, nil)
	w := &discardWriter{h: http.Header{}}
	h.ServeHTTP(w, r) // renders and caches
	if w.code != http.StatusOK || w.n < 500 {
		t.Fatalf("status %d, %d bytes", w.code, w.n)
	}
	size := w.n
	allocs := testing.AllocsPerRun(100, func() {
		clear(w.h)
		*w = discardWriter{h: w.h}
		h.ServeHTTP(w, r)
	})
	if w.code != http.StatusOK || w.n != size {
		t.Fatalf("cached read: status %d, %d bytes, want %d", w.code, w.n, size)
	}
	// What remains is the router's: path values and the request's context.
	if allocs > 6 {
		t.Errorf("a cached single entry allocates %.0f times per request, want at most 6", allocs)
	}
}

// discardWriter counts what a handler writes.
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *discardWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.n += len(b)
	return len(b), nil
}
