package fsstore

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"cms/content"
	"cms/content/frontmatter"
	"cms/content/internal/atomicfile"
)

type userCache struct {
	byID    map[string]*content.User
	byEmail map[string]*content.User
	ids     []string
	epoch   uint64 // s.usersEpoch when loading began
}

// usersLock serialises user-file writers so the email uniqueness check and the write are one step.
const usersLock = "\x00users"

func (s *Store) userCache() *userCache {
	s.checkPoll()
	// Current while no invalidation happened since its load began (see definitions).
	if c := s.users.Load(); c != nil && c.epoch == s.usersEpoch.Load() {
		return c
	}
	s.usersMu.Lock()
	defer s.usersMu.Unlock()
	epoch := s.usersEpoch.Load()
	if c := s.users.Load(); c != nil && c.epoch == epoch {
		return c
	}
	c := &userCache{byID: map[string]*content.User{}, byEmail: map[string]*content.User{}, epoch: epoch}
	for _, id := range sortedKeys(s.yamlFiles(s.opts.UsersDir)) {
		p := path.Join(s.opts.UsersDir, id+".yaml")
		if _, err := s.root.Stat(p); err != nil {
			p = path.Join(s.opts.UsersDir, id+".yml")
		}
		m, ok := s.readYAMLMap(p)
		if !ok {
			continue
		}
		u := parseUser(id, m)
		if u.Email == "" {
			s.problem(p, errors.New("user has no email"))
			continue
		}
		if other := c.byEmail[u.Email]; other != nil {
			s.problem(p, fmt.Errorf("email %s is also used by user %q; ignoring this file", u.Email, other.ID))
			continue
		}
		c.byID[id] = u
		c.byEmail[u.Email] = u
		c.ids = append(c.ids, id)
	}
	s.users.Store(c)
	return c
}

// NormalizeEmail trims and lower-cases an email address for lookup and storage.
func NormalizeEmail(e string) string { return strings.ToLower(strings.TrimSpace(e)) }

func parseUser(id string, m *content.Map) *content.User {
	u := &content.User{
		ID:           id,
		Email:        NormalizeEmail(str(m, "email")),
		Name:         str(m, "name"),
		PasswordHash: str(m, "password_hash"),
		Roles:        strs(m, "roles"),
		CreatedAt:    str(m, "created_at"),
		LastLogin:    str(m, "last_login"),
		Theme:        str(m, "theme"),
		Extra:        content.NewMap(0),
	}
	if u.Roles == nil {
		u.Roles = []string{}
	}
	for _, k := range m.Keys() {
		switch k {
		case "id", "email", "name", "password_hash", "roles", "created_at", "last_login", "theme":
		default:
			u.Extra.Set(k, m.Value(k))
		}
	}
	return u
}

func formatUser(u *content.User) ([]byte, error) {
	m := content.NewMap(8)
	m.Set("id", u.ID)
	m.Set("email", NormalizeEmail(u.Email))
	m.Set("name", u.Name)
	roles := make([]any, len(u.Roles))
	for i, r := range u.Roles {
		roles[i] = r
	}
	m.Set("roles", roles)
	m.Set("password_hash", u.PasswordHash)
	if u.CreatedAt != "" {
		m.Set("created_at", u.CreatedAt)
	}
	if u.LastLogin != "" {
		m.Set("last_login", u.LastLogin)
	}
	if u.Theme != "" {
		m.Set("theme", u.Theme)
	}
	for _, k := range u.Extra.Keys() {
		m.Set(k, u.Extra.Value(k))
	}
	return frontmatter.MarshalYAML(m)
}

func cloneUser(u *content.User) *content.User {
	c := *u
	c.Roles = append([]string{}, u.Roles...)
	c.Extra = u.Extra.Clone()
	return &c
}

// Users lists users sorted by id (copies; callers may modify them).
func (s *Store) Users() []*content.User {
	c := s.userCache()
	out := make([]*content.User, 0, len(c.ids))
	for _, id := range c.ids {
		out = append(out, cloneUser(c.byID[id]))
	}
	return out
}

// User returns a user by id, or a NotFound error.
func (s *Store) User(id string) (*content.User, error) {
	if u, ok := s.userCache().byID[id]; ok {
		return cloneUser(u), nil
	}
	return nil, content.NotFoundf("fsstore.User", id, "User %q not found", id)
}

// UserByEmail returns a user by (normalised) email, or a NotFound error.
func (s *Store) UserByEmail(email string) (*content.User, error) {
	if u, ok := s.userCache().byEmail[NormalizeEmail(email)]; ok {
		return cloneUser(u), nil
	}
	return nil, content.NotFoundf("fsstore.UserByEmail", "", "User not found")
}

func (s *Store) userPath(id string) string { return path.Join(s.opts.UsersDir, id+".yaml") }

// CreateUser writes a new user file (mode 0600). A taken id or email is a Conflict error.
func (s *Store) CreateUser(u *content.User) error {
	const op = "fsstore.CreateUser"
	if err := s.writable(op); err != nil {
		return err
	}
	if !content.ValidHandle(u.ID) {
		return content.InvalidFields(op, "Invalid user id", map[string][]string{"id": {"Invalid user id: use letters, digits, '-' and '_'"}})
	}
	unlock := s.lock(usersLock)
	defer unlock()
	c := s.userCache()
	if _, ok := c.byID[u.ID]; ok {
		return content.Conflictf(op, "User with id %q already exists", u.ID)
	}
	if _, ok := c.byEmail[NormalizeEmail(u.Email)]; ok {
		return content.Conflictf(op, "User with email %q already exists", NormalizeEmail(u.Email))
	}
	raw, err := formatUser(u)
	if err != nil {
		return encodeFailed(op, u.ID, err)
	}
	p := s.userPath(u.ID)
	if err := atomicfile.Write(s.root, p, raw, atomicfile.Options{Perm: 0o600, Exclusive: true, NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return content.Conflictf(op, "User with id %q already exists", u.ID)
		}
		return content.Internalf(op, p, err)
	}
	s.usersEpoch.Add(1)
	s.publish(change{users: true})
	return nil
}

// UpdateUser rewrites an existing user file. Changing the email to one in use is a Conflict.
func (s *Store) UpdateUser(u *content.User) error {
	const op = "fsstore.UpdateUser"
	if err := s.writable(op); err != nil {
		return err
	}
	unlock := s.lock(usersLock)
	defer unlock()
	c := s.userCache()
	if _, ok := c.byID[u.ID]; !ok {
		return content.NotFoundf(op, u.ID, "User %q not found", u.ID)
	}
	if other, ok := c.byEmail[NormalizeEmail(u.Email)]; ok && other.ID != u.ID {
		return content.Conflictf(op, "User with email %q already exists", NormalizeEmail(u.Email))
	}
	raw, err := formatUser(u)
	if err != nil {
		return encodeFailed(op, u.ID, err)
	}
	p := s.userPath(u.ID)
	if _, err := s.root.Stat(p); err != nil {
		p = path.Join(s.opts.UsersDir, u.ID+".yml")
	}
	if err := atomicfile.Write(s.root, p, raw, atomicfile.Options{Perm: 0o600, NoSync: s.opts.NoSync}); err != nil {
		return content.Internalf(op, p, err)
	}
	s.usersEpoch.Add(1)
	s.publish(change{users: true})
	return nil
}

// DeleteUser removes a user file, or returns a NotFound error.
func (s *Store) DeleteUser(id string) error {
	const op = "fsstore.DeleteUser"
	if err := s.writable(op); err != nil {
		return err
	}
	unlock := s.lock(usersLock)
	defer unlock()
	if _, ok := s.userCache().byID[id]; !ok {
		return content.NotFoundf(op, id, "User %q not found", id)
	}
	for _, ext := range []string{".yaml", ".yml"} {
		err := atomicfile.Remove(s.root, path.Join(s.opts.UsersDir, id+ext), atomicfile.Options{NoSync: s.opts.NoSync})
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			s.usersEpoch.Add(1)
			s.publish(change{users: true})
			if err != nil {
				return content.Internalf(op, id, err)
			}
			return nil
		}
	}
	return content.NotFoundf(op, id, "User %q not found", id)
}
