// Package auth signs users in and out and tells a client whether its session is live:
//
//	POST /api/auth/login     {email, password} -> {token, expiresAt, user} and the cms_session cookie
//	POST /api/auth/logout    ends the current session and clears the cookie
//	GET  /api/auth/validate  {valid: true, userId} for a live session, else 401
//
// Callers here and in every other group are identified by [authn.Authenticator]: the token comes
// from "Authorization: Bearer" or, failing that, the cms_session cookie; validating it runs no
// scrypt and reads no file for a cached session.
//
// Of the three pluggable authentication contracts (README, auth.* keys), the group declares what login
// and logout need: [CredentialValidator] (driver) and [SessionStore] (store); the user provider
// is read by the driver and the authenticator. runtime/wire picks the implementations by their
// configured names. Logging in never rewrites the user file: the time of the last login lives
// in the session.
package auth

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

// CredentialValidator checks login credentials (the "driver" contract).
type CredentialValidator interface {
	// Validate returns the user the email and password belong to. It returns an Unauthenticated
	// error for an unknown email and a wrong password alike, taking the same time for both.
	Validate(ctx context.Context, email, password string) (*content.User, error)
}

// SessionStore is what login and logout need of the session store (the "store" contract).
type SessionStore interface {
	// CreateFor starts a session for the user, noting the client, and returns its token.
	CreateFor(ctx context.Context, userID string, client sessions.Client) (sessions.Token, sessions.Session, error)
	// Destroy ends the session of a token; an unknown token is not an error.
	Destroy(ctx context.Context, token string) error
}

// Limits bound failed logins within a sliding window; only failures count. Zero fields take the
// defaults. A client address is an IPv4 address or an IPv6 /64 ([web.ClientAddress]).
type Limits struct {
	PerEmail   int // failures per normalised email from one client address, then 429 (default 5)
	PerAddress int // failures per client address, all emails, then 429 (default 20)
	// PerAccount failures per email from any addresses slow its logins down: each waits Backoff
	// after the last failure, doubling per further PerAccount failures up to 8×. Nobody is
	// refused for them, so failures elsewhere never lock out the right password (default 20, 1s).
	PerAccount int
	Backoff    time.Duration
	Window     time.Duration // default 15 minutes
	MaxKeys    int           // keys tracked per counter, least recently used evicted (default 10000)
}

// Deps are the inputs of the group.
type Deps struct {
	Credentials CredentialValidator
	Sessions    SessionStore
	// Authenticator identifies callers: an [authn.Authenticator] over the same session store.
	Authenticator web.Authenticator
	// SecureCookies marks the session cookie Secure (production).
	SecureCookies bool
	Limits        Limits
	Log           *slog.Logger
	Now           func() time.Time
	// Sleep waits d or until ctx ends (the login backoff); nil uses a timer. Tests inject one
	// that advances their clock.
	Sleep func(ctx context.Context, d time.Duration) error
}

// maxLoginBody bounds the login request body.
const maxLoginBody = 16 << 10

type api struct {
	Deps
	limiter *limiter
}

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	var errs []error
	if d.Credentials == nil {
		errs = append(errs, errors.New("auth: Credentials is required"))
	}
	if d.Sessions == nil {
		errs = append(errs, errors.New("auth: Sessions is required"))
	}
	if d.Authenticator == nil {
		errs = append(errs, errors.New("auth: Authenticator is required"))
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
	if d.Sleep == nil {
		d.Sleep = sleepCtx
	}
	a := &api{Deps: d, limiter: newLimiter(d.Limits, d.Now, d.Sleep)}
	rt := web.NewRouter()
	rt.HandleFunc("POST /api/auth/login", a.login)
	rt.HandleFunc("POST /api/auth/logout", a.logout)
	rt.HandleFunc("GET /api/auth/validate", a.validate)
	rt.NotFound("/api/auth/")
	return rt, nil
}

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/auth/"} }
