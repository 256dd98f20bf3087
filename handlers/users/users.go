// Package users manages accounts and roles over the API:
//
//	GET    /api/users                   list users                      users:view
//	POST   /api/users                   create a user                   users:create
//	GET    /api/users/me                the caller                      signed in
//	GET    /api/users/capabilities      what the caller may do          signed in
//	GET    /api/users/{id}              one user                        users:view (or self)
//	PUT    /api/users/{id}              update a user                   users:edit (self: email, name, theme)
//	DELETE /api/users/{id}              delete a user (not oneself)     users:delete
//	POST   /api/users/{id}/password     change a password               self with the current one, or users:edit
//	GET    /api/users/{id}/sessions     live sessions (no tokens)       self, or users:edit
//	DELETE /api/users/{id}/sessions     end them all (self: all others) self, or users:edit
//	DELETE /api/users/{id}/sessions/{sid} end one session               self, or users:edit
//	GET    /api/roles[/{handle}]        list roles / one role           users:view
//	POST   /api/roles                   create a role                   users:edit
//	PUT    /api/roles/{handle}          update a role (not admin)       users:edit
//	DELETE /api/roles/{handle}          delete an unassigned role       users:delete
//	GET    /api/tokens                  list API tokens (no secrets)    tokens:view
//	POST   /api/tokens                  create an API token (shown once) tokens:create, and every grant of its role
//	DELETE /api/tokens/{id}             revoke an API token             tokens:delete
//
// "me" may stand for the caller's id in every /api/users/{id} path. Password hashes never leave
// the server. Changing a user's password, email or roles, or deleting the user, ends all of the
// user's sessions; when callers change their own credentials they get a fresh session (token in
// the body, cookie when they came with one) so they stay signed in.
//
// Every change applies to the record current under the store's lock, so overlapping updates
// never write an old copy back. GET of a user (or me) or a role sends an ETag; PUT with If-Match
// set to it is refused with 409 CONFLICT when the record changed meanwhile, and without If-Match
// the change applies to whatever is current.
//
// Least privilege (see privilege.go): only holders of the admin role assign it, and they may
// assign anything; others assign roles, create roles and change roles only within their own
// permissions, and change or delete only users who hold nothing they lack (403 otherwise).
// The last user with the admin role can neither lose it nor be deleted (409).
package users

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"cms/content"
	"cms/content/sessions"
	"cms/handlers/web"
)

// Store reads and writes users and roles.
type Store interface {
	// Users lists every user, sorted by id.
	Users() []*content.User
	// User returns a NotFound error for an unknown id.
	User(id string) (*content.User, error)
	// UserVersion returns a user read fresh from its file with its version (the ETag).
	UserVersion(id string) (*content.User, string, error)
	// CreateUser returns a Conflict error when the id or email is taken.
	CreateUser(u *content.User) error
	// UpdateUser applies edit to the current record under the store's lock and writes it,
	// returning the user and its new version. It returns a NotFound error for an unknown user,
	// and a Conflict error when wantHash is not empty and not the current version or when the
	// new email belongs to another user. An error of edit aborts the update.
	UpdateUser(id, wantHash string, edit func(u *content.User) error) (*content.User, string, error)
	// DeleteUserIf deletes a user when check approves its current record (under the store's
	// lock). It returns a NotFound error for an unknown id.
	DeleteUserIf(id string, check func(u *content.User) error) error
	// Roles lists every role, sorted by handle.
	Roles() []*content.Role
	// Role returns a NotFound error for an unknown handle.
	Role(handle string) (*content.Role, error)
	// RoleVersion returns a role read fresh from its file with its version (the ETag).
	RoleVersion(handle string) (*content.Role, string, error)
	// CreateRole returns a Conflict error when the role exists.
	CreateRole(r *content.Role) error
	// UpdateRole applies edit to the current role under the store's lock and writes it,
	// returning the role and its new version. It returns a NotFound error for an unknown role
	// and a Conflict error when wantHash is not empty and not the current version.
	UpdateRole(handle, wantHash string, edit func(r *content.Role) error) (*content.Role, string, error)
	// DeleteRole returns a NotFound error for an unknown role.
	DeleteRole(handle string) error
	// Collections lists the collection definitions (for per-collection capabilities).
	Collections() []*content.Collection
}

// Sessions is the part of the session store the group uses.
type Sessions interface {
	// CreateFor starts a session for a user, noting the client, and returns its token.
	CreateFor(ctx context.Context, userID string, client sessions.Client) (sessions.Token, sessions.Session, error)
	// RevokeUser ends every session of a user.
	RevokeUser(ctx context.Context, userID string) (int, error)
	// RevokeUserExcept ends every session of a user but the one whose hash is keep.
	RevokeUserExcept(ctx context.Context, userID, keep string) (int, error)
	// List returns the live sessions of a user, newest first.
	List(ctx context.Context, userID string) ([]sessions.Session, error)
	// RevokeID ends one session of a user by its public id; NotFound when the user has none such.
	RevokeID(ctx context.Context, userID, id string) (sessions.Session, error)
	// LastLogin reports the user's last login seen by this process, if any.
	LastLogin(userID string) (time.Time, bool)
}

// CredentialValidator checks a user's current password before a self-service change.
type CredentialValidator interface {
	// Validate returns the user the email and password belong to, or an Unauthenticated error.
	Validate(ctx context.Context, email, password string) (*content.User, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	// As returns the store whose writes are attributed to an editor (git sync); nil = Store.
	As          func(content.Editor) Store
	Sessions    Sessions
	Credentials CredentialValidator
	// Tokens, if set, serves /api/tokens (API tokens, tokens.go).
	Tokens Tokens
	Auth   web.Authenticator
	// SecureCookies marks a re-issued session cookie Secure (production).
	SecureCookies bool
	Log           *slog.Logger
	Now           func() time.Time
	// Unavailable are resources whose feature is switched off (seo.* of the configuration):
	// capabilities report every action on them false, whatever the roles grant.
	Unavailable []string
}

// maxBody bounds request bodies of the group.
const maxBody = 64 << 10

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	var errs []error
	if d.Store == nil {
		errs = append(errs, errors.New("users: Store is required"))
	}
	if d.Sessions == nil {
		errs = append(errs, errors.New("users: Sessions is required"))
	}
	if d.Credentials == nil {
		errs = append(errs, errors.New("users: Credentials is required"))
	}
	if d.Auth == nil {
		errs = append(errs, errors.New("users: Auth is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/users", a.list)
	rt.HandleFunc("POST /api/users", a.create)
	rt.HandleFunc("GET /api/users/me", a.me)
	// "me" stands for the caller's id in every /api/users/{id} path (pathID), so the literal
	// path, which ServeMux prefers to {id}, takes the other methods of {id} as well.
	rt.HandleFunc("PUT /api/users/me", asMe(a.update))
	rt.HandleFunc("DELETE /api/users/me", asMe(a.delete))
	rt.HandleFunc("GET /api/users/capabilities", a.capabilities)
	rt.HandleFunc("GET /api/users/{id}", a.get)
	rt.HandleFunc("PUT /api/users/{id}", a.update)
	rt.HandleFunc("DELETE /api/users/{id}", a.delete)
	rt.HandleFunc("POST /api/users/{id}/password", a.changePassword)
	rt.HandleFunc("GET /api/users/{id}/sessions", a.listSessions)
	rt.HandleFunc("DELETE /api/users/{id}/sessions", a.revokeSessions)
	rt.HandleFunc("DELETE /api/users/{id}/sessions/{sid}", a.revokeSession)
	rt.NotFound("/api/users/")
	rt.HandleFunc("GET /api/roles", a.listRoles)
	rt.HandleFunc("POST /api/roles", a.createRole)
	rt.HandleFunc("GET /api/roles/{handle}", a.getRole)
	rt.HandleFunc("PUT /api/roles/{handle}", a.updateRole)
	rt.HandleFunc("DELETE /api/roles/{handle}", a.deleteRole)
	rt.NotFound("/api/roles/")
	if d.Tokens != nil {
		rt.HandleFunc("GET /api/tokens", a.listTokens)
		rt.HandleFunc("POST /api/tokens", a.createToken)
		rt.HandleFunc("DELETE /api/tokens/{id}", a.revokeToken)
	} else {
		rt.NotFound("/api/tokens")
	}
	rt.NotFound("/api/tokens/")
	return rt, nil
}

// asMe serves /api/users/me with an endpoint of /api/users/{id}: the literal path has no {id}.
func asMe(f web.HandlerFunc) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		r.SetPathValue("id", "me")
		return f(w, r)
	}
}

// Prefixes are the path prefixes the group serves. Both the exact paths and the subtrees are
// listed, because a ServeMux prefix pattern "/api/users/" does not match "/api/users".
func Prefixes() []string {
	return []string{"/api/users", "/api/users/", "/api/roles", "/api/roles/", "/api/tokens", "/api/tokens/"}
}
