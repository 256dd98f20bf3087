package users_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

func TestRoles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	perm := func(resource string, actions ...string) map[string]any {
		return map[string]any{"resource": resource, "actions": actions}
	}
	t.Run("list", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Path: "/api/roles", Token: e.Token(t, "vic")})
		var got struct{ Data []content.Role }
		webtest.DecodeJSON(t, w, &got)
		var handles []string
		for _, r := range got.Data {
			handles = append(handles, r.Handle)
		}
		if w.Code != 200 || !strings.HasPrefix(strings.Join(handles, ","), "admin,author") {
			t.Errorf("got %d %s", w.Code, w.Body)
		}
	})
	t.Run("get", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Path: "/api/roles/author", Token: admin})
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"scope":"blog"`) {
			t.Errorf("got %d %s", w.Code, w.Body)
		}
		wantError(t, e.do(t, webtest.Request{Path: "/api/roles/ghost", Token: admin}), 404, "NOT_FOUND")
		wantError(t, e.do(t, webtest.Request{Path: "/api/roles/Bad_Handle", Token: admin}), 400, "BAD_REQUEST")
	})
	t.Run("create", func(t *testing.T) {
		t.Parallel()
		body := map[string]any{"handle": "reviewer", "display": "Reviewer", "permissions": []any{perm("entries", "view", "view", "publish"), map[string]any{"resource": "entries", "actions": []string{"edit"}, "scope": "blog"}}}
		w := e.do(t, webtest.Request{Method: "POST", Path: "/api/roles", Token: admin, Body: body})
		if w.Code != 201 {
			t.Fatalf("got %d %s", w.Code, w.Body)
		}
		r, err := e.Store.Role("reviewer")
		if err != nil || len(r.Permissions) != 2 || strings.Join(r.Permissions[0].Actions, ",") != "view,publish" || r.Permissions[1].Scope != "blog" {
			t.Errorf("stored role = %+v, %v", r, err)
		}
		wantError(t, e.do(t, webtest.Request{Method: "POST", Path: "/api/roles", Token: admin, Body: body}), 409, "CONFLICT")
	})
	invalid := []struct {
		name  string
		body  any
		field string
	}{
		{"no handle", map[string]any{"display": "X", "permissions": []any{}}, "handle"},
		{"upper-case handle", map[string]any{"handle": "Bad", "display": "X", "permissions": []any{}}, "handle"},
		{"no display", map[string]any{"handle": "x1", "permissions": []any{}}, "display"},
		{"long display", map[string]any{"handle": "x2", "display": strings.Repeat("d", 121), "permissions": []any{}}, "display"},
		{"no permissions", map[string]any{"handle": "x3", "display": "X"}, "permissions"},
		{"unknown resource", map[string]any{"handle": "x4", "display": "X", "permissions": []any{perm("spaceships", "view")}}, "permissions[0].resource"},
		{"unknown action", map[string]any{"handle": "x5", "display": "X", "permissions": []any{perm("entries", "fly")}}, "permissions[0].actions"},
		{"no actions", map[string]any{"handle": "x6", "display": "X", "permissions": []any{perm("entries")}}, "permissions[0].actions"},
		{"bad scope", map[string]any{"handle": "x7", "display": "X", "permissions": []any{map[string]any{"resource": "entries", "actions": []string{"view"}, "scope": "../x"}}}, "permissions[0].scope"},
		{"extra key in permission", map[string]any{"handle": "x8", "display": "X", "permissions": []any{map[string]any{"resource": "entries", "actions": []string{"view"}, "own": true}}}, "permissions[0].own"},
		{"extra key", map[string]any{"handle": "x9", "display": "X", "permissions": []any{}, "color": "red"}, "color"},
		{"permission not an object", map[string]any{"handle": "x10", "display": "X", "permissions": []any{nil}}, "permissions[0]"},
	}
	for _, c := range invalid {
		t.Run("invalid/"+c.name, func(t *testing.T) {
			t.Parallel()
			got := wantError(t, e.do(t, webtest.Request{Method: "POST", Path: "/api/roles", Token: admin, Body: c.body}), 422, "VALIDATION_ERROR")
			if len(got.Error.Fields[c.field]) == 0 || got.Error.Message != "Role payload is invalid" {
				t.Errorf("error = %+v, want a message for %s", got.Error, c.field)
			}
		})
	}
	t.Run("update keeps the file's other keys", func(t *testing.T) {
		t.Parallel()
		if err := os.WriteFile(filepath.Join(e.Dir, "resources/roles/tagger.yaml"), []byte("handle: tagger\ndisplay: Tagger\nicon: tag\npermissions: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.Store.UpdateRole("tagger", "", func(*content.Role) error { return nil }); err != nil { // let the store see the file
			t.Fatal(err)
		}
		w := e.do(t, webtest.Request{Method: "PUT", Path: "/api/roles/tagger", Token: admin,
			Body: map[string]any{"handle": "tagger", "display": "Tag editor", "permissions": []any{perm("taxonomies", "view", "edit")}}})
		if w.Code != 200 {
			t.Fatalf("got %d %s", w.Code, w.Body)
		}
		raw, _ := os.ReadFile(filepath.Join(e.Dir, "resources/roles/tagger.yaml"))
		if !strings.Contains(string(raw), "icon: tag") || !strings.Contains(string(raw), "Tag editor") {
			t.Errorf("file = %s", raw)
		}
		wantError(t, e.do(t, webtest.Request{Method: "PUT", Path: "/api/roles/tagger", Token: admin,
			Body: map[string]any{"handle": "renamed", "display": "X", "permissions": []any{}}}), 422, "VALIDATION_ERROR")
		wantError(t, e.do(t, webtest.Request{Method: "PUT", Path: "/api/roles/ghost", Token: admin,
			Body: map[string]any{"display": "X", "permissions": []any{}}}), 404, "NOT_FOUND")
	})
	t.Run("admin is protected", func(t *testing.T) {
		t.Parallel()
		before, _ := os.ReadFile(filepath.Join(e.Dir, "resources/roles/admin.yaml"))
		wantError(t, e.do(t, webtest.Request{Method: "PUT", Path: "/api/roles/admin", Token: admin,
			Body: map[string]any{"display": "X", "permissions": []any{}}}), 403, "ROLE_PROTECTED")
		wantError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/roles/admin", Token: admin}), 403, "ROLE_PROTECTED")
		if after, _ := os.ReadFile(filepath.Join(e.Dir, "resources/roles/admin.yaml")); string(after) != string(before) {
			t.Error("admin role changed")
		}
	})
	t.Run("delete", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Method: "DELETE", Path: "/api/roles/author", Token: admin})
		got := wantError(t, w, 409, "ROLE_ASSIGNED")
		var body struct {
			Error struct {
				Users   []string `json:"users"`
				Details struct {
					Users []string `json:"users"`
				} `json:"details"`
			} `json:"error"`
		}
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		if len(body.Error.Users) == 0 || body.Error.Users[0] != "ann" || len(body.Error.Details.Users) == 0 || !strings.Contains(got.Error.Message, "author") {
			t.Errorf("body = %s", w.Body)
		}
		if err := e.Store.CreateRole(&content.Role{Handle: "temp", Display: "Temp"}); err != nil {
			t.Fatal(err)
		}
		w = e.do(t, webtest.Request{Method: "DELETE", Path: "/api/roles/temp", Token: admin})
		if w.Code != 200 || w.Body.String() != `{"success":true}` {
			t.Fatalf("got %d %s", w.Code, w.Body)
		}
		wantError(t, e.do(t, webtest.Request{Method: "DELETE", Path: "/api/roles/temp", Token: admin}), 404, "NOT_FOUND")
	})
}
