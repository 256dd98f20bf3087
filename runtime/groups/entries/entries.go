// Package entries wires the CP entries and collections group (handlers/entries), a writer.
package entries

import (
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/entries"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ entries.Store = (*fsstore.Store)(nil)

// Group describes the entries group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "entries", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return entries.Prefixes() }

// Build builds the CP entries and collections group. Hooks stays nil until the WASM hook
// host is built; blueprints that call a hook then refuse saves with HOOK_UNAVAILABLE.
func Build(s *wire.Services) (http.Handler, error) {
	return entries.New(entries.Deps{
		Store: s.Store,
		Auth:  s.Auth,
		Log:   s.Log.With("group", "entries"),
		Now:   s.Now,
	})
}
