package users_test

import (
	"net/http"
	"strings"
	"testing"

	"cms/content/sessions"
	"cms/handlers/auth"
	"cms/handlers/auth/authtest"
	"cms/handlers/users"
	"cms/handlers/web/webtest"
)

// listSessions returns the sessions GET /api/users/{id}/sessions shows to tok.
func (e *testEnv) listSessions(t *testing.T, tok, id string) []users.SessionView {
	t.Helper()
	w := e.do(t, webtest.Request{Path: "/api/users/" + id + "/sessions", Token: tok})
	if w.Code != http.StatusOK {
		t.Fatalf("GET sessions of %s: %d %s", id, w.Code, w.Body)
	}
	var body struct{ Data []users.SessionView }
	webtest.DecodeJSON(t, w, &body)
	return body.Data
}

// login signs in through the API as a browser would, and returns the token.
func (e *testEnv) login(t *testing.T, id, userAgent string) string {
	t.Helper()
	w := e.do(t, webtest.Request{Method: "POST", Path: "/api/auth/login", Header: http.Header{"User-Agent": {userAgent}},
		Body: map[string]string{"email": id + "@example.com", "password": authtest.Password}})
	var resp auth.LoginResponse
	webtest.DecodeJSON(t, w, &resp)
	if w.Code != http.StatusOK || resp.Token == "" {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	return resp.Token
}

// Signed-in users see their sessions with the browser that opened each and the current one
// marked, and never a token or its hash; they can end one other session, then all others,
// and keep the one they use.
func TestOwnSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	laptop := e.login(t, "ann", "Firefox on the laptop")
	phone := e.login(t, "ann", "Safari on the phone")
	tablet := e.login(t, "ann", "Chrome on the tablet")

	w := e.do(t, webtest.Request{Path: "/api/users/me/sessions", Token: laptop})
	for _, secret := range []string{laptop, phone, tablet, sessions.HashToken(laptop), sessions.HashToken(phone)[:16]} {
		if strings.Contains(w.Body.String(), secret) {
			t.Fatalf("the listing shows a token or its hash: %s", w.Body)
		}
	}
	list := e.listSessions(t, laptop, "me")
	if len(list) != 3 {
		t.Fatalf("ann sees %d sessions, want 3: %+v", len(list), list)
	}
	byAgent := map[string]users.SessionView{}
	for _, s := range list {
		byAgent[s.UserAgent] = s
		if s.ID == "" || s.CreatedAt == "" || s.ExpiresAt == "" || s.Address == "" {
			t.Errorf("session %+v lacks its id, times or address", s)
		}
	}
	if !byAgent["Firefox on the laptop"].Current || byAgent["Safari on the phone"].Current || byAgent["Chrome on the tablet"].Current {
		t.Errorf("current marks = %+v, want only the laptop's", list)
	}
	if e.listSessions(t, laptop, "ann")[0].ID != list[0].ID {
		t.Error("/api/users/ann/sessions differs from /api/users/me/sessions")
	}

	// End the phone's session only.
	w = e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/me/sessions/" + byAgent["Safari on the phone"].ID, Token: laptop})
	if w.Code != http.StatusOK {
		t.Fatalf("DELETE one session: %d %s", w.Code, w.Body)
	}
	if e.valid(t, phone) || !e.valid(t, laptop) || !e.valid(t, tablet) {
		t.Errorf("after ending the phone's session: laptop %v phone %v tablet %v", e.valid(t, laptop), e.valid(t, phone), e.valid(t, tablet))
	}
	// Sign out everywhere else.
	w = e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/me/sessions", Token: laptop})
	var revoked struct{ Data users.RevokedView }
	webtest.DecodeJSON(t, w, &revoked)
	if w.Code != http.StatusOK || revoked.Data.Revoked != 1 {
		t.Fatalf("DELETE all others: %d %s", w.Code, w.Body)
	}
	if !e.valid(t, laptop) || e.valid(t, tablet) {
		t.Errorf("after signing out elsewhere: laptop %v tablet %v; want only the laptop", e.valid(t, laptop), e.valid(t, tablet))
	}
	if list := e.listSessions(t, laptop, "me"); len(list) != 1 || !list[0].Current {
		t.Errorf("left = %+v, want the current session only", list)
	}
}

// Ending one's current session by its id signs one out, cookie included.
func TestRevokeCurrentSessionClearsCookie(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.login(t, "ann", "Firefox")
	cur := e.listSessions(t, tok, "me")[0]
	w := e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/me/sessions/" + cur.ID,
		Header: http.Header{"Origin": {"http://example.com"}}, Cookies: []*http.Cookie{{Name: "cms_session", Value: tok}}})
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	cleared := false
	for _, c := range w.Result().Cookies() {
		cleared = cleared || (c.Name == "cms_session" && c.MaxAge < 0)
	}
	if !cleared || e.valid(t, tok) {
		t.Errorf("cookie cleared %v, session still valid %v", cleared, e.valid(t, tok))
	}
}

// Another user's sessions take users:edit over a user the caller may manage; the checks come
// before the user is looked up, and a session id of someone else is not found through one's own
// path.
func TestOtherUsersSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	ann1, ann2 := e.login(t, "ann", "one"), e.login(t, "ann", "two")
	vic := e.Token(t, "vic")

	list := e.listSessions(t, admin, "ann")
	if len(list) != 2 || list[0].Current || list[1].Current {
		t.Fatalf("the admin sees %+v, want ann's two sessions, none current", list)
	}
	for _, c := range []struct {
		name   string
		req    webtest.Request
		status int
		code   string
	}{
		{"viewer lists", webtest.Request{Path: "/api/users/ann/sessions", Token: vic}, 403, "AUTHORIZATION_ERROR"},
		{"viewer lists an unknown user", webtest.Request{Path: "/api/users/nobody/sessions", Token: vic}, 403, "AUTHORIZATION_ERROR"},
		{"viewer ends one", webtest.Request{Method: "DELETE", Path: "/api/users/ann/sessions/" + list[0].ID, Token: vic}, 403, "AUTHORIZATION_ERROR"},
		{"author ends the admin's", webtest.Request{Method: "DELETE", Path: "/api/users/alice/sessions", Token: ann1}, 403, "AUTHORIZATION_ERROR"},
		{"admin lists an unknown user", webtest.Request{Path: "/api/users/nobody/sessions", Token: admin}, 404, "NOT_FOUND"},
		{"ann's session through the viewer's path", webtest.Request{Method: "DELETE", Path: "/api/users/me/sessions/" + list[0].ID, Token: vic}, 404, "NOT_FOUND"},
		{"no such session", webtest.Request{Method: "DELETE", Path: "/api/users/ann/sessions/nope", Token: admin}, 404, "NOT_FOUND"},
		{"bad user id", webtest.Request{Path: "/api/users/..%2F/sessions", Token: admin}, 400, "BAD_REQUEST"},
		{"anonymous", webtest.Request{Path: "/api/users/ann/sessions"}, 401, "AUTHENTICATION_ERROR"},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.do(t, c.req), c.status, c.code)
		})
	}
	if !e.valid(t, ann1) || !e.valid(t, ann2) {
		t.Fatal("a refused request ended a session")
	}
	w := e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/ann/sessions/" + list[0].ID, Token: admin})
	if w.Code != http.StatusOK {
		t.Fatalf("admin ends one: %d %s", w.Code, w.Body)
	}
	if e.valid(t, ann1) == e.valid(t, ann2) {
		t.Error("want exactly one of ann's sessions ended")
	}
	w = e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/ann/sessions", Token: admin})
	if w.Code != http.StatusOK || e.valid(t, ann1) || e.valid(t, ann2) || !e.valid(t, admin) {
		t.Fatalf("admin ends all of ann's: %d %s", w.Code, w.Body)
	}
}
