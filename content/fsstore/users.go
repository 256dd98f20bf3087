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
	s.ix.Poll()
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
	s.ix.PublishUsers()
	s.changed("Created user "+u.ID, p)
	return nil
}

// readUser reads user id fresh from its file and returns it with the file's path and the
// SHA-256 hex of its bytes (the user's version). A file the user list leaves out (no email, an
// email another user has) is no user.
func (s *Store) readUser(op, id string) (u *content.User, p, hash string, err error) {
	if !content.ValidHandle(id) {
		return nil, "", "", content.NotFoundf(op, id, "User %q not found", id)
	}
	if _, ok := s.userCache().byID[id]; !ok {
		return nil, "", "", content.NotFoundf(op, id, "User %q not found", id)
	}
	p = s.yamlFile(s.opts.UsersDir, id)
	raw, err := s.root.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", "", content.NotFoundf(op, id, "User %q not found", id)
	}
	if err != nil {
		return nil, "", "", content.Internalf(op, p, err)
	}
	m, err := frontmatter.ParseYAMLMap(raw, 1)
	if err != nil {
		s.problem(p, err)
		return nil, "", "", content.Internalf(op, p, err)
	}
	return parseUser(id, m), p, hashBytes(raw), nil
}

// UserVersion returns user id read fresh from its file, with its version: the SHA-256 hex of the
// file's bytes, which [Store.UpdateUser] compares a wanted hash against.
func (s *Store) UserVersion(id string) (*content.User, string, error) {
	u, _, hash, err := s.readUser("fsstore.UserVersion", id)
	return u, hash, err
}

// staleVersion is the Conflict error of a write whose wanted hash is not the current one.
func staleVersion(op, p, kind, want, cur string) error {
	return &content.Error{Kind: content.Conflict, Op: op, Path: p,
		Message: "The " + kind + " has been modified since it was loaded; reload it and try again",
		Details: ConflictDetails{SubmittedHash: want, CurrentHash: cur}}
}

// UpdateUser applies edit to the current record of user id and writes the result, reading,
// editing and writing under the users lock so that concurrent updates never write an old record
// back. A non-empty wantHash must equal the current version ([Store.UserVersion]), else the update
// is a Conflict error with [ConflictDetails]. An error from edit is returned and nothing is
// written; edit may read the store but must not write to it. Changing the email to one in use is
// a Conflict. It returns the user as written and its new version.
func (s *Store) UpdateUser(id, wantHash string, edit func(u *content.User) error) (*content.User, string, error) {
	const op = "fsstore.UpdateUser"
	if err := s.writable(op); err != nil {
		return nil, "", err
	}
	unlock := s.lock(usersLock)
	defer unlock()
	u, p, hash, err := s.readUser(op, id)
	if err != nil {
		return nil, "", err
	}
	if wantHash != "" && wantHash != hash {
		return nil, "", staleVersion(op, p, "user", wantHash, hash)
	}
	if err := edit(u); err != nil {
		return nil, "", err
	}
	u.ID = id // the file name is the id
	u.Email = NormalizeEmail(u.Email)
	if other, ok := s.userCache().byEmail[u.Email]; ok && other.ID != id {
		return nil, "", content.Conflictf(op, "User with email %q already exists", u.Email)
	}
	raw, err := formatUser(u)
	if err != nil {
		return nil, "", encodeFailed(op, id, err)
	}
	if err := atomicfile.Write(s.root, p, raw, atomicfile.Options{Perm: 0o600, NoSync: s.opts.NoSync}); err != nil {
		return nil, "", content.Internalf(op, p, err)
	}
	s.usersEpoch.Add(1)
	s.ix.PublishUsers()
	s.changed("Updated user "+id, p)
	return cloneUser(u), hashBytes(raw), nil
}

// DeleteUser removes a user file, or returns a NotFound error.
func (s *Store) DeleteUser(id string) error { return s.DeleteUserIf(id, nil) }

// DeleteUserIf removes a user file when check (if not nil) approves the current record; check
// runs under the users lock, so what it sees cannot change before the file is gone.
func (s *Store) DeleteUserIf(id string, check func(u *content.User) error) error {
	const op = "fsstore.DeleteUser"
	if err := s.writable(op); err != nil {
		return err
	}
	unlock := s.lock(usersLock)
	defer unlock()
	u, ok := s.userCache().byID[id]
	if !ok {
		return content.NotFoundf(op, id, "User %q not found", id)
	}
	if check != nil {
		if err := check(cloneUser(u)); err != nil {
			return err
		}
	}
	for _, ext := range []string{".yaml", ".yml"} {
		p := path.Join(s.opts.UsersDir, id+ext)
		err := atomicfile.Remove(s.root, p, atomicfile.Options{NoSync: s.opts.NoSync})
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			s.usersEpoch.Add(1)
			s.ix.PublishUsers()
			if err != nil {
				return content.Internalf(op, id, err)
			}
			s.changed("Deleted user "+id, p)
			return nil
		}
	}
	return content.NotFoundf(op, id, "User %q not found", id)
}
