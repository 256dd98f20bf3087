package fsstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
)

const rolesSite = `
-- resources/roles/admin.yaml --
handle: admin
display: Administrator
permissions:
  - resource: users
    actions: [view, create, edit, delete]
-- resources/roles/legacy.yml --
display: Legacy
icon: star
permissions:
  - resource: entries
    actions: [view]
`

func TestRoleWrites(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, rolesSite)
	st := contenttest.OpenStore(t, dir)

	author := &content.Role{Handle: "author", Display: "Author", Permissions: []content.Permission{
		{Resource: "entries", Actions: []string{"view", "create"}, Scope: "blog"},
		{Resource: "assets", Actions: []string{"view"}},
	}}
	if err := st.CreateRole(author); err != nil {
		t.Fatal(err)
	}
	got, err := st.Role("author")
	if err != nil {
		t.Fatalf("created role not visible: %v", err)
	}
	if got.Display != "Author" || len(got.Permissions) != 2 || got.Permissions[0].Scope != "blog" ||
		!slices.Equal(got.Permissions[0].Actions, []string{"view", "create"}) {
		t.Errorf("role read back = %+v", got)
	}
	if err := st.CreateRole(author); content.KindOf(err) != content.Conflict {
		t.Errorf("duplicate create = %v, want Conflict", err)
	}
	if err := st.CreateRole(&content.Role{Handle: "legacy"}); content.KindOf(err) != content.Conflict {
		t.Errorf("create over a .yml role = %v, want Conflict", err)
	}
	if err := st.CreateRole(&content.Role{Handle: "../x"}); content.KindOf(err) != content.Invalid {
		t.Errorf("bad handle = %v, want Invalid", err)
	}

	// Update keeps the file's extension and its other keys.
	setLegacy := func(r *content.Role) error {
		r.Display, r.Permissions = "Old timer", []content.Permission{{Resource: "forms", Actions: []string{"view"}}}
		return nil
	}
	if _, _, err := st.UpdateRole("legacy", "", setLegacy); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "resources/roles/legacy.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "icon: star") || !strings.Contains(string(raw), "Old timer") {
		t.Errorf("updated file = %s", raw)
	}
	if r, _ := st.Role("legacy"); r == nil || r.Display != "Old timer" || r.Permissions[0].Resource != "forms" {
		t.Errorf("updated role = %+v", r)
	}
	if _, _, err := st.UpdateRole("ghost", "", setLegacy); content.KindOf(err) != content.NotFound {
		t.Errorf("update missing = %v, want NotFound", err)
	}

	if err := st.DeleteRole("legacy"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Role("legacy"); content.KindOf(err) != content.NotFound {
		t.Errorf("deleted role still visible: %v", err)
	}
	for _, h := range []string{"legacy", "ghost", "../admin", ""} {
		if err := st.DeleteRole(h); content.KindOf(err) != content.NotFound {
			t.Errorf("DeleteRole(%q) = %v, want NotFound", h, err)
		}
	}
}

func TestRoleWritesReadOnly(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, rolesSite)
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, ReadOnly: true, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for name, err := range map[string]error{
		"create": st.CreateRole(&content.Role{Handle: "x"}),
		"update": func() error {
			_, _, err := st.UpdateRole("admin", "", func(*content.Role) error { return nil })
			return err
		}(),
		"delete": st.DeleteRole("admin"),
	} {
		if content.KindOf(err) != content.Forbidden {
			t.Errorf("%s on read-only = %v, want Forbidden", name, err)
		}
	}
}

// A user or role written by one goroutine is visible to it at once, even while other goroutines
// rebuild the caches (a reader once paired a stale cache with a cleared dirty flag).
func TestWriteThenReadWhileOthersWrite(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, rolesSite))
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Go(func() {
			id := fmt.Sprintf("u%d", i)
			if err := st.CreateUser(&content.User{ID: id, Email: id + "@example.com", Name: id, Roles: []string{}}); err != nil {
				t.Error(err)
				return
			}
			if _, err := st.User(id); err != nil {
				t.Errorf("user just created: %v", err)
			}
			if err := st.CreateRole(&content.Role{Handle: "r" + id, Display: id}); err != nil {
				t.Error(err)
				return
			}
			if _, err := st.Role("r" + id); err != nil {
				t.Errorf("role just created: %v", err)
			}
		})
	}
	wg.Wait()
}
