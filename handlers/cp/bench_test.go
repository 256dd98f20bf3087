package cp_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/handlers/cp"
)

// BenchmarkServe measures the handler's own cost per request kind (no network).
func BenchmarkServe(b *testing.B) {
	h, err := cp.New(cp.Deps{})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name, path string
		cookie     bool
		etag       bool
	}{
		{"redirect", "/cp/entries/blog", false, false},
		{"shell", "/cp/entries/blog", true, false},
		{"login", "/cp/login", false, false},
		{"asset", "/cp/assets/app.js", false, false},
		{"asset-304", "/cp/assets/app.js", false, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := httptest.NewRequest(http.MethodGet, bc.path, nil)
			if bc.cookie {
				r.AddCookie(&http.Cookie{Name: "cms_session", Value: "x"})
			}
			if bc.etag {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				r.Header.Set("If-None-Match", w.Header().Get("ETag"))
			}
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code >= 400 {
					b.Fatal(w.Code)
				}
			}
		})
	}
}

// BenchmarkNew measures start-up: hashing the assets and rendering the two pages.
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := cp.New(cp.Deps{}); err != nil {
			b.Fatal(err)
		}
	}
}
