// Package navigation wires the CP navigation group (handlers/navigation), a writer.
package navigation

import (
	"cms/content"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/navigation"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ navigation.Store = (*fsstore.Store)(nil)

// Group describes the CP navigation group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "navigation", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return navigation.Prefixes() }

// Build builds the CP navigation group.
func Build(s *wire.Services) (http.Handler, error) {
	return navigation.New(navigation.Deps{
		Store: s.Store,
		As:    func(ed content.Editor) navigation.Store { return s.Store.As(ed) },
		Auth:  s.Auth,
		Log:   s.Log.With("group", "navigation"),
	})
}
