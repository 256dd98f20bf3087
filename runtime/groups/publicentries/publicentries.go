// Package publicentries wires the public entries group (handlers/publicentries), a read-only
// frontend.
package publicentries

import (
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/publicentries"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ publicentries.Store = (*fsstore.Store)(nil)

// Group describes the public entries group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "publicentries", Prefixes: Prefixes, Build: Build}
}

// Prefixes are the paths the group serves under the configured public base path.
func Prefixes(c config.Config) []string { return publicentries.Prefixes(c.Public.BasePath) }

// Build builds the public entries group.
func Build(s *wire.Services) (http.Handler, error) {
	return publicentries.New(publicentries.Deps{
		Store:    s.Store,
		Markdown: s.Markdown,
		Log:      s.Log.With("group", "publicentries"),
		BasePath: s.Config.Public.BasePath,
		// Each cache within its share of memory.cacheMiB.
		CacheBytes:     s.CacheBytes(wire.CachePublicEntries),
		ListCacheBytes: s.CacheBytes(wire.CachePublicLists),
		Caches:         s.Caches,
		Sites:          s.Config.ContentSites(),
	})
}
