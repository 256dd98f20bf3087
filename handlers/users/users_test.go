package users_test

import (
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cms/content/frontmatter"
	"cms/content/password"
	"cms/handlers/auth/authtest"
	"cms/handlers/users"
	"cms/handlers/web/webtest"
)

func TestListAndGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.Token(t, "vic")
	w := e.do(t, webtest.Request{Path: "/api/users", Token: tok})
	var list struct{ Data []users.View }
	webtest.DecodeJSON(t, w, &list)
	var ids []string
	for _, u := range list.Data {
		ids = append(ids, u.ID)
	}
	if w.Code != 200 || !slices.Equal(ids, []string{"alice", "ann", "vic"}) {
		t.Fatalf("list = %d %s", w.Code, w.Body)
	}
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q", got)
	}
	// vic has a session, so the list shows when vic last signed in; the file is not rewritten.
	for _, u := range list.Data {
		if (u.ID == "vic") != (u.LastLogin != "") {
			t.Errorf("%s lastLogin = %q", u.ID, u.LastLogin)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(e.Dir, "users/vic.yaml")); strings.Contains(string(b), "last_login") {
		t.Errorf("a login wrote the user file: %s", b)
	}

	cases := []struct {
		name, path, token string
		wantStatus        int
		wantCode, wantID  string
	}{
		{"other user", "/api/users/alice", tok, 200, "", "alice"},
		{"self without users:view", "/api/users/ann", e.Token(t, "ann"), 200, "", "ann"},
		{"me alias", "/api/users/me", e.Token(t, "ann"), 200, "", "ann"},
		{"missing", "/api/users/nobody", tok, 404, "NOT_FOUND", ""},
		{"invalid id", "/api/users/bad.id", tok, 400, "BAD_REQUEST", ""},
		{"unknown subpath", "/api/users/alice/avatar", tok, 404, "NOT_FOUND", ""},
		{"PATCH", "/api/users/alice", tok, 405, "METHOD_NOT_ALLOWED", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			method := ""
			if c.name == "PATCH" {
				method = "PATCH"
			}
			w := e.do(t, webtest.Request{Method: method, Path: c.path, Token: c.token})
			if c.wantCode != "" {
				wantError(t, w, c.wantStatus, c.wantCode)
				return
			}
			var got struct{ Data users.View }
			webtest.DecodeJSON(t, w, &got)
			if w.Code != c.wantStatus || got.Data.ID != c.wantID || got.Data.Email != c.wantID+"@example.com" || len(got.Data.Roles) != 1 {
				t.Errorf("got %d %s", w.Code, w.Body)
			}
		})
	}
}

func TestMeAndCapabilities(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.Token(t, "ann")
	w := e.do(t, webtest.Request{Path: "/api/users/me", Token: tok})
	var me struct{ Data map[string]any }
	webtest.DecodeJSON(t, w, &me)
	if me.Data["id"] != "ann" || me.Data["theme"] != "light" || me.Data["createdAt"] != "2026-05-01T00:00:00.000Z" {
		t.Errorf("me = %s", w.Body)
	}
	w = e.do(t, webtest.Request{Path: "/api/users/capabilities", Token: tok})
	var caps struct{ Data users.Capabilities }
	webtest.DecodeJSON(t, w, &caps)
	if caps.Data.Capabilities["entries:view"] || caps.Data.Capabilities["users:view"] || len(caps.Data.Capabilities) != 75 { // 15 resources (tokens, git and the four SEO ones included) x 5 actions
		t.Errorf("capabilities = %v: a scoped grant must not show as global", caps.Data.Capabilities)
	}
	blog, pages := caps.Data.Scopes["entries"]["blog"], caps.Data.Scopes["entries"]["pages"]
	if !blog["view"] || !blog["edit"] || blog["publish"] || blog["delete"] || pages["view"] {
		t.Errorf("scopes = %v", caps.Data.Scopes)
	}
	w = e.do(t, webtest.Request{Path: "/api/users/capabilities", Token: e.Token(t, "alice")})
	webtest.DecodeJSON(t, w, &caps)
	if !caps.Data.Capabilities["users:delete"] || !caps.Data.Scopes["entries"]["pages"]["publish"] {
		t.Errorf("admin capabilities = %s", w.Body)
	}
}

func TestCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	valid := func(mod func(m map[string]any)) map[string]any {
		m := map[string]any{"id": "newbie", "email": "New@Example.com", "name": "Newbie", "password": "twelve chars", "roles": []string{"author"}}
		if mod != nil {
			mod(m)
		}
		return m
	}
	bad := []struct {
		name   string
		body   any
		field  string
		status int
		code   string
	}{
		{"bad email", valid(func(m map[string]any) { m["email"] = "not an email" }), "email", 422, "VALIDATION_ERROR"},
		{"missing email", valid(func(m map[string]any) { delete(m, "email") }), "email", 422, "VALIDATION_ERROR"},
		{"blank name", valid(func(m map[string]any) { m["name"] = "  " }), "name", 422, "VALIDATION_ERROR"},
		{"short password", valid(func(m map[string]any) { m["password"] = "elevenchars" }), "password", 422, "VALIDATION_ERROR"},
		{"long password", valid(func(m map[string]any) { m["password"] = strings.Repeat("x", 129) }), "password", 422, "VALIDATION_ERROR"},
		{"missing password", valid(func(m map[string]any) { delete(m, "password") }), "password", 422, "VALIDATION_ERROR"},
		{"numeric password", valid(func(m map[string]any) { m["password"] = 123456789012 }), "password", 422, "VALIDATION_ERROR"},
		{"unknown role", valid(func(m map[string]any) { m["roles"] = []string{"wizard"} }), "roles", 422, "VALIDATION_ERROR"},
		{"bad role handle", valid(func(m map[string]any) { m["roles"] = []string{"Admin"} }), "roles", 422, "VALIDATION_ERROR"},
		{"repeated role", valid(func(m map[string]any) { m["roles"] = []string{"author", "author"} }), "roles", 422, "VALIDATION_ERROR"},
		{"roles not a list", valid(func(m map[string]any) { m["roles"] = "author" }), "roles", 422, "VALIDATION_ERROR"},
		{"bad id", valid(func(m map[string]any) { m["id"] = "../x" }), "id", 422, "VALIDATION_ERROR"},
		{"reserved id", valid(func(m map[string]any) { m["id"] = "me" }), "id", 422, "VALIDATION_ERROR"},
		{"bad theme", valid(func(m map[string]any) { m["theme"] = "neon" }), "theme", 422, "VALIDATION_ERROR"},
		{"hash smuggled in", valid(func(m map[string]any) { m["password_hash"] = "scrypt:00:00" }), "password_hash", 422, "VALIDATION_ERROR"},
		{"array body", []any{}, "", 422, "VALIDATION_ERROR"},
		{"malformed", `{"id":`, "", 400, "BAD_REQUEST"},
		{"empty", ``, "", 400, "BAD_REQUEST"},
		{"duplicate id", valid(func(m map[string]any) { m["id"] = "vic" }), "", 409, "CONFLICT"},
		{"duplicate email", valid(func(m map[string]any) { m["email"] = " VIC@example.com" }), "", 409, "CONFLICT"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := e.do(t, webtest.Request{Method: "POST", Path: "/api/users", Token: admin, Body: c.body})
			got := wantError(t, w, c.status, c.code)
			if c.field != "" && len(got.Error.Fields[c.field]) == 0 {
				t.Errorf("no message for %s: %s", c.field, w.Body)
			}
		})
	}
	t.Run("created", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Method: "POST", Path: "/api/users", Token: admin, Body: valid(nil)})
		if w.Code != 201 {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		var got struct{ Data users.View }
		webtest.DecodeJSON(t, w, &got)
		want := users.View{ID: "newbie", Email: "new@example.com", Name: "Newbie", Roles: []string{"author"}, CreatedAt: "2026-06-01T12:00:00.000Z"}
		if got.Data.ID != want.ID || got.Data.Email != want.Email || got.Data.CreatedAt != want.CreatedAt || !slices.Equal(got.Data.Roles, want.Roles) {
			t.Errorf("created = %+v, want %+v", got.Data, want)
		}
		raw, err := os.ReadFile(filepath.Join(e.Dir, "users/newbie.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := frontmatter.ParseYAMLMap(raw, 1)
		if err != nil {
			t.Fatal(err)
		}
		hash, _ := m.String("password_hash")
		if !password.Verify("twelve chars", hash) {
			t.Errorf("stored hash does not verify: %s", raw)
		}
		if fi, _ := os.Stat(filepath.Join(e.Dir, "users/newbie.yaml")); fi.Mode().Perm() != 0o600 {
			t.Errorf("user file mode %v", fi.Mode().Perm())
		}
	})
	t.Run("generated id", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Method: "POST", Path: "/api/users", Token: admin,
			Body: map[string]any{"email": "anon@example.com", "name": "Anon", "password": "twelve chars"}})
		var got struct{ Data users.View }
		webtest.DecodeJSON(t, w, &got)
		if w.Code != 201 || len(got.Data.ID) != 36 || got.Data.Roles == nil {
			t.Fatalf("got %d %s", w.Code, w.Body)
		}
		if _, err := os.Stat(filepath.Join(e.Dir, "users", got.Data.ID+".yaml")); err != nil {
			t.Error(err)
		}
	})
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	cases := []struct {
		name       string
		user       string // the caller
		target     string // "" = a fresh author
		body       any
		wantStatus int
		wantCode   string
		check      func(t *testing.T, v users.View)
	}{
		{"admin renames", "alice", "", map[string]any{"name": "Renamed", "theme": "dark"}, 200, "", func(t *testing.T, v users.View) {
			if v.Name != "Renamed" || v.Theme != "dark" || !slices.Equal(v.Roles, []string{"author"}) {
				t.Errorf("view = %+v", v)
			}
		}},
		{"admin changes roles", "alice", "", map[string]any{"roles": []string{"viewer", "spare"}}, 200, "", func(t *testing.T, v users.View) {
			if !slices.Equal(v.Roles, []string{"viewer", "spare"}) {
				t.Errorf("roles = %v", v.Roles)
			}
		}},
		{"the whole object back, id included", "alice", "", map[string]any{"name": "N", "email": "n@example.com"}, 200, "", nil},
		{"self edits profile", "self", "", map[string]any{"name": "Me", "email": "me2@example.com", "theme": "light"}, 200, "", nil},
		{"self edits roles", "self", "", map[string]any{"roles": []string{"admin"}}, 403, "AUTHORIZATION_ERROR", nil},
		{"self edits password", "self", "", map[string]any{"password": "a new long password"}, 403, "AUTHORIZATION_ERROR", nil},
		{"other without users:edit", "vic", "", map[string]any{"name": "x"}, 403, "AUTHORIZATION_ERROR", nil},
		{"unknown role", "alice", "", map[string]any{"roles": []string{"ghost"}}, 422, "VALIDATION_ERROR", nil},
		{"bad email", "alice", "", map[string]any{"email": "nope"}, 422, "VALIDATION_ERROR", nil},
		{"weak password", "alice", "", map[string]any{"password": "short"}, 422, "VALIDATION_ERROR", nil},
		{"unknown field", "alice", "", map[string]any{"nickname": "x"}, 422, "VALIDATION_ERROR", nil},
		{"id change", "alice", "", map[string]any{"id": "other"}, 422, "VALIDATION_ERROR", nil},
		{"email taken", "alice", "", map[string]any{"email": "vic@example.com"}, 409, "CONFLICT", nil},
		{"missing user", "alice", "ghost", map[string]any{"name": "x"}, 404, "NOT_FOUND", nil},
		{"invalid id", "alice", "a%20b", map[string]any{"name": "x"}, 400, "BAD_REQUEST", nil},
		{"not JSON", "alice", "", "name=x", 400, "BAD_REQUEST", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			target := c.target
			if target == "" {
				target = e.newID("u")
				e.AddUser(t, target, "author")
			}
			tok := admin
			switch c.user {
			case "self":
				tok = e.Token(t, target)
			case "vic":
				tok = e.Token(t, "vic")
			}
			if c.name == "the whole object back, id included" {
				c.body.(map[string]any)["id"] = target
			}
			before := readOrEmpty(e.Dir, "users/"+target+".yaml")
			w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/users/" + target, Token: tok, Body: c.body})
			if c.wantCode != "" {
				got := wantError(t, w, c.wantStatus, c.wantCode)
				if c.name == "self edits roles" && got.Error.Message != "Users may only update their own profile details" {
					t.Errorf("message = %q", got.Error.Message)
				}
				if after := readOrEmpty(e.Dir, "users/"+target+".yaml"); after != before {
					t.Errorf("refused update changed the file")
				}
				return
			}
			if w.Code != c.wantStatus {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			var got users.UpdateResponse
			webtest.DecodeJSON(t, w, &got)
			if c.check != nil {
				c.check(t, got.Data)
			}
			u, err := e.Store.User(target)
			if err != nil || u.Name != got.Data.Name || u.Email != got.Data.Email || u.PasswordHash != authtest.PasswordHash {
				t.Errorf("stored user = %+v, %v", u, err)
			}
		})
	}
}

func TestDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	wantError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/alice", Token: admin}), 403, "CANNOT_DELETE_SELF")
	wantError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/me", Token: admin}), 403, "CANNOT_DELETE_SELF")
	wantError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/ghost", Token: admin}), 404, "NOT_FOUND")
	wantError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/a.b", Token: admin}), 400, "BAD_REQUEST")
	if !e.valid(t, admin) {
		t.Fatal("refused self-deletion ended the session")
	}
	w := e.do(t, webtest.Request{Method: "DELETE", Path: "/api/users/ann", Token: admin})
	if w.Code != 200 || w.Body.String() != `{"success":true}` {
		t.Fatalf("delete = %d %s", w.Code, w.Body)
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "users/ann.yaml")); !os.IsNotExist(err) {
		t.Errorf("user file still there: %v", err)
	}
}

// Cookie sessions must come from the same origin to change anything; Bearer clients are exempt.
func TestCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name       string
		header     http.Header
		cookie     bool
		wantStatus int
	}{
		{"cookie, cross-origin Origin", http.Header{"Origin": {"https://evil.example"}}, true, 403},
		{"cookie, cross-origin Referer", http.Header{"Referer": {"https://evil.example/page"}}, true, 403},
		{"cookie, no Origin or Referer", nil, true, 403},
		{"cookie, Origin null", http.Header{"Origin": {"null"}}, true, 403},
		{"cookie, same origin", http.Header{"Origin": {"http://example.com"}}, true, 200},
		{"cookie, same-origin Referer", http.Header{"Referer": {"http://example.com/cp/users"}}, true, 200},
		{"bearer, cross-origin", http.Header{"Origin": {"https://evil.example"}}, false, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			target := e.newID("u")
			e.AddUser(t, target, "author")
			tok := e.Token(t, "alice")
			req := webtest.Request{Method: "PUT", Path: "/api/users/" + target, Header: c.header, Body: map[string]any{"name": "Pwned"}}
			if c.cookie {
				req.Cookies = []*http.Cookie{{Name: "cms_session", Value: tok}}
			} else {
				req.Token = tok
			}
			w := e.do(t, req)
			if c.wantStatus == 403 {
				wantError(t, w, 403, "CSRF_REJECTED")
				if u, _ := e.Store.User(target); u.Name == "Pwned" {
					t.Error("cross-site request changed the user")
				}
				return
			}
			if w.Code != c.wantStatus {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
		})
	}
	// Reads with a cookie need no Origin.
	w := e.do(t, webtest.Request{Path: "/api/users", Cookies: []*http.Cookie{{Name: "cms_session", Value: e.Token(t, "alice")}}})
	if w.Code != 200 {
		t.Errorf("cookie GET = %d", w.Code)
	}
}

func TestNewChecksDeps(t *testing.T) {
	t.Parallel()
	if _, err := users.New(users.Deps{}); err == nil || !strings.Contains(err.Error(), "Store") || !strings.Contains(err.Error(), "Auth") {
		t.Errorf("New(empty) = %v", err)
	}
}

// Login answers with the user as /api/users/{id} shows it: one view of a user, theme and last
// login included.
func TestLoginShowsTheSameView(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	if w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/users/me", Token: admin, Body: map[string]any{"theme": "dark"}}); w.Code != 200 {
		t.Fatalf("set theme: %d %s", w.Code, w.Body)
	}
	w := e.do(t, webtest.Request{Method: "POST", Path: "/api/auth/login", Body: map[string]any{"email": "alice@example.com", "password": authtest.Password}})
	var login struct {
		Token string
		User  map[string]any
	}
	webtest.DecodeJSON(t, w, &login)
	if w.Code != 200 {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	var got struct{ Data map[string]any }
	webtest.DecodeJSON(t, e.do(t, webtest.Request{Path: "/api/users/alice", Token: login.Token}), &got)
	if !reflect.DeepEqual(login.User, got.Data) || got.Data["theme"] != "dark" || got.Data["lastLogin"] == nil {
		t.Errorf("login shows the user as\n%v\n/api/users/alice as\n%v", login.User, got.Data)
	}
}
