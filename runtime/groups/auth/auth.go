// Package auth wires the authentication group (handlers/auth): login, logout and session
// validation, a writer (it creates and removes session files).
package auth

import (
	"net/http"

	"cms/handlers/auth"
	"cms/runtime/config"
	"cms/runtime/wire"
)

// Group describes the auth group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "auth", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return auth.Prefixes() }

// Build builds the auth group over the process's session store and authenticator. The session
// cookie is Secure in production; failed logins are limited per email and per client address.
func Build(s *wire.Services) (http.Handler, error) {
	st, err := wire.Sessions(s)
	if err != nil {
		return nil, err
	}
	creds, err := wire.Credentials(s)
	if err != nil {
		return nil, err
	}
	c := s.Config.Auth
	return auth.New(auth.Deps{
		Credentials:   creds,
		Sessions:      st,
		Authenticator: s.Auth,
		SecureCookies: s.Config.Production(),
		Limits:        auth.Limits{PerEmail: c.MaxFailuresPerEmail, PerAddress: c.MaxFailuresPerAddress, Window: c.LoginWindow},
		Log:           s.Log.With("group", "auth"),
		Now:           s.Now,
	})
}
