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
	return nil
}

// UpdateRole rewrites an existing role's display name and permissions, keeping any other keys
// of its file. A missing role is a NotFound error.
func (s *Store) UpdateRole(r *content.Role) error {
	const op = "fsstore.UpdateRole"
	if err := s.writable(op); err != nil {
		return err
	}
	if !content.ValidHandle(r.Handle) {
		return content.NotFoundf(op, r.Handle, "Role %q not found", r.Handle)
	}
	unlock := s.lock(rolesLock)
	defer unlock()
	p := s.roleFile(r.Handle)
	if p == "" {
		return content.NotFoundf(op, r.Handle, "Role %q not found", r.Handle)
	}
	base, err := s.ReadFile(p)
	if err != nil {
		return err
	}
	m, err := frontmatter.ParseYAMLMap(base, 1)
	if err != nil {
		m = nil // a broken file is replaced as a whole
	}
	raw, err := formatRole(r, m)
	if err != nil {
		return encodeFailed(op, p, err)
	}
	if err := atomicfile.Write(s.root, p, raw, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		return content.Internalf(op, p, err)
	}
	s.invalidateDefinitions()
	return nil
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
	return nil
}
