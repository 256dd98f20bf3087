package sessions

import (
	"context"
	"strings"

	"cms/content"
	"cms/content/access"
)

// CookieName is the session cookie of browser clients.
const CookieName = "cms_session"

// PickToken chooses the session token of a request from its Authorization header and its
// cms_session cookie value: a Bearer token wins (API clients), else the cookie (browsers);
// viaCookie says which, because cookie sessions are subject to the same-origin rule. This is the
// one place the carrier rule lives; HTTP adapters only read the two values.
func PickToken(authorization, cookie string) (token string, viaCookie bool) {
	if authorization != "" {
		scheme, tok, ok := strings.Cut(authorization, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			if tok = strings.TrimSpace(tok); tok != "" {
				return tok, false
			}
		}
	}
	if cookie != "" {
		return cookie, true
	}
	return "", false
}

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
// HTTP adapters (handlers/auth, runtime/wire) wrap it to implement web.Authenticator.
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
