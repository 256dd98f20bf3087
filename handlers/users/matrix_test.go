package users_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

// endpoint is one protected endpoint of the auth and users groups, with the roles that lack and
// hold its permission and a request builder that may prepare its own target.
type endpoint struct {
	name        string
	without     string // role without the permission; "" when any signed-in user may call it
	with        string // role with the permission
	wantSuccess int
	req         func(t *testing.T, e *testEnv) webtest.Request
}

// touched returns the site file a write endpoint changes, so a refused call can be checked to
// have left it alone.
func touched(req webtest.Request) string {
	parts := strings.Split(strings.Trim(req.Path, "/"), "/") // api, users|roles, id, ...
	switch {
	case req.Method == "" || req.Method == http.MethodGet || parts[1] == "auth":
		return ""
	case parts[1] == "users" && len(parts) == 2:
		return "users/" + req.Body.(map[string]any)["id"].(string) + ".yaml"
	case parts[1] == "users":
		return "users/" + parts[2] + ".yaml"
	case len(parts) == 2:
		return "resources/roles/" + req.Body.(map[string]any)["handle"].(string) + ".yaml"
	}
	return "resources/roles/" + parts[2] + ".yaml"
}

func endpoints() []endpoint {
	target := func(t *testing.T, e *testEnv) string { id := e.newID("target"); e.AddUser(t, id, "author"); return id }
	role := func(t *testing.T, e *testEnv) string {
		h := e.newID("role")
		if err := e.Store.CreateRole(&content.Role{Handle: h, Display: h, Permissions: []content.Permission{{Resource: "forms", Actions: []string{"view"}}}}); err != nil {
			t.Fatal(err)
		}
		return h
	}
	return []endpoint{
		{"GET /api/users", "author", "viewer", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Path: "/api/users"}
		}},
		{"POST /api/users", "viewer", "admin", 201, func(t *testing.T, e *testEnv) webtest.Request {
			id := e.newID("new")
			return webtest.Request{Method: "POST", Path: "/api/users", Body: map[string]any{"id": id, "email": id + "@example.com", "name": "New", "password": "a long enough password", "roles": []string{"author"}}}
		}},
		{"GET /api/users/me", "", "author", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Path: "/api/users/me"}
		}},
		{"GET /api/users/capabilities", "", "author", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Path: "/api/users/capabilities"}
		}},
		{"GET /api/users/{id}", "author", "viewer", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Path: "/api/users/" + target(t, e)}
		}},
		{"PUT /api/users/{id}", "viewer", "admin", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + target(t, e), Body: map[string]any{"name": "Renamed"}}
		}},
		{"DELETE /api/users/{id}", "viewer", "admin", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Method: "DELETE", Path: "/api/users/" + target(t, e)}
		}},
		{"POST /api/users/{id}/password", "viewer", "admin", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/users/" + target(t, e) + "/password", Body: map[string]any{"newPassword": "another long password"}}
		}},
		{"GET /api/roles", "author", "viewer", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Path: "/api/roles"}
		}},
		{"GET /api/roles/{handle}", "author", "viewer", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Path: "/api/roles/spare"}
		}},
		{"POST /api/roles", "viewer", "admin", 201, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/roles", Body: map[string]any{"handle": e.newID("r"), "display": "R", "permissions": []any{map[string]any{"resource": "forms", "actions": []string{"view"}}}}}
		}},
		{"PUT /api/roles/{handle}", "viewer", "admin", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/roles/" + role(t, e), Body: map[string]any{"display": "Changed", "permissions": []any{}}}
		}},
		{"DELETE /api/roles/{handle}", "viewer", "admin", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Method: "DELETE", Path: "/api/roles/" + role(t, e)}
		}},
		{"POST /api/auth/logout", "", "author", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout"}
		}},
		{"GET /api/auth/validate", "", "author", 200, func(t *testing.T, e *testEnv) webtest.Request {
			return webtest.Request{Path: "/api/auth/validate"}
		}},
	}
}

// TestAuthorizationMatrix calls every protected endpoint with no token, an invalid token, an
// expired token, a role without the permission and a role with it: 401, 401, 401, 403, 2xx.
// Nothing may be read or written before the check: a refused write leaves its target alone.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	holders := map[string]string{"admin": "alice", "viewer": "vic", "author": "ann"}
	for _, ep := range endpoints() {
		t.Run(ep.name, func(t *testing.T) {
			t.Parallel()
			cases := []struct {
				name       string
				token      func() string
				wantStatus int
				wantCode   string
			}{
				{"no token", func() string { return "" }, 401, "AUTHENTICATION_ERROR"},
				{"invalid token", func() string { return strings.Repeat("0f", 32) }, 401, "AUTHENTICATION_ERROR"},
				{"expired token", func() string { return e.ExpiredToken(t, holders[ep.with]) }, 401, "AUTHENTICATION_ERROR"},
				{"role without permission", func() string { return e.Token(t, holders[ep.without]) }, 403, "AUTHORIZATION_ERROR"},
				{"role with permission", func() string { return e.Token(t, holders[ep.with]) }, ep.wantSuccess, ""},
			}
			for _, c := range cases {
				if ep.without == "" && c.wantStatus == 403 {
					c.token, c.wantStatus, c.wantCode = func() string { return e.Token(t, "vic") }, ep.wantSuccess, ""
				}
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					req := ep.req(t, e)
					req.Token = c.token()
					file := touched(req)
					before := readOrEmpty(e.Dir, file)
					w := e.do(t, req)
					if w.Code != c.wantStatus {
						t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
					}
					if c.wantCode != "" {
						if got := webtest.DecodeError(t, w).Error.Code; got != c.wantCode {
							t.Errorf("code = %s, want %s", got, c.wantCode)
						}
						if file != "" && readOrEmpty(e.Dir, file) != before {
							t.Errorf("the refused call changed %s", file)
						}
					}
				})
			}
		})
	}
}

func readOrEmpty(dir, file string) string {
	if file == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}
