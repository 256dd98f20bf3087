package wire

import (
	"fmt"

	"cms/content/fsstore"
	"cms/content/preview"
	"cms/content/sessions"
	"cms/handlers/authn"
)

// The three pluggable authentication contracts (README, auth.* keys) are chosen here by
// their configured names, with an explicit switch (no registry): auth.driver (credential
// validation), auth.store (sessions) and auth.provider (users). config.Load already refuses
// unknown names; the switches refuse them again so a Config built by hand cannot slip through.
// Each returns the implementation it chose; the interfaces are declared by their consumers
// (handlers/auth, handlers/users, content/sessions), so none is repeated here.

// sessionsKey is the Shared key of the process's session store.
const sessionsKey = "auth.sessions"

// Users returns the user provider chosen by auth.provider.
func Users(s *Services) (*fsstore.Store, error) {
	switch s.Config.Auth.Provider {
	case "yaml":
		return s.Store, nil
	}
	return nil, fmt.Errorf("auth.provider: unknown user provider %q (available: yaml)", s.Config.Auth.Provider)
}

// Credentials returns the credential validator chosen by auth.driver.
func Credentials(s *Services) (*sessions.PasswordValidator, error) {
	users, err := Users(s)
	if err != nil {
		return nil, err
	}
	switch s.Config.Auth.Driver {
	case "password":
		return sessions.NewPasswordValidator(users, 0), nil
	}
	return nil, fmt.Errorf("auth.driver: unknown credential driver %q (available: password)", s.Config.Auth.Driver)
}

// Sessions returns the process's session store chosen by auth.store, built once (its cache of
// validated sessions and its sweep belong to the process) and closed with the services.
func Sessions(s *Services) (*sessions.Store, error) {
	return Shared(s, sessionsKey, func() (*sessions.Store, error) {
		c := s.Config.Auth
		switch c.Store {
		case "file":
		default:
			return nil, fmt.Errorf("auth.store: unknown session store %q (available: file)", c.Store)
		}
		st, err := sessions.Open(sessions.Options{
			Root:     s.Store.Root(),
			Dir:      c.SessionsDir, // relative to the site folder, or absolute
			Duration: c.SessionDuration,
			ReadOnly: s.Config.ReadOnly,
			Log:      s.Log.With("component", "sessions"),
			Now:      s.Now,
		})
		if err != nil {
			return nil, fmt.Errorf("auth.storeConfig.sessionsDir: %w", err)
		}
		s.OnClose(st.Close)
		return st, nil
	})
}

// buildAuth fills s.Auth with the one HTTP adapter, [authn.Authenticator], over the chosen
// session store and user provider and the site's roles. Nothing is read from disk: the sessions
// folder is created on the first login, and a session file is read on the first request that
// carries its token.
func buildAuth(s *Services) error {
	st, err := Sessions(s)
	if err != nil {
		return err
	}
	users, err := Users(s)
	if err != nil {
		return err
	}
	a, err := authn.NewAuthenticator(st, users, s.Store)
	if err != nil {
		return err
	}
	s.Auth = a
	return nil
}

// previewKey is the Shared key of the process's preview signer.
const previewKey = "preview.signer"

// Preview returns the process's draft-preview signer (content/preview), built once: the CP API
// issues tokens with it, and the public API (and the website) verify them.
func Preview(s *Services) *preview.Signer {
	p, _ := Shared(s, previewKey, func() (*preview.Signer, error) {
		return preview.New(s.Store.Root(), s.Config.ReadOnly, s.Now), nil
	})
	return p
}
