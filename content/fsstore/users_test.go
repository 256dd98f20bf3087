package fsstore_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
)

func fileHash(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// UpdateUser edits the current record: a stale hash, an email in use and an edit that fails
// each leave the file as it was; DeleteUserIf deletes nothing its check refuses.
func TestUpdateUserEditsTheCurrentRecord(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, rolesSite)
	st := contenttest.OpenStore(t, dir)
	for _, id := range []string{"bob", "eve"} {
		if err := st.CreateUser(&content.User{ID: id, Email: id + "@example.com", Name: id, PasswordHash: "scrypt:aa:bb", Roles: []string{"admin"}}); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "users/bob.yaml")
	u, hash, err := st.UserVersion("bob")
	if err != nil || u.Name != "bob" || hash != fileHash(t, file) {
		t.Fatalf("UserVersion = %+v, %s, %v", u, hash, err)
	}
	got, next, err := st.UpdateUser("bob", hash, func(u *content.User) error {
		u.Name, u.Email, u.ID = "Robert", " Bob@Example.COM ", "ignored"
		return nil
	})
	if err != nil || got.Name != "Robert" || got.Email != "bob@example.com" || got.ID != "bob" || next != fileHash(t, file) || next == hash {
		t.Fatalf("UpdateUser = %+v, %s, %v", got, next, err)
	}
	before, _ := os.ReadFile(file)
	boom := errors.New("refused")
	for name, c := range map[string]struct {
		want string
		edit func(u *content.User) error
		kind content.Kind
		err  error
	}{
		"stale hash":   {hash, func(u *content.User) error { u.Name = "Late"; return nil }, content.Conflict, nil},
		"email in use": {"", func(u *content.User) error { u.Email = "EVE@example.com"; return nil }, content.Conflict, nil},
		"edit refuses": {"", func(u *content.User) error { u.Name = "Half"; return boom }, 0, boom},
	} {
		_, _, err := st.UpdateUser("bob", c.want, c.edit)
		if c.err != nil && !errors.Is(err, c.err) || c.err == nil && content.KindOf(err) != c.kind {
			t.Errorf("%s: err = %v", name, err)
		}
		if after, _ := os.ReadFile(file); string(after) != string(before) {
			t.Errorf("%s: the file changed:\n%s", name, after)
		}
	}
	if _, _, err := st.UpdateUser("ghost", "", func(*content.User) error { return nil }); !content.IsNotFound(err) {
		t.Errorf("missing user: %v", err)
	}
	if _, _, err := st.UserVersion("../users/bob"); !content.IsNotFound(err) {
		t.Errorf("bad id: %v", err)
	}

	if err := st.DeleteUserIf("bob", func(u *content.User) error {
		if !slices.Equal(u.Roles, []string{"admin"}) {
			t.Errorf("check saw %+v", u)
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Errorf("refused delete = %v", err)
	}
	if _, err := st.User("bob"); err != nil {
		t.Errorf("refused delete removed the user: %v", err)
	}
	if err := st.DeleteUserIf("bob", func(*content.User) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := st.User("bob"); !content.IsNotFound(err) {
		t.Errorf("deleted user: %v", err)
	}
}

// UpdateRole edits the role as its file stands; a stale hash writes nothing, and a file that
// does not parse reaches the edit as a role without permissions and is replaced.
func TestUpdateRoleEditsTheCurrentFile(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, rolesSite+"-- resources/roles/broken.yaml --\npermissions: [unclosed\n")
	st := contenttest.OpenStore(t, dir)
	file := filepath.Join(dir, "resources/roles/legacy.yml")
	r, hash, err := st.RoleVersion("legacy")
	if err != nil || r.Display != "Legacy" || hash != fileHash(t, file) {
		t.Fatalf("RoleVersion = %+v, %s, %v", r, hash, err)
	}
	var seen []content.Permission
	got, next, err := st.UpdateRole("legacy", hash, func(r *content.Role) error {
		seen = r.Permissions
		r.Display = "Old timer"
		return nil
	})
	if err != nil || got.Display != "Old timer" || next != fileHash(t, file) || len(seen) != 1 || seen[0].Resource != "entries" {
		t.Fatalf("UpdateRole = %+v, %s, %v (edit saw %+v)", got, next, err, seen)
	}
	before, _ := os.ReadFile(file)
	if _, _, err := st.UpdateRole("legacy", hash, func(r *content.Role) error { r.Display = "Late"; return nil }); content.KindOf(err) != content.Conflict {
		t.Errorf("stale hash = %v", err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) || !strings.Contains(string(after), "icon: star") {
		t.Errorf("file after the refused update:\n%s", after)
	}

	if _, _, err := st.RoleVersion("broken"); !content.IsNotFound(err) {
		t.Errorf("RoleVersion of a broken file = %v, want NotFound as Role", err)
	}
	_, _, err = st.UpdateRole("broken", "", func(r *content.Role) error {
		if len(r.Permissions) != 0 {
			t.Errorf("a broken file reached the edit with %+v", r.Permissions)
		}
		r.Display, r.Permissions = "Fixed", []content.Permission{{Resource: "forms", Actions: []string{"view"}}}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := st.Role("broken"); err != nil || r.Display != "Fixed" {
		t.Errorf("repaired role = %+v, %v", r, err)
	}
}
