package entries_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

func trivial() http.Handler {
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/trivial", func(w http.ResponseWriter, r *http.Request) error {
		web.WriteJSON(w, http.StatusOK, web.Data{Data: "ok"})
		return nil
	})
	return rt
}

// BenchmarkTrivialHandler is the baseline: a router with one route that writes a tiny JSON body.
func BenchmarkTrivialHandler(b *testing.B) {
	serve(b, trivial(), "/api/trivial", "")
}

// BenchmarkGetEntryVsTrivial alternates a trivial request and an authenticated single-entry GET
// in one loop, so that a busy machine slows both alike, and reports their throughput ratio
// (get/trivial; the target is at least 0.3).
func BenchmarkGetEntryVsTrivial(b *testing.B) {
	h, t := benchEnv(b, 0), trivial()
	var getNs, trivialNs time.Duration
	one := func(h http.Handler, path, token string) time.Duration {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(w, r)
		d := time.Since(start)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
		return d
	}
	n := 0
	for b.Loop() {
		trivialNs += one(t, "/api/trivial", "")
		getNs += one(h, "/api/entries/blog/post-042", tokEditor)
		n++
	}
	b.ReportMetric(float64(trivialNs.Nanoseconds())/float64(n), "trivial-ns/op")
	b.ReportMetric(float64(getNs.Nanoseconds())/float64(n), "get-ns/op")
	b.ReportMetric(float64(trivialNs)/float64(getNs), "get/trivial")
}

func benchEnv(b *testing.B, cacheBytes int64) http.Handler {
	b.Helper()
	var site strings.Builder
	site.WriteString("-- resources/collections/blog.yaml --\ntitle: Blog\nroute: /blog/{slug}\n")
	for i := range 200 {
		fmt.Fprintf(&site, "-- content/collections/blog/post-%03d.md --\n---\ntitle: Post %d\nstatus: published\ncreatedAt: 2026-01-02T10:00:00.000Z\nupdatedAt: 2026-01-02T10:00:00.000Z\nexcerpt: An excerpt of a few words\ntags: [a, b]\n---\n\n%s\n", i, i, strings.Repeat("Some body text. ", 60))
	}
	st := contenttest.OpenStore(b, contenttest.WriteSite(b, site.String()))
	h, err := entries.New(entries.Deps{Store: st, Auth: newAuth(b), CacheBytes: cacheBytes})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// BenchmarkGetEntry is an authenticated single-entry GET (real authenticator and store).
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
