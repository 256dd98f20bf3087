// Package users wires the users and roles group (handlers/users), a writer.
package users

import (
	"cms/content"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/users"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ users.Store = (*fsstore.Store)(nil)

// Group describes the users group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "users", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves: /api/users, /api/roles and /api/tokens, exact and
// subtree.
func Prefixes(config.Config) []string { return users.Prefixes() }

// Build builds the users group. Password changes check the current password with the
// configured credential driver; credential changes revoke sessions in the shared session store.
func Build(s *wire.Services) (http.Handler, error) {
	st, err := wire.Sessions(s)
	if err != nil {
		return nil, err
	}
	creds, err := wire.Credentials(s)
	if err != nil {
		return nil, err
	}
	return users.New(users.Deps{
		Store:         s.Store,
		As:            func(ed content.Editor) users.Store { return s.Store.As(ed) },
		Sessions:      st,
		Credentials:   creds,
		Tokens:        st,
		Auth:          s.Auth,
		SecureCookies: s.Config.Production(),
		Log:           s.Log.With("group", "users"),
		Now:           s.Now,
		Unavailable:   s.Config.SEOUnavailable(),
	})
}
