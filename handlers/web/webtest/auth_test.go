package webtest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content"
	"cms/handlers/authn"
	"cms/handlers/web"
	"cms/handlers/web/webtest"
)

// The handler tests' authenticator is production's: authn's carrier rules over a real session
// store, so a revoked session stops working and a cookie session meets the same-origin rule.
func TestAuthIsTheProductionPath(t *testing.T) {
	t.Parallel()
	a := webtest.NewAuth(t)
	var _ web.Authenticator = a
	var _ *authn.Authenticator = a.Authenticator
	tok := a.Add(webtest.Token("ed"), "ed", webtest.Role("editor", webtest.Grant("entries", "view")))
	a.Add(webtest.Token("ed, second session"), "ed", webtest.Role("editor", webtest.Grant("entries", "view")))
	if tok != webtest.Token("ed") || len(tok) != 64 {
		t.Fatalf("Add returned %q", tok)
	}

	r := httptest.NewRequest("GET", "/api/entries/blog", nil)
	r.Header.Set("Authorization", "bearer "+tok) // the scheme is case-insensitive, as in production
	p, err := web.Require(a, r, "entries", "view", "blog")
	if err != nil || p.User.ID != "ed" || p.ViaCookie || p.SessionID == "" {
		t.Fatalf("Require = %+v, %v", p, err)
	}
	if _, err := web.Require(a, r, "entries", "edit", "blog"); content.KindOf(err) != content.Forbidden {
		t.Errorf("edit without the grant: %v", err)
	}

	r = httptest.NewRequest("POST", "/api/entries/blog", nil)
	r.AddCookie(&http.Cookie{Name: authn.CookieName, Value: tok})
	r.Header.Set("Origin", "https://evil.example")
	if _, err := web.Authenticated(a, r); err == nil {
		t.Error("a cross-site cookie POST was accepted")
	}

	if n, err := a.Sessions.RevokeUser(t.Context(), "ed"); err != nil || n != 2 {
		t.Fatalf("RevokeUser = %d, %v", n, err)
	}
	r = httptest.NewRequest("GET", "/api/entries/blog", nil)
	r.Header.Set("Authorization", "Bearer "+tok)
	if _, err := a.Authenticate(r); content.KindOf(err) != content.Unauthenticated {
		t.Errorf("revoked session: %v", err)
	}
}
