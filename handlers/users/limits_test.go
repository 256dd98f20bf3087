package users_test

import (
	"path/filepath"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

// User and role bodies nested deeper than the shared limit get the same refusal as every other
// document, before they are decoded, and nothing is written.
func TestBodiesOverTheNestingLimitAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Token(t, "alice")
	deep := webtest.Nested(1000)
	cases := []struct {
		name string
		req  webtest.Request
		file string
	}{
		{"create user", webtest.Request{Method: "POST", Path: "/api/users", Body: `{"id":"deep","email":"deep@example.com","name":` + deep + `,"password":"correct horse battery"}`}, "users/deep.yaml"},
		{"update user", webtest.Request{Method: "PUT", Path: "/api/users/vic", Body: `{"name":` + deep + `}`}, "users/vic.yaml"},
		{"update me", webtest.Request{Method: "PUT", Path: "/api/users/me", Body: `{"name":` + deep + `}`}, "users/alice.yaml"},
		{"create role", webtest.Request{Method: "POST", Path: "/api/roles", Body: `{"handle":"deep","display":"Deep","permissions":` + deep + `}`}, "resources/roles/deep.yaml"},
		{"update role", webtest.Request{Method: "PUT", Path: "/api/roles/spare", Body: `{"display":"Spare","permissions":[{"resource":"forms","actions":` + webtest.Nested(content.MaxNesting) + `}]}`}, "resources/roles/spare.yaml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			unchanged := webtest.Unchanged(t, filepath.Join(e.Dir, c.file))
			c.req.Token = admin
			webtest.WantError(t, e.do(t, c.req), 422, content.CodeNestingTooDeep)
			unchanged()
		})
	}
	if w := e.do(t, webtest.Request{Path: "/api/users/vic", Token: admin}); w.Code != 200 {
		t.Errorf("GET vic after the refusals = %d %.300s", w.Code, w.Body)
	}
}
