// Package publicentries wires the public entries group (handlers/publicentries), a read-only
// frontend.
package publicentries

import (
	"net/http"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/seo"
	"cms/handlers/apidoc"
	"cms/handlers/publicentries"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var (
	_ publicentries.Store         = (*fsstore.Store)(nil)
	_ publicentries.ResourceStore = (*fsstore.Store)(nil)
)

// Group describes the public entries group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "publicentries", Prefixes: Prefixes, Build: Build, CORS: wire.CORSPublic}
}

// Prefixes are the paths the group serves under the configured public base path.
func Prefixes(c config.Config) []string { return publicentries.Prefixes(c.Public.BasePath) }

// Build builds the public entries group.
func Build(s *wire.Services) (http.Handler, error) {
	seoConfig := s.Config.SEOConfig()
	seoConfig.Log = s.Log.With("group", "publicentries")
	site := s.Config.SEOSite()
	d := publicentries.Deps{
		Store:     s.Store,
		Markdown:  s.Markdown,
		Bodies:    wire.Bodies(s),
		Resources: s.Store,
		Preview:   wire.Preview(s),
		Log:       s.Log.With("group", "publicentries"),
		BasePath:  s.Config.Public.BasePath,
		// Each cache within its share of memory.cacheMiB.
		CacheBytes:     s.CacheBytes(wire.CachePublicEntries),
		ListCacheBytes: s.CacheBytes(wire.CachePublicLists),
		Caches:         s.Caches,
		APIDoc:         &apidoc.Doc{Defs: s.Store, PublicBasePath: s.Config.Public.BasePath, GraphQLPath: s.Config.GraphQL.Path, PublicOnly: true},
		Sites:          s.Config.ContentSites(),
	}
	if seoConfig.Enabled { // seo.enabled: false drops the seo member altogether
		d.SEO = seo.NewResolver(seoConfig, s.Store)
		d.Site = func(*http.Request) content.Site { return site }
	}
	return publicentries.New(d)
}
