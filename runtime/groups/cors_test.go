package groups_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content/contenttest"
)

// TestCORSPreflightsAcrossGroups mounts every group as the local server does and sends a
// browser's preflight to each surface a frontend uses: the public API, asset files, GraphQL and
// form submission answer it for a listed origin; the CP API does not, since only an exactly
// listed origin opens it; in production nothing is open unless configured.
func TestCORSPreflightsAcrossGroups(t *testing.T) {
	t.Parallel()
	mount := func(t *testing.T, cfgFile string, env map[string]string) http.Handler {
		dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\n"+cfgFile)
		_, mux := startSite(t, dir, env)
		return mux
	}
	preflight := func(h http.Handler, path, origin, method, headers string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("OPTIONS", path, nil)
		r.Header.Set("Origin", origin)
		r.Header.Set("Access-Control-Request-Method", method)
		if headers != "" {
			r.Header.Set("Access-Control-Request-Headers", headers)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}

	listed := mount(t, "cors:\n  origins: [\"https://app.example.com\", \"*\"]\n  maxAgeSeconds: 120\n", nil)
	for _, tc := range []struct {
		path, origin, method, headers string
		status                        int
		allow                         string
	}{
		{"/api/public/entries/blog", "https://other.example", "GET", "", 204, "*"},
		{"/assets/logo.png", "https://other.example", "GET", "", 204, "*"},
		{"/api/forms/contact/submit", "https://other.example", "POST", "content-type", 204, "*"},
		{"/api/graphql", "https://app.example.com", "POST", "authorization, content-type", 204, "https://app.example.com"},
		{"/api/graphql", "https://other.example", "POST", "content-type", 403, ""},
		{"/api/users", "https://other.example", "GET", "authorization", 403, ""},
		{"/api/entries/blog", "https://app.example.com", "POST", "authorization, content-type", 204, "https://app.example.com"},
		{"/api/forms/contact/submissions", "https://other.example", "GET", "", 403, ""},
	} {
		w := preflight(listed, tc.path, tc.origin, tc.method, tc.headers)
		if w.Code != tc.status || w.Header().Get("Access-Control-Allow-Origin") != tc.allow {
			t.Errorf("preflight %s %s from %s = %d, allow-origin %q; want %d, %q: %s", tc.method, tc.path, tc.origin,
				w.Code, w.Header().Get("Access-Control-Allow-Origin"), tc.status, tc.allow, w.Body)
		}
		if tc.status == 204 && w.Header().Get("Access-Control-Max-Age") != "120" {
			t.Errorf("%s: Access-Control-Max-Age %q, want 120", tc.path, w.Header().Get("Access-Control-Max-Age"))
		}
	}

	// A real GET of the public API carries the header too.
	r := httptest.NewRequest("GET", "/api/public/entries/blog", nil)
	r.Header.Set("Origin", "https://other.example")
	w := httptest.NewRecorder()
	listed.ServeHTTP(w, r)
	if w.Header().Get("Access-Control-Allow-Origin") != "*" || w.Header().Get("Vary") == "" {
		t.Errorf("GET public list: %d %q", w.Code, w.Header())
	}

	prod := mount(t, "", map[string]string{"NODE_ENV": "production"})
	if w := preflight(prod, "/api/public/entries/blog", "http://localhost:5173", "GET", ""); w.Code != http.StatusMethodNotAllowed || w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("production without cors.origins: preflight %d %q, want 405 and no CORS", w.Code, w.Header())
	}
	dev := mount(t, "", nil)
	if w := preflight(dev, "/api/public/entries/blog", "http://localhost:5173", "GET", ""); w.Code != http.StatusNoContent || w.Header().Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
		t.Errorf("development default: preflight %d %q, want 204 for localhost", w.Code, w.Header())
	}
	if w := preflight(dev, "/api/public/entries/blog", "https://other.example", "GET", ""); w.Code != http.StatusForbidden {
		t.Errorf("development default: preflight from another host %d, want 403", w.Code)
	}
}
