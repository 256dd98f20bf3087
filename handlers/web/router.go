package web

import (
	"net/http"
	"sort"
	"strings"
	"sync"
)

// Router is a [http.ServeMux] with full-path method patterns that answers a known path with the
// wrong method as a JSON 405 (with Allow) and unknown paths under its prefixes as a JSON 404.
type Router struct {
	mux     *http.ServeMux
	mu      sync.Mutex
	methods map[string][]string // path pattern -> methods
}

// NewRouter returns an empty router.
func NewRouter() *Router {
	return &Router{mux: http.NewServeMux(), methods: map[string][]string{}}
}

// Handle registers h for a "METHOD /path" pattern. It panics on an invalid or conflicting pattern
// at registration (start-up) time, as http.ServeMux does; group tests catch that.
func (rt *Router) Handle(pattern string, h http.Handler) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		rt.mux.Handle(pattern, rt.named(pattern, h))
		return
	}
	rt.mu.Lock()
	_, known := rt.methods[path]
	rt.methods[path] = append(rt.methods[path], method)
	if method == http.MethodGet {
		rt.methods[path] = append(rt.methods[path], http.MethodHead)
	}
	rt.mu.Unlock()
	rt.mux.Handle(pattern, rt.named(pattern, h))
	if !known {
		rt.mux.Handle(path, rt.named(path, HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
			return rt.methodNotAllowed(w, path)
		})))
	}
}

// HandleFunc registers an error-returning endpoint.
func (rt *Router) HandleFunc(pattern string, f HandlerFunc) { rt.Handle(pattern, f) }

// NotFound answers every other path under prefix (e.g. "/api/entries/") with a JSON 404.
func (rt *Router) NotFound(prefix string) {
	rt.mux.Handle(prefix, rt.named(prefix, HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		return NotFound("Route not found: %s %s", r.Method, r.URL.Path)
	})))
}

func (rt *Router) named(pattern string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info := InfoFrom(r.Context()); info != nil {
			info.Route = pattern
		}
		h.ServeHTTP(w, r)
	})
}

func (rt *Router) methodNotAllowed(w http.ResponseWriter, path string) error {
	rt.mu.Lock()
	allowed := append([]string{}, rt.methods[path]...)
	rt.mu.Unlock()
	sort.Strings(allowed)
	allowed = compact(allowed)
	return &Error{Status: http.StatusMethodNotAllowed, Code: "METHOD_NOT_ALLOWED",
		Message: "Method not allowed; use " + strings.Join(allowed, ", "),
		Header:  http.Header{"Allow": {strings.Join(allowed, ", ")}}}
}

func compact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// ServeHTTP dispatches to the registered handler.
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) { rt.mux.ServeHTTP(w, r) }
