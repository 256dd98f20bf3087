package users_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/sessions"
	"cms/handlers/auth/authtest"
	"cms/handlers/users"
	"cms/handlers/web/webtest"
)

const tokenSite = `
-- resources/roles/boss.yaml --
handle: boss
permissions:
  - resource: tokens
    actions: [view, create, delete]
  - resource: users
    actions: [view, create]
-- resources/roles/reader.yaml --
handle: reader
permissions:
  - resource: users
    actions: [view]
-- resources/roles/minter.yaml --
handle: minter
permissions:
  - resource: tokens
    actions: [create]
-- resources/roles/admin.yaml --
handle: admin
permissions:
  - resource: users
    actions: [view]
`

type tokenView struct {
	ID, Name, Role, CreatedBy, CreatedAt, ExpiresAt, LastUsedAt, Token string
	Expired                                                            bool
}

func newTokenEnv(t *testing.T) (*authtest.Env, http.Handler) {
	t.Helper()
	env := authtest.New(t, contenttest.WriteSite(t, tokenSite))
	env.AddUser(t, "boss", "boss")
	env.AddUser(t, "min", "minter", "reader")
	h, err := users.New(users.Deps{Store: env.Store, Sessions: env.Sessions, Tokens: env.Sessions,
		Credentials: sessions.NewPasswordValidator(env.Store, 0), Auth: env.Auth, Now: env.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return env, h
}

func createToken(t *testing.T, h http.Handler, session string, body any) (tokenView, int, string) {
	t.Helper()
	w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/tokens", Token: session, Body: body})
	var out struct{ Data tokenView }
	if w.Code == http.StatusCreated {
		webtest.DecodeJSON(t, w, &out)
		if w.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("create: Cache-Control %q, want no-store", w.Header().Get("Cache-Control"))
		}
	}
	return out.Data, w.Code, w.Body.String()
}

// TestTokenLifeCycleOverHTTP: a user creates a token (shown once), the token acts with its role
// only, is listed with its last use and without secrets, expires, and is revoked at once.
func TestTokenLifeCycleOverHTTP(t *testing.T) {
	t.Parallel()
	env, h := newTokenEnv(t)
	boss := env.Token(t, "boss")

	tv, code, body := createToken(t, h, boss, map[string]any{"name": "Site build", "role": "reader", "expiresIn": "2h"})
	if code != http.StatusCreated || !strings.HasPrefix(tv.Token, sessions.APITokenPrefix) || tv.Role != "reader" || tv.CreatedBy != "boss" {
		t.Fatalf("create = %d %s", code, body)
	}
	// The token acts with its role: reading users yes, creating one no.
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/users", Token: tv.Token}); w.Code != http.StatusOK {
		t.Errorf("GET /api/users with the token = %d %s", w.Code, w.Body)
	}
	w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/users", Token: tv.Token,
		Body: map[string]any{"id": "x", "email": "x@example.com", "name": "X", "password": "a very good password"}})
	if w.Code != http.StatusForbidden {
		t.Errorf("POST /api/users with a reader token = %d, want 403", w.Code)
	}
	// Not its creator either: no self-service as boss.
	if w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/users/boss", Token: tv.Token, Body: map[string]any{"name": "Hijacked"}}); w.Code != http.StatusForbidden {
		t.Errorf("PUT /api/users/boss with boss's token = %d, want 403", w.Code)
	}
	// A token does not mint tokens.
	if _, code, body := createToken(t, h, tv.Token, map[string]any{"name": "child", "role": "reader"}); code != http.StatusForbidden {
		t.Errorf("token creating a token = %d %s, want 403", code, body)
	}

	// Listed without secrets, with its last use.
	w = webtest.Do(t, h, webtest.Request{Path: "/api/tokens", Token: boss})
	if w.Code != http.StatusOK || strings.Contains(w.Body.String(), tv.Token[len(tv.Token)-64:]) || strings.Contains(w.Body.String(), `"hash"`) {
		t.Fatalf("list = %d %s", w.Code, w.Body)
	}
	var list struct{ Data []tokenView }
	webtest.DecodeJSON(t, w, &list)
	if len(list.Data) != 1 || list.Data[0].ID != tv.ID || list.Data[0].LastUsedAt == "" || list.Data[0].Token != "" {
		t.Fatalf("list = %s", w.Body)
	}

	// Hashed at rest.
	raw, err := os.ReadFile(filepath.Join(env.Dir, ".sessions", "tokens", "api-tokens.json"))
	if err != nil || strings.Contains(string(raw), tv.Token) || !strings.Contains(string(raw), sessions.HashToken(tv.Token)) {
		t.Fatalf("token file (%v):\n%s", err, raw)
	}

	// Expiry on the injected clock.
	env.Clock.Advance(2 * time.Hour)
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/users", Token: tv.Token}); w.Code != http.StatusUnauthorized {
		t.Errorf("expired token = %d, want 401", w.Code)
	}

	// Revocation, at once.
	boss = env.Token(t, "boss") // the first session expired too
	tv2, code, body := createToken(t, h, boss, map[string]any{"name": "CI", "role": "reader"})
	if code != http.StatusCreated || tv2.ExpiresAt == "" {
		t.Fatalf("create = %d %s", code, body)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/users", Token: tv2.Token}); w.Code != http.StatusOK {
		t.Fatalf("fresh token = %d", w.Code)
	}
	if w := webtest.Do(t, h, webtest.Request{Method: "DELETE", Path: "/api/tokens/" + tv2.ID, Token: boss}); w.Code != http.StatusOK {
		t.Fatalf("revoke = %d %s", w.Code, w.Body)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/users", Token: tv2.Token}); w.Code != http.StatusUnauthorized {
		t.Errorf("revoked token = %d, want 401", w.Code)
	}
	if w := webtest.Do(t, h, webtest.Request{Method: "DELETE", Path: "/api/tokens/" + tv2.ID, Token: boss}); w.Code != http.StatusNotFound {
		t.Errorf("revoke twice = %d, want 404", w.Code)
	}
}

// TestTokenScopeLimits: nobody creates a token stronger than themselves, bad payloads name the
// field, and the endpoints need the tokens permission.
func TestTokenScopeLimits(t *testing.T) {
	t.Parallel()
	env, h := newTokenEnv(t)
	min := env.Token(t, "min") // tokens:create and users:view
	boss := env.Token(t, "boss")
	for _, tc := range []struct {
		session string
		body    any
		status  int
		want    string
	}{
		{min, map[string]any{"name": "x", "role": "boss"}, 403, "permissions you do not"},
		{min, map[string]any{"name": "x", "role": "admin"}, 403, "the admin role"},
		{min, map[string]any{"name": "x", "role": "reader"}, 201, ""},
		{boss, map[string]any{"name": "x", "role": "nope"}, 422, `does not exist`},
		{boss, map[string]any{"name": "", "role": "reader"}, 422, `"name"`},
		{boss, map[string]any{"name": "x", "role": "reader", "expiresIn": "400d"}, 422, `"expiresIn"`},
		{boss, map[string]any{"name": "x", "role": "reader", "expiresIn": "soon"}, 422, `"expiresIn"`},
		{boss, map[string]any{"name": "x", "role": "reader", "admin": true}, 422, `"admin"`},
		{"", map[string]any{"name": "x", "role": "reader"}, 401, ""},
	} {
		_, code, body := createToken(t, h, tc.session, tc.body)
		if code != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("create %v = %d %s; want %d with %s", tc.body, code, body, tc.status, tc.want)
		}
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/tokens", Token: min}); w.Code != http.StatusForbidden {
		t.Errorf("list without tokens:view = %d, want 403", w.Code)
	}
	if w := webtest.Do(t, h, webtest.Request{Method: "DELETE", Path: "/api/tokens/0123456789abcdef", Token: min}); w.Code != http.StatusForbidden {
		t.Errorf("revoke without tokens:delete = %d, want 403", w.Code)
	}
	if w := webtest.Do(t, h, webtest.Request{Method: "DELETE", Path: "/api/tokens/..%2Fx", Token: boss}); w.Code != http.StatusBadRequest {
		t.Errorf("revoke of a malformed id = %d, want 400", w.Code)
	}
}
