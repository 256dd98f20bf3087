package sessions_test

import (
	"testing"

	"cms/content"
	"cms/content/sessions"
)

type userMap map[string]*content.User

func (m userMap) User(id string) (*content.User, error) {
	if u, ok := m[id]; ok {
		return u, nil
	}
	return nil, content.NotFoundf("test", id, "User %q not found", id)
}

type roleMap map[string]*content.Role

func (m roleMap) Role(h string) (*content.Role, error) {
	if r, ok := m[h]; ok {
		return r, nil
	}
	return nil, content.NotFoundf("test", h, "Role %q not found", h)
}

func TestResolver(t *testing.T) {
	t.Parallel()
	f := open(t, nil)
	users := userMap{"alice": {ID: "alice", Roles: []string{"editor", "gone"}}}
	roles := roleMap{"editor": {Handle: "editor", Permissions: []content.Permission{{Resource: "entries", Actions: []string{"view"}}}}}
	res, err := sessions.NewResolver(f.st, users, roles)
	if err != nil {
		t.Fatal(err)
	}
	tok := f.create(t, "alice")
	p, err := res.Principal(t.Context(), string(tok), true)
	if err != nil {
		t.Fatal(err)
	}
	if p.User.ID != "alice" || !p.ViaCookie || len(p.Roles) != 1 || !p.Can("entries", "view", "blog") ||
		p.SessionID != sessions.HashToken(string(tok)) || p.ExpiresAt != "2026-06-01T13:00:00.000Z" {
		t.Errorf("principal = %+v", p)
	}
	orphan := f.create(t, "deleted-user")
	for name, tok := range map[string]string{"empty": "", "unknown": "00000000000000000000000000000000000000000000000000000000000000ff", "user gone": string(orphan)} {
		if _, err := res.Principal(t.Context(), tok, false); content.KindOf(err) != content.Unauthenticated {
			t.Errorf("%s: err = %v, want Unauthenticated", name, err)
		}
	}
	if _, err := sessions.NewResolver(nil, users, roles); err == nil {
		t.Error("NewResolver accepted a nil store")
	}
}
