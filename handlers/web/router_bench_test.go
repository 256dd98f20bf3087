package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/handlers/web"
)

// discard is a ResponseWriter that keeps nothing, so the benchmarks measure the router alone.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

// benchRouter is a route table shaped like the users group's.
func benchRouter() *web.Router {
	rt := web.NewRouter()
	ok := func(w http.ResponseWriter, r *http.Request) error { return nil }
	rt.HandleFunc("GET /api/users", ok)
	rt.HandleFunc("POST /api/users", ok)
	rt.HandleFunc("GET /api/users/{id}", ok)
	rt.HandleFunc("PUT /api/users/{id}", ok)
	rt.HandleFunc("DELETE /api/users/{id}", ok)
	rt.HandleFunc("POST /api/users/{id}/password", ok)
	rt.NotFound("/api/users/")
	rt.HandleFunc("GET /api/roles", ok)
	rt.HandleFunc("POST /api/roles", ok)
	rt.HandleFunc("GET /api/roles/{handle}", ok)
	rt.HandleFunc("PUT /api/roles/{handle}", ok)
	rt.HandleFunc("DELETE /api/roles/{handle}", ok)
	rt.NotFound("/api/roles/")
	return rt
}

func benchServe(b *testing.B, method, path string) {
	rt := benchRouter()
	info := &web.RequestInfo{}
	r := httptest.NewRequest(method, path, nil)
	r = r.WithContext(web.WithInfo(r.Context(), info))
	w := &discard{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		rt.ServeHTTP(w, r)
	}
}

func BenchmarkRouterLiteral(b *testing.B)  { benchServe(b, http.MethodGet, "/api/users") }
func BenchmarkRouterWildcard(b *testing.B) { benchServe(b, http.MethodPut, "/api/users/u1") }
func BenchmarkRouterHead(b *testing.B)     { benchServe(b, http.MethodHead, "/api/roles/editor") }
func BenchmarkRouterNested(b *testing.B) {
	benchServe(b, http.MethodPost, "/api/users/u1/password")
}
