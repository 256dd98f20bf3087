package entries_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/entries"
	"cms/handlers/web"
)

// serve runs one request per iteration through h, in the same way for every benchmark here so
// that their figures compare.
func serve(b *testing.B, h http.Handler, path, token string) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// BenchmarkTrivialHandler is the baseline: a router with one route that writes a tiny JSON body.
func BenchmarkTrivialHandler(b *testing.B) {
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/trivial", func(w http.ResponseWriter, r *http.Request) error {
		web.WriteJSON(w, http.StatusOK, web.Data{Data: "ok"})
		return nil
	})
	serve(b, rt, "/api/trivial", "")
}

func benchEnv(b *testing.B, cacheBytes int64) http.Handler {
	b.Helper()
	var site strings.Builder
	site.WriteString("-- resources/collections/blog.yaml --\ntitle: Blog\nroute: /blog/{slug}\n")
	for i := range 200 {
		fmt.Fprintf(&site, "-- content/collections/blog/post-%03d.md --\n---\ntitle: Post %d\nstatus: published\ncreatedAt: 2026-01-02T10:00:00.000Z\nupdatedAt: 2026-01-02T10:00:00.000Z\nexcerpt: An excerpt of a few words\ntags: [a, b]\n---\n\n%s\n", i, i, strings.Repeat("Some body text. ", 60))
	}
	st := contenttest.OpenStore(b, contenttest.WriteSite(b, site.String()))
	h, err := entries.New(entries.Deps{Store: st, Auth: newAuth(), CacheBytes: cacheBytes})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// BenchmarkGetEntry is an authenticated single-entry GET (fake authenticator, real store).
func BenchmarkGetEntry(b *testing.B) {
	serve(b, benchEnv(b, 0), "/api/entries/blog/post-042", tokEditor)
}

// BenchmarkGetEntryUncached reads and parses the file on every request.
func BenchmarkGetEntryUncached(b *testing.B) {
	serve(b, benchEnv(b, -1), "/api/entries/blog/post-042", tokEditor)
}

// BenchmarkListEntries lists a page of 50 entries with their bodies.
func BenchmarkListEntries(b *testing.B) {
	serve(b, benchEnv(b, 0), "/api/entries/blog?limit=50&sort=-title", tokEditor)
}
