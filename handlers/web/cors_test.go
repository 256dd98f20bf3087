package web_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"cms/handlers/web"
)

// TestCORSTable sends simple requests and preflights from several origins to routes of each mode
// and checks what a browser would be told.
func TestCORSTable(t *testing.T) {
	t.Parallel()
	policy, err := web.NewCORS([]string{"https://app.example.com", "http://localhost:*", "*"}, 600)
	if err != nil {
		t.Fatal(err)
	}
	exactOnly, err := web.NewCORS([]string{"https://app.example.com"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]web.CORSMode{"/api/public/": web.CORSPublic, "/api/graphql": web.CORSAuthenticated, "/api/things": web.CORSPrivate}
	mode := func(p string) web.CORSMode {
		for prefix, m := range modes {
			if strings.HasPrefix(p, prefix) {
				return m
			}
		}
		return web.CORSPrivate
	}
	rt := web.NewRouter()
	for _, p := range []string{"GET /api/public/entries/{c}", "GET /api/graphql", "POST /api/graphql", "GET /api/things", "POST /api/things"} {
		rt.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) error {
			web.WriteJSON(w, http.StatusOK, web.Data{Data: p})
			return nil
		})
	}
	rt.NotFound("/api/")

	tests := []struct {
		name        string
		policy      *web.CORS
		method      string
		path        string
		origin      string
		preflight   string // Access-Control-Request-Method
		reqHeaders  string // Access-Control-Request-Headers
		status      int
		allowOrigin string
		credentials bool
		methods     string // Access-Control-Allow-Methods of a successful preflight
	}{
		{"public, exact origin", policy, "GET", "/api/public/entries/blog", "https://app.example.com", "", "", 200, "https://app.example.com", false, ""},
		{"public, any other origin gets *", policy, "GET", "/api/public/entries/blog", "https://evil.example", "", "", 200, "*", false, ""},
		{"public, localhost any port", policy, "GET", "/api/public/entries/blog", "http://localhost:5173", "", "", 200, "http://localhost:5173", false, ""},
		{"public preflight", policy, "OPTIONS", "/api/public/entries/blog", "https://evil.example", "GET", "if-none-match", 204, "*", false, "GET, HEAD"},
		{"public preflight, authorization refused", policy, "OPTIONS", "/api/public/entries/blog", "https://app.example.com", "GET", "Authorization", 403, "", false, ""},
		{"public preflight, method refused", policy, "OPTIONS", "/api/public/entries/blog", "https://app.example.com", "DELETE", "", 405, "", false, ""},
		{"preflight, unknown path", policy, "OPTIONS", "/api/public/nope/x/y", "https://app.example.com", "GET", "", 404, "", false, ""},
		{"graphql, exact origin with credentials", policy, "POST", "/api/graphql", "https://app.example.com", "", "", 200, "https://app.example.com", true, ""},
		{"graphql, localhost pattern without credentials", policy, "POST", "/api/graphql", "http://localhost:8080", "", "", 200, "http://localhost:8080", false, ""},
		{"graphql, * never applies", policy, "POST", "/api/graphql", "https://evil.example", "", "", 200, "", false, ""},
		{"graphql preflight with authorization", policy, "OPTIONS", "/api/graphql", "https://app.example.com", "POST", "authorization, content-type", 204, "https://app.example.com", true, "GET, HEAD, POST"},
		{"graphql preflight, unknown origin", policy, "OPTIONS", "/api/graphql", "https://evil.example", "POST", "content-type", 403, "", false, ""},
		{"CP API, exactly listed origin", policy, "GET", "/api/things", "https://app.example.com", "", "", 200, "https://app.example.com", true, ""},
		{"CP API stays closed to a pattern", policy, "GET", "/api/things", "http://localhost:5173", "", "", 200, "", false, ""},
		{"CP API stays closed to *", policy, "POST", "/api/things", "https://evil.example", "", "", 200, "", false, ""},
		{"CP API preflight refused", policy, "OPTIONS", "/api/things", "http://localhost:5173", "POST", "content-type", 403, "", false, ""},
		{"null origin refused", policy, "GET", "/api/public/entries/blog", "null", "", "", 200, "", false, ""},
		{"port pattern needs a port", policy, "GET", "/api/public/entries/blog", "http://localhost:x", "", "", 200, "*", false, ""},
		{"exact only: other origin gets nothing", exactOnly, "GET", "/api/public/entries/blog", "https://evil.example", "", "", 200, "", false, ""},
		{"exact only: public route never with credentials", exactOnly, "GET", "/api/public/entries/blog", "https://app.example.com", "", "", 200, "https://app.example.com", false, ""},
		{"no origin: not CORS", policy, "GET", "/api/public/entries/blog", "", "", "", 200, "", false, ""},
		{"OPTIONS without preflight headers reaches the router", policy, "OPTIONS", "/api/things", "https://app.example.com", "", "", 405, "https://app.example.com", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.policy.Wrap(rt, mode)
			r := httptest.NewRequest(tt.method, tt.path, nil)
			if tt.origin != "" {
				r.Header.Set("Origin", tt.origin)
			}
			if tt.preflight != "" {
				r.Header.Set("Access-Control-Request-Method", tt.preflight)
			}
			if tt.reqHeaders != "" {
				r.Header.Set("Access-Control-Request-Headers", tt.reqHeaders)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			hdr := w.Header()
			if w.Code != tt.status {
				t.Errorf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if got := hdr.Get("Access-Control-Allow-Origin"); got != tt.allowOrigin {
				t.Errorf("Access-Control-Allow-Origin %q, want %q", got, tt.allowOrigin)
			}
			creds := hdr.Get("Access-Control-Allow-Credentials") == "true"
			if creds != tt.credentials {
				t.Errorf("credentials %v, want %v", creds, tt.credentials)
			}
			if creds && hdr.Get("Access-Control-Allow-Origin") == "*" {
				t.Error("credentials allowed with *")
			}
			if !slices.Contains(hdr.Values("Vary"), "Origin") {
				t.Errorf("Vary %q lacks Origin", hdr.Values("Vary"))
			}
			if tt.methods != "" {
				if got := hdr.Get("Access-Control-Allow-Methods"); got != tt.methods {
					t.Errorf("Access-Control-Allow-Methods %q, want %q", got, tt.methods)
				}
				if tt.policy == policy && hdr.Get("Access-Control-Max-Age") != "600" {
					t.Errorf("Access-Control-Max-Age %q, want 600", hdr.Get("Access-Control-Max-Age"))
				}
				if tt.reqHeaders != "" && hdr.Get("Access-Control-Allow-Headers") == "" {
					t.Error("no Access-Control-Allow-Headers")
				}
			}
			if tt.status >= 400 && !strings.Contains(w.Body.String(), `"error"`) {
				t.Errorf("refusal not in the error envelope: %s", w.Body)
			}
		})
	}
}

// TestCORSNone: without origins the policy changes nothing, so a preflight stays a 405.
func TestCORSNone(t *testing.T) {
	t.Parallel()
	policy, err := web.NewCORS(nil, 600)
	if err != nil {
		t.Fatal(err)
	}
	h := policy.Wrap(thingsRouter(), nil)
	r := httptest.NewRequest("OPTIONS", "/api/things", nil)
	r.Header.Set("Origin", "https://app.example.com")
	r.Header.Set("Access-Control-Request-Method", "GET")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("%d %q", w.Code, w.Header())
	}
}

// TestNewCORSRefusesBadOrigins: an origin with a path, a user, another scheme or a port with a
// port pattern is a configuration error, not a silently ignored entry.
func TestNewCORSRefusesBadOrigins(t *testing.T) {
	t.Parallel()
	for _, o := range []string{"https://app.example.com/", "https://app.example.com/x", "ftp://x.example", "app.example.com", "https://u@x.example", "http://localhost:80:*", "https://*.example.com"} {
		if _, err := web.NewCORS([]string{o}, 0); err == nil {
			t.Errorf("%q accepted", o)
		}
	}
	for _, o := range []string{"https://app.example.com", "http://localhost:3000", "http://localhost:*", "*", "https://[::1]:8443"} {
		if _, err := web.NewCORS([]string{o}, 0); err != nil {
			t.Errorf("%q refused: %v", o, err)
		}
	}
}

// BenchmarkCORSNoOrigin is the cost the policy adds to a request without Origin (every
// same-origin GET and every server-side client): go test -bench CORS -benchmem ./handlers/web/
func BenchmarkCORSNoOrigin(b *testing.B) {
	policy, err := web.NewCORS([]string{"http://localhost:*"}, 600)
	if err != nil {
		b.Fatal(err)
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"bare", next}, {"wrapped", policy.Wrap(next, nil)}} {
		b.Run(bc.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/api/public/entries/blog/x", nil)
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				clear(w.Header())
				bc.h.ServeHTTP(w, r)
			}
		})
	}
}
