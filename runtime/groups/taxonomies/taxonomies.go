// Package taxonomies wires the CP taxonomies and terms group (handlers/taxonomies), a writer.
package taxonomies

import (
	"cms/content"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/taxonomies"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ taxonomies.Store = (*fsstore.Store)(nil)

// Group describes the CP taxonomies and terms group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "taxonomies", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return taxonomies.Prefixes() }

// Build builds the CP taxonomies and terms group.
func Build(s *wire.Services) (http.Handler, error) {
	return taxonomies.New(taxonomies.Deps{
		Store: s.Store,
		As:    func(ed content.Editor) taxonomies.Store { return s.Store.As(ed) },
		Auth:  s.Auth,
		Log:   s.Log.With("group", "taxonomies"),
	})
}
