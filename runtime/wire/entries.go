package wire

import (
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/entries"
	"cms/runtime/config"
)

var _ entries.Store = (*fsstore.Store)(nil)

func entriesPrefixes(config.Config) []string { return entries.Prefixes() }

// Entries builds the CP entries and collections group. Hooks stays nil until the WASM hook
// host is built; blueprints that call a hook then refuse saves with HOOK_UNAVAILABLE.
func Entries(s *Services) (http.Handler, error) {
	return entries.New(entries.Deps{
		Store: s.Store,
		Auth:  s.Auth,
		Log:   s.Log.With("group", "entries"),
		Now:   s.Now,
	})
}
