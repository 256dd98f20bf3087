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

// APITokenValidator is the part of a session store that knows API tokens ([Store] is one).
type APITokenValidator interface {
	// ValidateAPIToken returns an Unauthenticated error for an unknown, revoked or expired token.
	ValidateAPIToken(ctx context.Context, token string) (APIToken, error)
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
	if IsAPIToken(token) {
		return r.tokenPrincipal(ctx, token, viaCookie)
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

// tokenPrincipal returns the caller an API token stands for: its role, and never more than its
// creator can do now. A creator who was deleted, or lost a permission of the token's role,
// takes the token's power with them (401 until the permission returns or the token is revoked).
func (r *Resolver) tokenPrincipal(ctx context.Context, token string, viaCookie bool) (*access.Principal, error) {
	const op = "sessions.Principal"
	v, ok := r.sessions.(APITokenValidator)
	if viaCookie || !ok {
		return nil, content.Unauthenticatedf(op, "API tokens are sent as Authorization: Bearer")
	}
	rec, err := v.ValidateAPIToken(ctx, token)
	if err != nil {
		return nil, err
	}
	var roles []*content.Role
	role, err := r.roles.Role(rec.Role)
	switch {
	case err == nil:
		roles = []*content.Role{role}
	case !content.IsNotFound(err):
		return nil, err
	} // a deleted role grants nothing, as for users
	if rec.CreatedBy != "" {
		u, err := r.users.User(rec.CreatedBy)
		if err != nil {
			if content.IsNotFound(err) {
				return nil, content.Unauthenticatedf(op, "The API token's creator no longer exists")
			}
			return nil, err
		}
		creator := &access.Principal{User: u, Roles: access.RolesFor(u, r.roles.Role)}
		if role != nil && len(creator.MissingForRole(role)) > 0 {
			return nil, content.Unauthenticatedf(op, "The API token's role now exceeds its creator's permissions")
		}
	}
	return &access.Principal{
		User:      &content.User{ID: "token:" + rec.ID, Name: rec.Name, Roles: []string{rec.Role}},
		Roles:     roles,
		TokenID:   rec.ID,
		ExpiresAt: rec.ExpiresAt,
	}, nil
}
