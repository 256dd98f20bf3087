package users_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

// privilegeRoles adds a user manager that is no administrator (users:*, entries without publish)
// and roles within and beyond what it holds.
const privilegeRoles = `
-- resources/roles/usermgr.yaml --
handle: usermgr
display: User manager
permissions:
  - resource: users
    actions: [view, create, edit, delete]
  - resource: entries
    actions: [view, create, edit]
-- resources/roles/publisher.yaml --
handle: publisher
display: Publisher
permissions:
  - resource: entries
    actions: [view, create, edit, publish]
-- resources/roles/helper.yaml --
handle: helper
display: Helper
permissions:
  - resource: users
    actions: [view]
  - resource: entries
    scope: blog
    actions: [view, edit]
-- resources/roles/blogmgr.yaml --
handle: blogmgr
display: Blog user manager
permissions:
  - resource: users
    actions: [view, edit]
  - resource: entries
    scope: blog
    actions: [view]
`

// Nobody hands on a permission they do not hold: a user manager without admin cannot grant
// itself or anyone admin or a role with more permissions, cannot create or widen a role beyond
// its own, and cannot take over (rename, re-mail, reset, delete) a user who holds more than it
// does. An administrator can do all of it. Every refusal is a 403 that writes nothing.
func TestLeastPrivilege(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, privilegeRoles)
	role := func(h string, perms ...content.Permission) string {
		h = e.newID(h)
		if err := e.Store.CreateRole(&content.Role{Handle: h, Display: h, Permissions: perms}); err != nil {
			t.Fatal(err)
		}
		return h
	}
	grant := func(res, scope string, actions ...string) map[string]any {
		m := map[string]any{"resource": res, "actions": actions}
		if scope != "" {
			m["scope"] = scope
		}
		return m
	}
	putRoles := func(roles ...string) func(string) webtest.Request {
		return func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"roles": roles}}
		}
	}
	newUser := func(roles ...string) func(string) webtest.Request {
		return func(string) webtest.Request {
			id := e.newID("new")
			return webtest.Request{Method: "POST", Path: "/api/users", Body: map[string]any{"id": id, "email": id + "@example.com", "name": "New", "password": "a long enough password", "roles": roles}}
		}
	}
	newRole := func(perms ...any) func(string) webtest.Request {
		return func(string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/roles", Body: map[string]any{"handle": e.newID("r"), "display": "R", "permissions": perms}}
		}
	}
	putRole := func(h string, perms ...any) func(string) webtest.Request {
		return func(string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/roles/" + h, Body: map[string]any{"display": "Changed", "permissions": append([]any{}, perms...)}}
		}
	}
	cases := []struct {
		name     string
		caller   string   // role of a fresh caller
		target   []string // roles of a fresh target user; nil: the caller is the target
		req      func(target string) webtest.Request
		want     int
		wantText string // part of the 403 message
	}{
		// Roles for oneself.
		{"grant self admin", "usermgr", nil, putRoles("usermgr", "admin"), 403, "admin role"},
		{"grant self a role with publish", "usermgr", nil, putRoles("usermgr", "publisher"), 403, "entries:publish"},
		{"keep own roles", "usermgr", nil, putRoles("usermgr"), 200, ""},
		{"drop own roles to a lesser one", "usermgr", nil, putRoles("helper"), 200, ""},
		// Roles for others.
		{"grant another admin", "usermgr", []string{"author"}, putRoles("admin"), 403, "admin role"},
		{"grant another a role with publish", "usermgr", []string{"author"}, putRoles("author", "publisher"), 403, "entries:publish"},
		{"grant another a lesser role", "usermgr", []string{"author"}, putRoles("helper", "author"), 200, ""},
		{"create a user with admin", "usermgr", []string{}, newUser("admin"), 403, "admin role"},
		{"create a user with publish", "usermgr", []string{}, newUser("publisher"), 403, "entries:publish"},
		{"create a user with a role outside its scope", "usermgr", []string{}, newUser("spare"), 403, "forms:view"},
		{"create a user with lesser roles", "usermgr", []string{}, newUser("author", "helper"), 201, ""},
		// Taking over a user who holds more.
		{"rename an administrator", "usermgr", []string{"admin"}, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"name": "Taken"}}
		}, 403, "administrator"},
		{"re-mail a publisher", "usermgr", []string{"publisher"}, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"email": "mine@example.com"}}
		}, 403, "entries:publish"},
		{"reset a publisher's password through PUT", "usermgr", []string{"publisher"}, func(id string) webtest.Request {
			return webtest.Request{Method: "PUT", Path: "/api/users/" + id, Body: map[string]any{"password": "a password I know"}}
		}, 403, "entries:publish"},
		{"reset an administrator's password", "usermgr", []string{"admin"}, func(id string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/users/" + id + "/password", Body: map[string]any{"newPassword": "a password I know"}}
		}, 403, "administrator"},
		{"demote a publisher", "usermgr", []string{"publisher"}, putRoles("author"), 403, "entries:publish"},
		{"delete an administrator", "usermgr", []string{"admin"}, func(id string) webtest.Request {
			return webtest.Request{Method: "DELETE", Path: "/api/users/" + id}
		}, 403, "administrator"},
		{"delete a publisher", "usermgr", []string{"publisher"}, func(id string) webtest.Request {
			return webtest.Request{Method: "DELETE", Path: "/api/users/" + id}
		}, 403, "entries:publish"},
		{"reset a lesser user's password", "usermgr", []string{"author"}, func(id string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/users/" + id + "/password", Body: map[string]any{"newPassword": "another long password"}}
		}, 200, ""},
		{"delete a lesser user", "usermgr", []string{"helper"}, func(id string) webtest.Request {
			return webtest.Request{Method: "DELETE", Path: "/api/users/" + id}
		}, 200, ""},
		// Roles.
		{"create a role with publish", "usermgr", []string{}, newRole(grant("entries", "", "view", "publish")), 403, "entries:publish"},
		{"create a role with settings", "usermgr", []string{}, newRole(grant("settings", "", "edit")), 403, "settings:edit"},
		{"create a role unscoped from a scoped grant", "blogmgr", []string{}, newRole(grant("entries", "", "view")), 403, "entries:view"},
		{"create a role in its own scope", "blogmgr", []string{}, newRole(grant("entries", "blog", "view")), 201, ""},
		{"create a role within its own", "usermgr", []string{}, newRole(grant("entries", "blog", "view", "edit"), grant("users", "", "view")), 201, ""},
		{"widen a role", "usermgr", []string{}, putRole(role("mine", content.Permission{Resource: "users", Actions: []string{"view"}}), grant("users", "", "view"), grant("entries", "", "publish")), 403, "entries:publish"},
		{"cut down a role above it", "usermgr", []string{}, putRole(role("above", content.Permission{Resource: "settings", Actions: []string{"edit"}})), 403, "settings:edit"},
		{"change a role within its own", "usermgr", []string{}, putRole(role("mine", content.Permission{Resource: "users", Actions: []string{"view"}}), grant("entries", "", "view")), 200, ""},
		// An administrator holds the site and may hand on anything.
		{"admin grants admin", "admin", []string{"author"}, putRoles("admin", "publisher"), 200, ""},
		{"admin grants a role it lacks", "admin", []string{"author"}, putRoles("spare"), 200, ""},
		{"admin creates a role beyond its own", "admin", []string{}, newRole(grant("settings", "", "edit")), 201, ""},
		{"admin changes a role beyond its own", "admin", []string{}, putRole(role("above", content.Permission{Resource: "settings", Actions: []string{"edit"}})), 200, ""},
		{"admin resets an administrator's password", "admin", []string{"admin"}, func(id string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/users/" + id + "/password", Body: map[string]any{"newPassword": "another long password"}}
		}, 200, ""},
		{"admin deletes another administrator", "admin", []string{"admin"}, func(id string) webtest.Request {
			return webtest.Request{Method: "DELETE", Path: "/api/users/" + id}
		}, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			caller := e.newID("caller")
			e.AddUser(t, caller, c.caller)
			target := caller
			if c.target != nil {
				target = e.newID("target")
				e.AddUser(t, target, c.target...)
			}
			req := c.req(target)
			req.Token = e.Token(t, caller)
			file := touched(req)
			before := readOrEmpty(e.Dir, file)
			w := e.do(t, req)
			if c.want != 403 {
				if w.Code != c.want {
					t.Fatalf("status = %d, want %d: %s", w.Code, c.want, w.Body)
				}
				return
			}
			got := wantError(t, w, 403, "AUTHORIZATION_ERROR")
			if !strings.Contains(got.Error.Message, c.wantText) {
				t.Errorf("message %q does not name %q", got.Error.Message, c.wantText)
			}
			if readOrEmpty(e.Dir, file) != before {
				t.Errorf("the refused call changed %s", file)
			}
		})
	}
}

// The last user holding the admin role can neither lose it nor be deleted, even when two
// administrators remove each other at the same moment: the site always keeps an administrator.
func TestLastAdministrator(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // alice is the only administrator
	admin := e.Token(t, "alice")
	for _, path := range []string{"/api/users/me", "/api/users/alice"} {
		w := e.do(t, webtest.Request{Method: "PUT", Path: path, Token: admin, Body: map[string]any{"roles": []string{"viewer"}}})
		if got := wantError(t, w, 409, "CONFLICT"); !strings.Contains(got.Error.Message, "last user with the admin role") {
			t.Errorf("message = %q", got.Error.Message)
		}
	}
	if u, _ := e.Store.User("alice"); !slices.Equal(u.Roles, []string{"admin"}) {
		t.Fatalf("alice's roles = %v", u.Roles)
	}
	// With a second administrator, either may step down.
	e.AddUser(t, "bea", "admin")
	if w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/users/bea", Token: e.Token(t, "bea"), Body: map[string]any{"roles": []string{"admin", "viewer"}}}); w.Code != 200 {
		t.Fatalf("keeping admin: %d %s", w.Code, w.Body)
	}

	for i := range 12 {
		e := newEnv(t)
		a, b := e.newID("adm"), e.newID("adm")
		e.AddUser(t, a, "admin")
		e.AddUser(t, b, "admin")
		ta, tb := e.Token(t, a), e.Token(t, b)
		if _, _, err := e.Store.UpdateUser("alice", "", func(u *content.User) error { u.Roles = []string{"viewer"}; return nil }); err != nil {
			t.Fatal(err)
		}
		remove := func(tok, other string) webtest.Request {
			if i%2 == 0 {
				return webtest.Request{Method: "DELETE", Path: "/api/users/" + other, Token: tok}
			}
			return webtest.Request{Method: "PUT", Path: "/api/users/" + other, Token: tok, Body: map[string]any{"roles": []string{"viewer"}}}
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for _, r := range []webtest.Request{remove(ta, b), remove(tb, a)} {
			wg.Go(func() {
				<-start
				w := e.do(t, r)
				// When the other went first the caller is signed out (401) or no longer an
				// administrator (403), or the other is the last one left (409).
				switch w.Code {
				case http.StatusOK, http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict:
				default:
					t.Errorf("%s %s = %d %s", r.Method, r.Path, w.Code, w.Body)
				}
			})
		}
		close(start)
		wg.Wait()
		admins := 0
		for _, u := range e.Store.Users() {
			if slices.Contains(u.Roles, "admin") {
				admins++
			}
		}
		if admins != 1 {
			t.Errorf("round %d (%s): %d administrators left, want 1", i, map[bool]string{true: "delete", false: "demote"}[i%2 == 0], admins)
		}
	}
}
