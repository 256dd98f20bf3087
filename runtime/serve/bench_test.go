package serve_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/publicentries"
	"cms/runtime/serve"
)

// The hot path: a cached public entry through the whole Stack (request ID, headers, access log
// as JSON, as in production), against the trivial handler with and without the Stack. Profile
// with -cpuprofile to see where the time beyond the trivial handler goes.

func benchServe(b *testing.B, h http.Handler, path string) {
	b.Helper()
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

func trivialHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":"ok"}`))
	})
}

func jsonLog() *slog.Logger { return slog.New(slog.NewJSONHandler(io.Discard, nil)) }

func BenchmarkTrivial(b *testing.B) { benchServe(b, trivialHandler(), "/api/trivial") }

func BenchmarkStackTrivial(b *testing.B) {
	benchServe(b, serve.Stack(trivialHandler(), jsonLog()), "/api/trivial")
}

func BenchmarkStackPublicEntryCached(b *testing.B) {
	var site strings.Builder
	site.WriteString("-- resources/collections/blog.yaml --\ntitle: Blog\nroute: /blog/{slug}\n")
	for i := range 100 {
		fmt.Fprintf(&site, "-- content/collections/blog/post-%03d.md --\n---\ntitle: Post %d\nstatus: published\ncreatedAt: 2026-01-02T10:00:00.000Z\n---\n\n%s\n", i, i, strings.Repeat("Some body text. ", 60))
	}
	st := contenttest.OpenStore(b, contenttest.WriteSite(b, site.String()))
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false)})
	if err != nil {
		b.Fatal(err)
	}
	benchServe(b, serve.Stack(h, jsonLog()), "/api/public/entries/blog/post-042")
}
