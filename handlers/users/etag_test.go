package users_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"testing"

	"cms/handlers/web/webtest"
)

var etagRE = regexp.MustCompile(`^"[0-9a-f]{64}"$`)

// etagOf GETs path and returns its ETag, failing unless there is one.
func (e *testEnv) etagOf(t *testing.T, path, tok string) string {
	t.Helper()
	w := e.do(t, webtest.Request{Path: path, Token: tok})
	if w.Code != 200 || !etagRE.MatchString(w.Header().Get("ETag")) {
		t.Fatalf("GET %s = %d, ETag %q", path, w.Code, w.Header().Get("ETag"))
	}
	return w.Header().Get("ETag")
}

// Users and roles carry an ETag like globals and entries: PUT with the If-Match of a GET
// succeeds, with one that is stale (the record changed since) is a 409 that writes nothing, and
// without If-Match (or with "*") the change applies as before.
func TestIfMatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	perm := []any{map[string]any{"resource": "forms", "actions": []string{"view"}}}
	type target struct{ get, put, file, tok string }
	newUser := func(t *testing.T, self bool) target {
		id := e.newID("u")
		e.AddUser(t, id, "author")
		if self {
			return target{"/api/users/me", "/api/users/me", "users/" + id + ".yaml", e.Token(t, id)}
		}
		return target{"/api/users/" + id, "/api/users/" + id, "users/" + id + ".yaml", admin}
	}
	newRole := func(t *testing.T) target {
		h := e.newID("role")
		if w := e.do(t, webtest.Request{Method: "POST", Path: "/api/roles", Token: admin, Body: map[string]any{"handle": h, "display": h, "permissions": perm}}); w.Code != 201 {
			t.Fatalf("create role: %d %s", w.Code, w.Body)
		}
		return target{"/api/roles/" + h, "/api/roles/" + h, "resources/roles/" + h + ".yaml", admin}
	}
	kinds := []struct {
		name   string
		target func(t *testing.T) target
		body   func(i int) map[string]any
	}{
		{"user", func(t *testing.T) target { return newUser(t, false) }, func(i int) map[string]any { return map[string]any{"name": "Name " + string(rune('A'+i))} }},
		{"me", func(t *testing.T) target { return newUser(t, true) }, func(i int) map[string]any { return map[string]any{"name": "Name " + string(rune('A'+i))} }},
		{"role", newRole, func(i int) map[string]any {
			return map[string]any{"display": "Display " + string(rune('A'+i)), "permissions": perm}
		}},
	}
	cases := []struct {
		name       string
		ifMatch    func(current, stale string) string
		wantStatus int
		wantCode   string
	}{
		{"current ETag", func(cur, _ string) string { return cur }, 200, ""},
		{"weak form of the current ETag", func(cur, _ string) string { return "W/" + cur }, 200, ""},
		{"stale ETag", func(_, stale string) string { return stale }, 409, "CONFLICT"},
		{"no If-Match", func(string, string) string { return "" }, 200, ""},
		{"any", func(string, string) string { return "*" }, 200, ""},
		{"not a quoted ETag", func(string, string) string { return "abc" }, 400, "BAD_REQUEST"},
	}
	for _, k := range kinds {
		for _, c := range cases {
			t.Run(k.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				tg := k.target(t)
				stale := e.etagOf(t, tg.get, tg.tok)
				if w := e.do(t, webtest.Request{Method: "PUT", Path: tg.put, Token: tg.tok, Body: k.body(0)}); w.Code != 200 {
					t.Fatalf("first PUT: %d %s", w.Code, w.Body)
				}
				cur := e.etagOf(t, tg.get, tg.tok)
				if cur == stale {
					t.Fatal("the ETag did not change with the record")
				}
				req := webtest.Request{Method: "PUT", Path: tg.put, Token: tg.tok, Body: k.body(1)}
				if v := c.ifMatch(cur, stale); v != "" {
					req.Header = http.Header{"If-Match": {v}}
				}
				before := readOrEmpty(e.Dir, tg.file)
				w := e.do(t, req)
				if c.wantCode != "" {
					got := wantError(t, w, c.wantStatus, c.wantCode)
					if readOrEmpty(e.Dir, tg.file) != before {
						t.Error("a refused PUT changed the file")
					}
					if c.wantStatus == 409 {
						var body struct {
							Error struct{ CurrentHash, SubmittedHash string } `json:"error"`
						}
						_ = json.Unmarshal(w.Body.Bytes(), &body)
						if `"`+body.Error.CurrentHash+`"` != cur || `"`+body.Error.SubmittedHash+`"` != stale || got.Error.Message == "" {
							t.Errorf("conflict body = %s", w.Body)
						}
					}
					return
				}
				if w.Code != c.wantStatus {
					t.Fatalf("status %d: %s", w.Code, w.Body)
				}
				// The response's ETag is the new version, as a GET now reports it.
				if got, now := w.Header().Get("ETag"), e.etagOf(t, tg.get, tg.tok); got != now || got == cur {
					t.Errorf("PUT ETag %s, GET ETag %s, before %s", got, now, cur)
				}
			})
		}
	}
	t.Run("me and the user's own path share the ETag", func(t *testing.T) {
		t.Parallel()
		tok := e.Token(t, "ann")
		if me, own := e.etagOf(t, "/api/users/me", tok), e.etagOf(t, "/api/users/ann", tok); me != own {
			t.Errorf("me %s, /ann %s", me, own)
		}
	})
	t.Run("a password change makes an ETag stale", func(t *testing.T) {
		t.Parallel()
		tg := newUser(t, false)
		stale := e.etagOf(t, tg.get, admin)
		if w := e.do(t, webtest.Request{Method: "POST", Path: tg.put + "/password", Token: admin, Body: map[string]any{"newPassword": "another long password"}}); w.Code != 200 {
			t.Fatalf("password: %d %s", w.Code, w.Body)
		}
		wantError(t, e.do(t, webtest.Request{Method: "PUT", Path: tg.put, Token: admin, Header: http.Header{"If-Match": {stale}},
			Body: map[string]any{"name": "Late"}}), 409, "CONFLICT")
	})
}
