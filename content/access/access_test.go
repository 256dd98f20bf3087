package access_test

import (
	"slices"
	"testing"

	"cms/content"
	"cms/content/access"
)

func TestCan(t *testing.T) {
	t.Parallel()
	editor := &content.Role{Handle: "editor", Permissions: []content.Permission{
		{Resource: "entries", Actions: []string{"view", "edit"}},
		{Resource: "globals", Actions: []string{"view"}},
	}}
	author := &content.Role{Handle: "author", Permissions: []content.Permission{
		{Resource: "entries", Actions: []string{"view", "create"}, Scope: "blog"},
	}}
	p := &access.Principal{Roles: []*content.Role{editor, author}}
	tests := []struct {
		resource, action, scope string
		want                    bool
	}{
		{"entries", "view", "", true},       // unscoped grant, unscoped check
		{"entries", "edit", "pages", true},  // unscoped grant applies to every scope
		{"entries", "create", "blog", true}, // scoped grant, its own scope
		{"entries", "create", "pages", false},
		{"entries", "create", "", false}, // a scoped grant does not satisfy an unscoped check
		{"entries", "delete", "blog", false},
		{"globals", "view", "", true},
		{"globals", "edit", "", false},
		{"users", "view", "", false},
	}
	for _, tt := range tests {
		if got := p.Can(tt.resource, tt.action, tt.scope); got != tt.want {
			t.Errorf("Can(%s, %s, %q) = %v, want %v", tt.resource, tt.action, tt.scope, got, tt.want)
		}
	}
	var nobody *access.Principal
	if nobody.Can("entries", "view", "") {
		t.Error("a nil principal can do something")
	}
	err := p.Require("users", "delete", "")
	if content.KindOf(err) != content.Forbidden || err.(*content.Error).Message != "Insufficient permissions to delete users" {
		t.Errorf("Require = %v", err)
	}
}

func TestRolesForSkipsUnknownRoles(t *testing.T) {
	t.Parallel()
	u := &content.User{Roles: []string{"editor", "deleted-role"}}
	roles := access.RolesFor(u, func(h string) (*content.Role, error) {
		if h == "editor" {
			return &content.Role{Handle: h}, nil
		}
		return nil, content.NotFoundf("test", h, "no role")
	})
	if len(roles) != 1 || roles[0].Handle != "editor" {
		t.Errorf("RolesFor = %v", roles)
	}
}

func TestMissing(t *testing.T) {
	t.Parallel()
	p := &access.Principal{Roles: []*content.Role{{Handle: "editor", Permissions: []content.Permission{
		{Resource: "entries", Actions: []string{"view", "edit"}},
		{Resource: "users", Actions: []string{"view", "edit"}},
		{Resource: "assets", Actions: []string{"view"}, Scope: "docs"},
	}}}}
	perm := func(res, scope string, actions ...string) content.Permission {
		return content.Permission{Resource: res, Scope: scope, Actions: actions}
	}
	tests := []struct {
		name  string
		perms []content.Permission
		want  []string
	}{
		{"nothing", nil, nil},
		{"a subset", []content.Permission{perm("entries", "", "view"), perm("users", "", "edit")}, nil},
		{"an unscoped grant covers a scope", []content.Permission{perm("entries", "blog", "edit")}, nil},
		{"the same scope", []content.Permission{perm("assets", "docs", "view")}, nil},
		{"another scope", []content.Permission{perm("assets", "blog", "view")}, []string{"assets:view in blog"}},
		{"a scoped grant does not cover all scopes", []content.Permission{perm("assets", "", "view")}, []string{"assets:view"}},
		{"more actions", []content.Permission{perm("entries", "", "view", "publish"), perm("users", "", "delete", "edit", "create")},
			[]string{"entries:publish", "users:delete", "users:create"}},
		{"listed once", []content.Permission{perm("settings", "", "edit"), perm("settings", "", "edit")}, []string{"settings:edit"}},
	}
	for _, tt := range tests {
		if got := p.Missing(tt.perms); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Missing = %q, want %q", tt.name, got, tt.want)
		}
	}
}
