package webtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/sessions"
	"cms/handlers/authn"
)

// Auth is the production authenticator for black-box tests of protected groups: an
// [authn.Authenticator] over a [sessions.Store] in a temporary folder, so requests go through the
// same carrier, session and role rules as in production. [Auth.Add] starts a session for a token
// the test names ([Token]) and a user holding the given roles. Users and roles live in memory, so
// a group's tests need not write users/ and resources/roles/ into their site (handlers/auth/authtest
// does, for the groups that read them).
type Auth struct {
	*authn.Authenticator
	// Sessions is the session store; revoking a user's sessions there signs the user out.
	Sessions *sessions.Store

	t   testing.TB
	dir string

	mu    sync.RWMutex
	users map[string]*content.User
	roles map[string]*content.Role
}

// NewAuth returns an authenticator with no sessions, closed when the test ends.
func NewAuth(t testing.TB) *Auth {
	t.Helper()
	a := &Auth{t: t, dir: t.TempDir(), users: map[string]*content.User{}, roles: map[string]*content.Role{}}
	ss, err := sessions.Open(sessions.Options{Dir: a.dir, SweepInterval: -1, MaxPerUser: -1, NoSync: true,
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("open sessions: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	auth, err := authn.NewAuthenticator(ss, userSource{a}, roleSource{a})
	if err != nil {
		t.Fatal(err)
	}
	a.Authenticator, a.Sessions = auth, ss
	return a
}

// Token returns a well-formed session token (64 hex digits) named by name, so tests can keep
// their callers' tokens in package-level variables: the same name gives the same token.
func Token(name string) string {
	sum := sha256.Sum256([]byte("webtest token " + name))
	return hex.EncodeToString(sum[:])
}

// Add starts a session for token (from [Token]) that authenticates userID, a user holding the
// given roles, and returns the token. A user or role added twice must be the same each time.
func (a *Auth) Add(token, userID string, roles ...*content.Role) string {
	a.t.Helper()
	u := &content.User{ID: userID, Email: userID + "@example.com", Name: userID, Roles: []string{}}
	for _, r := range roles {
		u.Roles = append(u.Roles, r.Handle)
	}
	a.mu.Lock()
	if old, ok := a.users[userID]; ok && !slices.Equal(old.Roles, u.Roles) {
		a.mu.Unlock()
		a.t.Fatalf("webtest.Auth: user %q added with roles %v and %v", userID, old.Roles, u.Roles)
	}
	for _, r := range roles {
		if old, ok := a.roles[r.Handle]; ok && !reflect.DeepEqual(old, r) {
			a.mu.Unlock()
			a.t.Fatalf("webtest.Auth: role %q added twice with different grants", r.Handle)
		}
		a.roles[r.Handle] = r
	}
	a.users[userID] = u
	a.mu.Unlock()
	// The session file in the format the store writes; only its name depends on the token.
	b, err := json.Marshal(map[string]string{"id": "webtest-" + token[:min(8, len(token))], "userId": userID,
		"expiresAt": time.Now().Add(sessions.DefaultDuration).UTC().Format(sessions.TimeFormat)})
	if err != nil {
		a.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a.dir, sessions.HashToken(token)+".json"), b, 0o600); err != nil {
		a.t.Fatal(err)
	}
	if _, err := a.Sessions.Validate(a.t.Context(), token); err != nil {
		a.t.Fatalf("webtest.Auth: token %q for %s: %v (make tokens with webtest.Token)", token, userID, err)
	}
	return token
}

// userSource and roleSource serve the users and roles of Add to the authenticator.
type userSource struct{ a *Auth }

func (s userSource) User(id string) (*content.User, error) {
	s.a.mu.RLock()
	defer s.a.mu.RUnlock()
	if u, ok := s.a.users[id]; ok {
		return u, nil
	}
	return nil, content.NotFoundf("webtest.User", id, "User %q not found", id)
}

type roleSource struct{ a *Auth }

func (s roleSource) Role(handle string) (*content.Role, error) {
	s.a.mu.RLock()
	defer s.a.mu.RUnlock()
	if r, ok := s.a.roles[handle]; ok {
		return r, nil
	}
	return nil, content.NotFoundf("webtest.Role", handle, "Role %q not found", handle)
}
