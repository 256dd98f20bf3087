// Package globals wires the CP globals group (handlers/globals), a writer.
package globals

import (
	"cms/content"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/globals"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ globals.Store = (*fsstore.Store)(nil)

// Group describes the CP globals group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "globals", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return globals.Prefixes() }

// Build builds the CP globals group.
func Build(s *wire.Services) (http.Handler, error) {
	return globals.New(globals.Deps{
		Store: s.Store,
		As:    func(ed content.Editor) globals.Store { return s.Store.As(ed) },
		Auth:  s.Auth,
		Log:   s.Log.With("group", "globals"),
	})
}
