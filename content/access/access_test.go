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

// SeesDrafts is the one rule for drafts of the Control Panel API and GraphQL: view on the
// collection. The handlers' tests (TestWhoSeesDrafts in both) check that they follow it.
func TestSeesDrafts(t *testing.T) {
	t.Parallel()
	viewer := &access.Principal{Roles: []*content.Role{{Permissions: []content.Permission{
		{Resource: "entries", Actions: []string{"view"}}}}}}
	author := &access.Principal{Roles: []*content.Role{{Permissions: []content.Permission{
		{Resource: "entries", Actions: []string{"view", "create", "edit"}, Scope: "blog"}}}}}
	writer := &access.Principal{Roles: []*content.Role{{Permissions: []content.Permission{
		{Resource: "entries", Actions: []string{"create", "edit"}}}}}}
	var anonymous *access.Principal
	tests := []struct {
		name string
		p    *access.Principal
		coll string
		want bool
	}{
		{"viewer", viewer, "blog", true},
		{"author on its collection", author, "blog", true},
		{"author on another collection", author, "pages", false},
		{"edit without view", writer, "blog", false},
		{"anonymous", anonymous, "blog", false},
	}
	for _, tt := range tests {
		if got := tt.p.SeesDrafts(tt.coll); got != tt.want {
			t.Errorf("%s: SeesDrafts(%q) = %v, want %v", tt.name, tt.coll, got, tt.want)
		}
	}
}

func TestRequireEntryChange(t *testing.T) {
	t.Parallel()
	author := &access.Principal{Roles: []*content.Role{{Permissions: []content.Permission{
		{Resource: "entries", Actions: []string{"view", "create", "edit", "delete"}},
		{Resource: "entries", Actions: []string{"publish"}, Scope: "news"}}}}}
	draft := &content.Entry{Collection: "blog", Slug: "d", Status: content.StatusDraft}
	live := &content.Entry{Collection: "blog", Slug: "p", Status: content.StatusPublished}
	news := &content.Entry{Collection: "news", Slug: "n", Status: content.StatusPublished}
	for _, action := range []string{"edit", "delete"} {
		if err := author.RequireEntryChange(draft, action); err != nil {
			t.Errorf("%s a draft: %v", action, err)
		}
		if err := author.RequireEntryChange(news, action); err != nil {
			t.Errorf("%s a published entry with publish on its collection: %v", action, err)
		}
	}
	for action, msg := range map[string]string{
		"edit":   "Changing a published entry needs the publish permission",
		"delete": "Deleting a published entry needs the publish permission",
	} {
		err := author.RequireEntryChange(live, action)
		if content.KindOf(err) != content.Forbidden || err.(*content.Error).Message != msg {
			t.Errorf("%s a published entry without publish on its collection: %v", action, err)
		}
	}
}
