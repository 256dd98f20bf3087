package fsstore

import (
	"errors"
	"io/fs"

	"cms/content"
	"cms/content/frontmatter"
	"cms/content/internal/atomicfile"
)

// rolesLock serialises role writers so the existence check and the write are one step.
const rolesLock = "\x00roles"

// roleFile returns the existing file of a role (.yaml or .yml), or "" when there is none.
func (s *Store) roleFile(h string) string {
	for _, ext := range []string{".yaml", ".yml"} {
		p := s.resourcePath("roles", h+ext)
		if _, err := s.root.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// formatRole serialises r over base (the current file's keys, so hand-written extra keys
// survive an update).
func formatRole(r *content.Role, base *content.Map) ([]byte, error) {
	m := content.NewMap(4)
	m.Set("handle", r.Handle)
	m.Set("display", r.Display)
	perms := make([]any, 0, len(r.Permissions))
	for _, p := range r.Permissions {
		pm := content.NewMap(3)
		pm.Set("resource", p.Resource)
		if p.Scope != "" {
			pm.Set("scope", p.Scope)
		}
		actions := make([]any, len(p.Actions))
		for i, a := range p.Actions {
			actions[i] = a
		}
		pm.Set("actions", actions)
		perms = append(perms, pm)
	}
	m.Set("permissions", perms)
	for _, k := range base.Keys() {
		if _, ok := m.Get(k); !ok {
			m.Set(k, base.Value(k))
		}
	}
	return frontmatter.MarshalYAML(m)
}

// CreateRole writes resources/roles/{handle}.yaml. A role that exists is a Conflict error.
func (s *Store) CreateRole(r *content.Role) error {
	const op = "fsstore.CreateRole"
	if err := s.writable(op); err != nil {
		return err
	}
	if !content.ValidHandle(r.Handle) {
		return content.InvalidFields(op, "Role payload is invalid", map[string][]string{"handle": {"Invalid role handle"}})
	}
	unlock := s.lock(rolesLock)
	defer unlock()
	if s.roleFile(r.Handle) != "" {
		return content.Conflictf(op, "Role already exists")
	}
	raw, err := formatRole(r, nil)
	if err != nil {
		return encodeFailed(op, r.Handle, err)
	}
	p := s.resourcePath("roles", r.Handle+".yaml")
	if err := atomicfile.Write(s.root, p, raw, atomicfile.Options{Exclusive: true, NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return content.Conflictf(op, "Role already exists")
		}
		return content.Internalf(op, p, err)
	}
	s.invalidateDefinitions()
	s.changed("Created role "+r.Handle, p)
	return nil
}

// readRole reads role h fresh from its file and returns it with the file's path, its bytes' SHA-256
// hex (the role's version) and its mapping. A file that does not parse has a nil mapping and a
// role without permissions: the definitions leave it out, so it grants nothing.
func (s *Store) readRole(op, h string) (r *content.Role, p, hash string, m *content.Map, err error) {
	if content.ValidHandle(h) {
		p = s.roleFile(h)
	}
	if p == "" {
		return nil, "", "", nil, content.NotFoundf(op, h, "Role %q not found", h)
	}
	raw, err := s.root.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", "", nil, content.NotFoundf(op, h, "Role %q not found", h)
	}
	if err != nil {
		return nil, "", "", nil, content.Internalf(op, p, err)
	}
	r = &content.Role{Handle: h}
	if m, err = frontmatter.ParseYAMLMap(raw, 1); err != nil {
		m = nil
	} else if parsed, err := parseRole(h, m); err == nil {
		r = parsed
	}
	return r, p, hashBytes(raw), m, nil
}

// RoleVersion returns role h read fresh from its file, with its version: the SHA-256 hex of the
// file's bytes, which [Store.UpdateRole] compares a wanted hash against. A file the definitions
// leave out (it does not parse) is a NotFound error, as for [Store.Role].
func (s *Store) RoleVersion(h string) (*content.Role, string, error) {
	const op = "fsstore.RoleVersion"
	if _, err := s.Role(h); err != nil {
		return nil, "", err
	}
	r, _, hash, _, err := s.readRole(op, h)
	return r, hash, err
}

// UpdateRole applies edit to the current role h (read fresh from its file) and rewrites its
// display name and permissions, keeping any other keys of its file; reading, editing and writing
// happen under the roles lock. A non-empty wantHash must equal the current version
// ([Store.RoleVersion]), else the update is a Conflict error with [ConflictDetails]. An error from
// edit is returned and nothing is written. A missing role is a NotFound error; a file that does
// not parse reaches edit as a role without permissions and is replaced as a whole. It returns the
// role as written and its new version.
func (s *Store) UpdateRole(h, wantHash string, edit func(r *content.Role) error) (*content.Role, string, error) {
	const op = "fsstore.UpdateRole"
	if err := s.writable(op); err != nil {
		return nil, "", err
	}
	unlock := s.lock(rolesLock)
	defer unlock()
	r, p, hash, base, err := s.readRole(op, h)
	if err != nil {
		return nil, "", err
	}
	if wantHash != "" && wantHash != hash {
		return nil, "", staleVersion(op, p, "role", wantHash, hash)
	}
	if err := edit(r); err != nil {
		return nil, "", err
	}
	r.Handle = h // the file name is the handle
	raw, err := formatRole(r, base)
	if err != nil {
		return nil, "", encodeFailed(op, p, err)
	}
	if err := atomicfile.Write(s.root, p, raw, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		return nil, "", content.Internalf(op, p, err)
	}
	s.invalidateDefinitions()
	s.changed("Updated role "+h, p)
	return r, hashBytes(raw), nil
}

// DeleteRole removes a role's file, or returns a NotFound error. Users keep the handle; a missing
// role simply grants nothing.
func (s *Store) DeleteRole(h string) error {
	const op = "fsstore.DeleteRole"
	if err := s.writable(op); err != nil {
		return err
	}
	unlock := s.lock(rolesLock)
	defer unlock()
	p := ""
	if content.ValidHandle(h) {
		p = s.roleFile(h)
	}
	if p == "" {
		return content.NotFoundf(op, h, "Role %q not found", h)
	}
	if err := atomicfile.Remove(s.root, p, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return content.NotFoundf(op, h, "Role %q not found", h)
		}
		return content.Internalf(op, p, err)
	}
	s.invalidateDefinitions()
	s.changed("Deleted role "+h, p)
	return nil
}
