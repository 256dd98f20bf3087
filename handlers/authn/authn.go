// Package authn identifies the caller of an HTTP request: it reads the session token from its two
// carriers ("Authorization: Bearer" first, else the cms_session cookie), resolves it through
// [sessions.Resolver], and builds the session cookie. It belongs to no endpoint group, so every
// group may use it without linking another group's code.
package authn

import (
	"net/http"
	"time"

	"cms/content/access"
	"cms/content/sessions"
)

// CookieName is the session cookie.
const CookieName = sessions.CookieName

// Authenticator identifies the caller of a request. It implements web.Authenticator. (The
// runners build the same adapter in runtime/wire, which may import no handler package.)
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

// TokenFrom returns the session token of a request: the Bearer token when an Authorization
// header carries one, else the cms_session cookie. viaCookie says which.
func TokenFrom(r *http.Request) (token string, viaCookie bool) {
	var cookie string
	if c, err := r.Cookie(CookieName); err == nil {
		cookie = c.Value
	}
	return sessions.PickToken(r.Header.Get("Authorization"), cookie)
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
