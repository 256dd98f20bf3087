// Package authn is the one HTTP adapter of authentication: it reads the session token of a
// request from its two carriers ("Authorization: Bearer" first, else the cms_session cookie),
// resolves it to the caller through [sessions.Resolver], and builds the session cookie. A bearer
// credential starting with "cms_tok_" is an API token, which the same resolver checks against
// the hashed token file (never accepted from the cookie). The
// runners construct its [Authenticator] in runtime/wire, and the handler tests build the same one
// (webtest.NewAuth, authtest.New). It belongs to no endpoint group, so every group and every
// Lambda function may link it without linking another group's code.
package authn

import (
	"net/http"
	"strings"
	"time"

	"cms/content/access"
	"cms/content/sessions"
	"cms/handlers/web"
)

// CookieName is the session cookie of browser clients.
const CookieName = "cms_session"

// Authenticator identifies the caller of a request. It implements web.Authenticator.
type Authenticator struct {
	resolver *sessions.Resolver
}

// NewAuthenticator returns an authenticator over a session store, the users and the roles.
func NewAuthenticator(s sessions.TokenValidator, u sessions.UserSource, r sessions.RoleSource) (*Authenticator, error) {
	res, err := sessions.NewResolver(s, u, r)
	if err != nil {
		return nil, err
	}
	return &Authenticator{resolver: res}, nil
}

// TokenFrom returns the session token of a request: a Bearer token wins (API clients), else the
// cms_session cookie (browsers). viaCookie says which, because cookie sessions are subject to
// the same-origin rule (web.Authenticated).
func TokenFrom(r *http.Request) (token string, viaCookie bool) {
	if scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		if tok = strings.TrimSpace(tok); tok != "" {
			return tok, false
		}
	}
	if c, err := r.Cookie(CookieName); err == nil && c.Value != "" {
		return c.Value, true
	}
	return "", false
}

// Authenticate implements web.Authenticator. It returns an Unauthenticated error when the
// request carries no token, or a token whose session is unknown, expired or whose user no longer
// exists.
func (a *Authenticator) Authenticate(r *http.Request) (*access.Principal, error) {
	tok, viaCookie := TokenFrom(r)
	return a.resolver.Principal(r.Context(), tok, viaCookie)
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

// Client describes the caller for a new session: its User-Agent and client address, so that
// users can tell their sessions apart.
func Client(r *http.Request) sessions.Client {
	return sessions.Client{UserAgent: r.UserAgent(), Address: web.ClientAddress(r)}
}
