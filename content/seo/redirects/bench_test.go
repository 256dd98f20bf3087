package redirects_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"cms/content/seo/redirects"
)

// BenchmarkHandler compares a trivial handler with the same handler behind a redirect lookup
// over 10,000 redirects (issue 14: a redirected request ≥ 0.7× the trivial handler's rate; a
// page that is not redirected costs ≤ 1 µs more than with redirects off).
func BenchmarkHandler(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "redirects")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 10_000 {
		r := redirects.Redirect{ID: fmt.Sprintf("r%05d", i), Site: "default", Source: fmt.Sprintf("/old/%d", i),
			Destination: fmt.Sprintf("/new/%d", i), Status: 301, Enabled: true}
		if err := os.WriteFile(filepath.Join(dir, r.ID+".yaml"), redirects.Marshal(r), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s, err := redirects.Open(redirects.Options{Dir: dir, Sites: sites})
	if err != nil {
		b.Fatal(err)
	}
	if n := len(s.List("default")); n != 10_000 {
		b.Fatalf("%d redirects", n)
	}
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<p>page</p>"))
	})
	withRedirects := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if loc, st, ok := s.Lookup("default", r.URL.EscapedPath(), r.URL.RawQuery); ok {
			w.Header().Set("Location", loc)
			w.WriteHeader(st)
			return
		}
		page(w, r)
	})
	run := func(name string, h http.Handler, path string, want int) {
		b.Run(name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != want {
					b.Fatalf("status %d", w.Code)
				}
			}
		})
	}
	run("trivial", page, "/old/5000", 200)
	run("redirected", withRedirects, "/old/5000", 301)
	run("not-redirected", withRedirects, "/blog/post", 200)
	b.Run("lookup-miss", func(b *testing.B) {
		for b.Loop() {
			if _, _, ok := s.Lookup("default", "/blog/post", ""); ok {
				b.Fatal("match")
			}
		}
	})
}
