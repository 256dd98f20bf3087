package users_test

import (
	"testing"

	"cms/content/password"
	"cms/handlers/auth/authtest"
	"cms/handlers/web/webtest"
)

func TestChangePasswordErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name, caller, path string
		body               any
		wantStatus         int
		wantCode           string
		wantMessage        string
	}{
		{"wrong current password", "ann", "/api/users/ann/password", map[string]any{"currentPassword": "not it at all", "newPassword": "brand new password"}, 401, "AUTHENTICATION_ERROR", "Current password is incorrect"},
		{"missing current password", "ann", "/api/users/ann/password", map[string]any{"newPassword": "brand new password"}, 422, "VALIDATION_ERROR", ""},
		{"weak new password", "ann", "/api/users/me/password", map[string]any{"currentPassword": authtest.Password, "newPassword": "short"}, 422, "VALIDATION_ERROR", ""},
		{"unknown field", "ann", "/api/users/me/password", map[string]any{"currentPassword": authtest.Password, "newPassword": "brand new password", "x": 1}, 422, "VALIDATION_ERROR", ""},
		{"someone else without users:edit", "vic", "/api/users/ann/password", map[string]any{"newPassword": "brand new password"}, 403, "AUTHORIZATION_ERROR", ""},
		{"missing user", "alice", "/api/users/ghost/password", map[string]any{"newPassword": "brand new password"}, 404, "NOT_FOUND", ""},
		{"invalid id", "alice", "/api/users/a.b/password", map[string]any{"newPassword": "brand new password"}, 400, "BAD_REQUEST", ""},
		{"not JSON", "alice", "/api/users/ann/password", "{", 400, "BAD_REQUEST", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := e.do(t, webtest.Request{Method: "POST", Path: c.path, Token: e.Token(t, c.caller), Body: c.body})
			got := wantError(t, w, c.wantStatus, c.wantCode)
			if c.wantMessage != "" && got.Error.Message != c.wantMessage {
				t.Errorf("message = %q, want %q", got.Error.Message, c.wantMessage)
			}
			if u, _ := e.Store.User("ann"); u.PasswordHash != authtest.PasswordHash {
				t.Error("a refused change rewrote the password")
			}
		})
	}
}

func TestChangePasswordByAdmin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.do(t, webtest.Request{Method: "POST", Path: "/api/users/ann/password", Token: e.Token(t, "alice"),
		Body: map[string]any{"newPassword": "the admin chose this"}})
	if w.Code != 200 || w.Body.String() != `{"success":true}` {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	u, err := e.Store.User("ann")
	if err != nil || !password.Verify("the admin chose this", u.PasswordHash) {
		t.Errorf("new password not stored: %v", err)
	}
	authtest.Login(t, e.auth, "ann@example.com", "the admin chose this")
}
