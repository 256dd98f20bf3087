package sessions

import (
	"context"

	"cms/content"
	"cms/content/access"
)

// TokenValidator is the part of a session store a [Resolver] needs.
type TokenValidator interface {
	// Validate returns an Unauthenticated error for a missing, unknown or expired token.
	Validate(ctx context.Context, token string) (Session, error)
}

// UserSource finds users by id (the "yaml" user provider, the store's users/ folder).
type UserSource interface {
	// User returns a NotFound error for an unknown id.
	User(id string) (*content.User, error)
}

// RoleSource finds role definitions.
type RoleSource interface {
	// Role returns a NotFound error for an unknown handle.
	Role(handle string) (*content.Role, error)
}

// Resolver turns a session token into the caller: the session, its user and the user's roles.
// handlers/authn, the one HTTP adapter, reads the token from a request and asks a Resolver.
type Resolver struct {
	sessions TokenValidator
	users    UserSource
	roles    RoleSource
}

// NewResolver returns a resolver over a session store, the users and the roles.
func NewResolver(s TokenValidator, u UserSource, r RoleSource) (*Resolver, error) {
	if s == nil || u == nil || r == nil {
		return nil, content.Invalidf("sessions.NewResolver", "sessions, users and roles are required")
	}
	return &Resolver{sessions: s, users: u, roles: r}, nil
}

// Principal returns the caller a token stands for. It returns an Unauthenticated error when
// the token is empty, or its session is unknown or expired, or its user no longer exists. It
// never runs scrypt, and reads at most one small file (none for a cached session).
func (r *Resolver) Principal(ctx context.Context, token string, viaCookie bool) (*access.Principal, error) {
	const op = "sessions.Principal"
	if token == "" {
		return nil, content.Unauthenticatedf(op, "Authentication required")
	}
	sess, err := r.sessions.Validate(ctx, token)
	if err != nil {
		return nil, err
	}
	u, err := r.users.User(sess.UserID)
	if err != nil {
		if content.IsNotFound(err) {
			return nil, content.Unauthenticatedf(op, "Invalid or expired session")
		}
		return nil, err
	}
	return &access.Principal{
		User:      u,
		Roles:     access.RolesFor(u, r.roles.Role),
		SessionID: sess.Hash,
		ViaCookie: viaCookie,
		ExpiresAt: sess.ExpiresISO(),
	}, nil
}
