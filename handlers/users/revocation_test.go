package users_test

import (
	"net/http"
	"testing"

	"cms/handlers/users"
	"cms/handlers/web/webtest"
)

// Changing a user's password, email or roles, or deleting the user, ends every session of that
// user; a name change does not. Callers who change their own credentials get a fresh session.
func TestSessionRevocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name        string
		self        bool
		req         func(target string) webtest.Request
		wantRevoked bool
	}{
		{"password change by an admin", false, func(id string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/users/" + id + "/password", Body: map[string]any{"newPassword": "brand new password"}}
		}, true},
		{"password change by the user", true, func(id string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/users/me/password", Body: map[string]any{"currentPassword": "correct horse battery staple", "newPassword": "brand new password"}}
		}, true},
		{"password set through PUT", false, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"password": "brand new password"}}
		}, true},
		{"deletion", false, func(id string) webtest.Request {
			return webtest.Request{Method: "DELETE", Path: "/api/users/" + id}
		}, true},
		{"role change", false, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"roles": []string{"spare"}}}
		}, true},
		{"email change by an admin", false, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"email": id + "@new.example.com"}}
		}, true},
		{"email change by the user", true, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"email": id + "@new.example.com"}}
		}, true},
		{"same roles again", false, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"roles": []string{"author"}}}
		}, false},
		{"name change", false, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"name": "New Name", "theme": "dark"}}
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			target := e.newID("u")
			e.AddUser(t, target, "author")
			s1, s2 := e.Token(t, target), e.Token(t, target)
			other := e.Token(t, "vic")
			admin := e.Token(t, "alice")
			req := c.req(target)
			req.Token = admin
			if c.self {
				req.Token = s1
			}
			w := e.do(t, req)
			if w.Code != 200 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if got := e.sessionCount(t, s1, s2); c.wantRevoked == (got != 0) {
				t.Errorf("%d of the user's 2 session files left", got)
			}
			if c.wantRevoked == (e.valid(t, s1) || e.valid(t, s2)) {
				t.Errorf("tokens still valid: %v %v", e.valid(t, s1), e.valid(t, s2))
			}
			if !e.valid(t, other) || (!c.self && !e.valid(t, admin)) {
				t.Error("another user's session ended")
			}
			var resp struct {
				Token string `json:"token"`
			}
			webtest.DecodeJSON(t, w, &resp)
			if c.self != (resp.Token != "") {
				t.Fatalf("fresh token = %q for self=%v", resp.Token, c.self)
			}
			if c.self && !e.valid(t, resp.Token) {
				t.Error("the fresh session does not work")
			}
		})
	}
}

// A cookie session that changes its own password gets the fresh token as its cookie.
func TestSelfPasswordChangeReissuesCookie(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.Token(t, "ann")
	w := e.do(t, webtest.Request{Method: "POST", Path: "/api/users/ann/password",
		Header:  http.Header{"Origin": {"http://example.com"}},
		Cookies: []*http.Cookie{{Name: "cms_session", Value: tok}},
		Body:    map[string]any{"currentPassword": "correct horse battery staple", "newPassword": "brand new password"}})
	var resp users.PasswordResponse
	webtest.DecodeJSON(t, w, &resp)
	if w.Code != 200 || !resp.Success || resp.Token == "" {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	var ck *http.Cookie
	for _, c := range w.Result().Cookies() {
		if c.Name == "cms_session" {
			ck = c
		}
	}
	if ck == nil || ck.Value != resp.Token || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode {
		t.Errorf("cookie = %+v", ck)
	}
	if e.valid(t, tok) {
		t.Error("old session survives")
	}
}
