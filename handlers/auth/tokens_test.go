package auth_test

import (
	"net/http"
	"testing"

	"cms/handlers/web/webtest"
)

// An API token is not a session: logout refuses it (saying how to revoke it) and leaves it
// working, and validate names it as a token, never as its creator.
func TestAPITokenIsNotASession(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, nil)
	tok, rec, err := env.Sessions.CreateAPIToken(t.Context(), "CI", "viewer", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/auth/logout", Token: tok})
	if w.Code != http.StatusBadRequest {
		t.Errorf("logout with an API token = %d %s, want 400", w.Code, w.Body)
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/api/auth/validate", Token: tok})
	if w.Code != http.StatusOK || w.Body.String() != `{"valid":true,"userId":"token:`+rec.ID+`"}` {
		t.Errorf("validate with the token after logout = %d %s", w.Code, w.Body)
	}
}
