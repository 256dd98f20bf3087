package users_test

import (
	"net/http"
	"testing"

	"cms/handlers/web/webtest"
)

// Every users and roles endpoint that reads a body wants it declared as JSON: a cross-site form
// can send text/plain without a preflight, so anything else is a 415 and nothing changes.
func TestBodiesMustBeJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.Token(t, "alice") // an admin: every check before the body passes
	for _, c := range []struct{ method, path string }{
		{"POST", "/api/users"},
		{"PUT", "/api/users/ann"},
		{"PUT", "/api/users/me"},
		{"POST", "/api/users/ann/password"},
		{"POST", "/api/roles"},
		{"PUT", "/api/roles/editor"},
	} {
		for _, ct := range []string{"text/plain", "text/plain; charset=json", "application/x-www-form-urlencoded"} {
			w := e.do(t, webtest.Request{Method: c.method, Path: c.path, Token: tok,
				Header: http.Header{"Content-Type": {ct}}, Body: map[string]any{"name": "Mallory"}})
			if w.Code != http.StatusUnsupportedMediaType {
				t.Errorf("%s %s with %s = %d %s, want 415", c.method, c.path, ct, w.Code, w.Body)
			}
		}
	}
}
