package auth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"cms/content"
	"cms/content/access"
	"cms/content/sessions"
)

// CookieName is the session cookie.
const CookieName = "cms_session"

// SessionValidator is the part of a [SessionStore] the authenticator needs.
type SessionValidator interface {
	// Validate returns an Unauthenticated error for a missing, unknown or expired token.
	Validate(ctx context.Context, token string) (sessions.Session, error)
}

// UserSource is the part of a [UserProvider] the authenticator needs.
type UserSource interface {
	// User returns a NotFound error for an unknown id.
	User(id string) (*content.User, error)
}

// Authenticator identifies the caller of a request. It implements [web.Authenticator] and is
// built once per process and shared by every protected group.
type Authenticator struct {
	sessions SessionValidator
	users    UserSource
	roles    RoleSource
}

// NewAuthenticator returns an authenticator over a session store, the users and the roles.
func NewAuthenticator(s SessionValidator, u UserSource, r RoleSource) (*Authenticator, error) {
	if s == nil || u == nil || r == nil {
		return nil, errors.New("auth: NewAuthenticator needs sessions, users and roles")
	}
	return &Authenticator{sessions: s, users: u, roles: r}, nil
}

// TokenFrom returns the session token of a request: the Bearer token when an Authorization
// header carries one, else the cms_session cookie. viaCookie says which.
func TokenFrom(r *http.Request) (token string, viaCookie bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			if tok = strings.TrimSpace(tok); tok != "" {
				return tok, false
			}
		}
	}
	if c, err := r.Cookie(CookieName); err == nil && c.Value != "" {
		return c.Value, true
	}
	return "", false
}

// Authenticate implements [web.Authenticator]. It returns an Unauthenticated error when the
// request carries no token, or a token whose session is unknown, expired or whose user no longer
// exists.
func (a *Authenticator) Authenticate(r *http.Request) (*access.Principal, error) {
	const op = "auth.Authenticate"
	tok, viaCookie := TokenFrom(r)
	if tok == "" {
		return nil, content.Unauthenticatedf(op, "Authentication required")
	}
	sess, err := a.sessions.Validate(r.Context(), tok)
	if err != nil {
		return nil, err
	}
	u, err := a.users.User(sess.UserID)
	if err != nil {
		if content.IsNotFound(err) {
			return nil, content.Unauthenticatedf(op, "Invalid or expired session")
		}
		return nil, err
	}
	return &access.Principal{
		User:      u,
		Roles:     access.RolesFor(u, a.roles.Role),
		SessionID: sess.Hash,
		ViaCookie: viaCookie,
		ExpiresAt: sess.ExpiresAt.UTC().Format(sessions.TimeFormat),
	}, nil
}

// SessionCookie returns the cookie that carries a session token: HttpOnly, SameSite=Lax, Path=/,
// expiring with the session, and Secure when secure is set (production).
func SessionCookie(token string, expires time.Time, secure bool) *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: token, Path: "/", Expires: expires.UTC(),
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode}
}

// ClearCookie returns the cookie that removes the session cookie from the browser.
func ClearCookie(secure bool) *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: "", Path: "/", Expires: time.Unix(0, 0).UTC(), MaxAge: -1,
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode}
}
