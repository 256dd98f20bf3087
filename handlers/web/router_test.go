package web_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"cms/handlers/web"
	"cms/handlers/web/webtest"
)

// thingsRouter has a literal path beside a wildcard one ("/api/things/me" beside
// "/api/things/{id}"), which a ServeMux with method patterns plus method-less 405 fallbacks
// refuses. Every endpoint answers with its own name.
func thingsRouter() *web.Router {
	rt := web.NewRouter()
	for _, p := range []string{
		"GET /api/things",
		"POST /api/things",
		"GET /api/things/me",
		"GET /api/things/{id}",
		"PUT /api/things/{id}",
		"DELETE /api/things/{id}",
		"POST /api/things/{id}/rename",
		"HEAD /api/things/{id}/file",
		"GET /api/things/{id}/file",
	} {
		rt.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) error {
			web.WriteJSON(w, http.StatusOK, web.Data{Data: p + " " + r.PathValue("id")})
			return nil
		})
	}
	rt.NotFound("/api/things/")
	return rt
}

// thingsAllow is the Allow header of each path of thingsRouter.
var thingsAllow = map[string]string{
	"/api/things":             "GET, HEAD, POST",
	"/api/things/me":          "GET, HEAD",
	"/api/things/{id}":        "DELETE, GET, HEAD, PUT",
	"/api/things/{id}/rename": "POST",
	"/api/things/{id}/file":   "GET, HEAD",
}

func serveInfo(h http.Handler, method, path string) (*httptest.ResponseRecorder, *web.RequestInfo) {
	info := &web.RequestInfo{}
	r := httptest.NewRequest(method, path, nil)
	r = r.WithContext(web.WithInfo(r.Context(), info))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w, info
}

func TestRouterDispatch(t *testing.T) {
	t.Parallel()
	rt := thingsRouter()
	tests := []struct {
		method, path string
		status       int
		body         string // for 200: the endpoint that answered; else the error code
		route        string // RequestInfo.Route
	}{
		{"GET", "/api/things", 200, "GET /api/things ", "GET /api/things"},
		{"POST", "/api/things", 200, "POST /api/things ", "POST /api/things"},
		{"GET", "/api/things/me", 200, "GET /api/things/me ", "GET /api/things/me"},
		{"GET", "/api/things/7", 200, "GET /api/things/{id} 7", "GET /api/things/{id}"},
		{"PUT", "/api/things/7", 200, "PUT /api/things/{id} 7", "PUT /api/things/{id}"},
		{"POST", "/api/things/me/rename", 200, "POST /api/things/{id}/rename me", "POST /api/things/{id}/rename"},
		// GET answers HEAD unless HEAD has its own endpoint.
		{"HEAD", "/api/things/me", 200, "GET /api/things/me ", "GET /api/things/me"},
		{"HEAD", "/api/things/7", 200, "GET /api/things/{id} 7", "GET /api/things/{id}"},
		{"HEAD", "/api/things/7/file", 200, "HEAD /api/things/{id}/file 7", "HEAD /api/things/{id}/file"},
		// A literal path has only its own methods: PUT does not fall through to {id}.
		{"PUT", "/api/things/me", 405, "METHOD_NOT_ALLOWED", "/api/things/me"},
		{"OPTIONS", "/api/things", 405, "METHOD_NOT_ALLOWED", "/api/things"},
		{"GET", "/api/things/7/8/9", 404, "NOT_FOUND", "/api/things/"},
		{"DELETE", "/api/things/7/nope", 404, "NOT_FOUND", "/api/things/"},
	}
	for _, tt := range tests {
		w, info := serveInfo(rt, tt.method, tt.path)
		if w.Code != tt.status || !strings.Contains(w.Body.String(), tt.body) {
			t.Errorf("%s %s = %d %s, want %d with %q", tt.method, tt.path, w.Code, w.Body.String(), tt.status, tt.body)
		}
		if info.Route != tt.route {
			t.Errorf("%s %s: route on the access line %q, want %q", tt.method, tt.path, info.Route, tt.route)
		}
		if tt.status >= 400 {
			if e := webtest.DecodeError(t, w); e.Error.Code != tt.body {
				t.Errorf("%s %s: code %q, want %q", tt.method, tt.path, e.Error.Code, tt.body)
			}
		}
		if tt.status == 404 && !strings.Contains(w.Body.String(), "Route not found: "+tt.method+" "+tt.path) {
			t.Errorf("%s %s: 404 body %s does not name the request", tt.method, tt.path, w.Body.String())
		}
	}
}

// Every registered path answers every method it lacks with a JSON 405 whose Allow lists the
// path's methods, sorted, with HEAD beside GET.
func TestRouterMethodNotAllowed(t *testing.T) {
	t.Parallel()
	rt := thingsRouter()
	seen := map[string]bool{}
	for _, r := range rt.Routes() {
		_, path, _ := strings.Cut(r, " ")
		seen[path] = true
	}
	if len(seen) != len(thingsAllow) {
		t.Fatalf("paths in the route table %v, want those of %v", seen, thingsAllow)
	}
	for path, allow := range thingsAllow {
		concrete := strings.ReplaceAll(path, "{id}", "7")
		for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"} {
			if slices.Contains(strings.Split(allow, ", "), m) {
				continue
			}
			w, _ := serveInfo(rt, m, concrete)
			if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != allow {
				t.Errorf("%s %s = %d (Allow %q), want 405 (Allow %q)", m, concrete, w.Code, w.Header().Get("Allow"), allow)
				continue
			}
			if e := webtest.DecodeError(t, w); e.Error.Code != "METHOD_NOT_ALLOWED" || e.Error.Message != "Method not allowed; use "+allow {
				t.Errorf("%s %s: error %+v", m, concrete, e)
			}
		}
	}
}

func TestRouterRoutes(t *testing.T) {
	t.Parallel()
	got := thingsRouter().Routes()
	want := []string{
		"GET /api/things",
		"POST /api/things",
		"GET /api/things/me",
		"DELETE /api/things/{id}",
		"GET /api/things/{id}",
		"PUT /api/things/{id}",
		"GET /api/things/{id}/file",
		"HEAD /api/things/{id}/file",
		"POST /api/things/{id}/rename",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Routes() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Mistakes in a route table fail at start-up, not on the first request.
func TestRouterRegistrationPanics(t *testing.T) {
	t.Parallel()
	ok := func(w http.ResponseWriter, r *http.Request) error { return nil }
	tests := []struct {
		name     string
		register func(rt *web.Router)
	}{
		{"same method and path twice", func(rt *web.Router) {
			rt.HandleFunc("GET /api/x/{id}", ok)
			rt.HandleFunc("GET /api/x/{id}", ok)
		}},
		{"explicit HEAD twice", func(rt *web.Router) {
			rt.HandleFunc("HEAD /api/x", ok)
			rt.HandleFunc("HEAD /api/x", ok)
		}},
		{"no method", func(rt *web.Router) { rt.HandleFunc("/api/x", ok) }},
		{"lower-case method", func(rt *web.Router) { rt.HandleFunc("get /api/x", ok) }},
		{"conflicting paths", func(rt *web.Router) {
			rt.HandleFunc("GET /api/x/{a}/b", ok)
			rt.HandleFunc("GET /api/x/a/{b}", ok)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("registration did not panic")
				}
			}()
			tt.register(web.NewRouter())
		})
	}
}
