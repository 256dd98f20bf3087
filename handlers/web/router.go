package web

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Router is a route table keyed by path. Each registered path gets one method-less
// [http.ServeMux] pattern whose handler picks the endpoint by method, so a literal path such as
// "/api/users/me" can sit beside "/api/users/{id}" (ServeMux would refuse "GET /api/users/me"
// beside a method-less "/api/users/{id}"). A known path with another method is a JSON 405 whose
// Allow lists the path's methods; unknown paths under a NotFound prefix are a JSON 404.
//
// Routes are registered at start-up: a Router is not safe for registration while it serves.
type Router struct {
	mux   *http.ServeMux
	paths map[string]*route // path pattern -> its methods
}

// route is one path pattern and its endpoints, in registration order. A path has a handful of
// methods, so a linear scan beats a map and allocates nothing.
type route struct {
	path      string
	endpoints []endpoint
	allow     string // the Allow header: the methods, HEAD when GET is there, sorted
}

type endpoint struct {
	method  string
	pattern string // "METHOD /path", the access log's route name
	h       http.Handler
}

// NewRouter returns an empty router.
func NewRouter() *Router {
	return &Router{mux: http.NewServeMux(), paths: map[string]*route{}}
}

// Handle registers h for a "METHOD /path" pattern. A GET endpoint also answers HEAD unless HEAD
// is registered for the path. It panics at registration (start-up) on a pattern without a
// method, on a method registered twice for a path, and on paths ServeMux finds conflicting.
func (rt *Router) Handle(pattern string, h http.Handler) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok || method == "" || path == "" || strings.ContainsAny(method, " \t") || method != strings.ToUpper(method) {
		panic(fmt.Sprintf("web: route %q is not \"METHOD /path\"", pattern))
	}
	ro := rt.paths[path]
	if ro == nil {
		ro = &route{path: path}
		rt.mux.Handle(path, ro)
		rt.paths[path] = ro
	}
	if ro.find(method) != nil {
		panic(fmt.Sprintf("web: route %q registered twice", pattern))
	}
	ro.endpoints = append(ro.endpoints, endpoint{method: method, pattern: method + " " + path, h: h})
	ro.allow = strings.Join(ro.methods(), ", ")
}

// HandleFunc registers an error-returning endpoint.
func (rt *Router) HandleFunc(pattern string, f HandlerFunc) { rt.Handle(pattern, f) }

// NotFound answers every other path matching pattern with a JSON 404: a subtree for a pattern
// ending in "/" (e.g. "/api/entries/"), else the one path.
func (rt *Router) NotFound(pattern string) {
	rt.mux.Handle(pattern, HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		setRoute(r, pattern)
		return NotFound("Route not found: %s %s", r.Method, r.URL.Path)
	}))
}

// Routes lists the registered "METHOD /path" patterns (HEAD only where registered), sorted by
// path and then method: the group's route table, for tests and documentation.
func (rt *Router) Routes() []string {
	var out []string
	for _, ro := range rt.paths {
		for _, e := range ro.endpoints {
			out = append(out, e.pattern)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		am, ap, _ := strings.Cut(a, " ")
		bm, bp, _ := strings.Cut(b, " ")
		if c := strings.Compare(ap, bp); c != 0 {
			return c
		}
		return strings.Compare(am, bm)
	})
	return out
}

// Allowed returns the Allow header of the route r's path matches (its methods, HEAD with GET),
// or false when no route matches: what a CORS preflight may ask for ([CORS.Wrap]).
func (rt *Router) Allowed(r *http.Request) (string, bool) {
	h, _ := rt.mux.Handler(r)
	ro, ok := h.(*route)
	if !ok {
		return "", false
	}
	return ro.allow, true
}

// ServeHTTP dispatches to the registered handler.
func (rt *Router) ServeHTTP(w http.ResponseWriter, r *http.Request) { rt.mux.ServeHTTP(w, r) }

// ServeHTTP runs the endpoint of the request's method, GET for HEAD when HEAD has none, and
// answers other methods with the JSON 405.
func (ro *route) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e := ro.find(r.Method)
	if e == nil && r.Method == http.MethodHead {
		e = ro.find(http.MethodGet)
	}
	if e == nil {
		setRoute(r, ro.path)
		WriteError(w, r, &Error{Status: http.StatusMethodNotAllowed, Code: "METHOD_NOT_ALLOWED",
			Message: "Method not allowed; use " + ro.allow,
			Header:  http.Header{"Allow": {ro.allow}}})
		return
	}
	setRoute(r, e.pattern)
	e.h.ServeHTTP(w, r)
}

func (ro *route) find(method string) *endpoint {
	for i := range ro.endpoints {
		if ro.endpoints[i].method == method {
			return &ro.endpoints[i]
		}
	}
	return nil
}

// methods returns the path's methods for Allow: HEAD added when GET is there, sorted.
func (ro *route) methods() []string {
	var ms []string
	for _, e := range ro.endpoints {
		ms = append(ms, e.method)
		if e.method == http.MethodGet && ro.find(http.MethodHead) == nil {
			ms = append(ms, http.MethodHead)
		}
	}
	slices.Sort(ms)
	return ms
}

// setRoute names the route on the access line.
func setRoute(r *http.Request, name string) {
	if info := InfoFrom(r.Context()); info != nil {
		info.Route = name
	}
}
