// Package graphql wires the GraphQL group (handlers/graphql), a read-only frontend that scales
// out. graphql.enabled: false leaves it unmounted, so its path answers 404.
package graphql

import (
	"net/http"

	"cms/content/fsstore"
	"cms/content/seo"
	gqlh "cms/handlers/graphql"
	"cms/handlers/web"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ gqlh.Store = (*fsstore.Store)(nil)

// Group describes the GraphQL group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "graphql", Prefixes: Prefixes, Build: Build,
		CORS: func(string) web.CORSMode { return web.CORSAuthenticated }}
}

// Prefixes are the paths the group serves: exactly the configured endpoint.
func Prefixes(c config.Config) []string { return gqlh.Prefixes(c.GraphQL.Path) }

// Build builds the GraphQL group, or returns nil when configuration disables it.
func Build(s *wire.Services) (http.Handler, error) {
	c := s.Config.GraphQL
	if !c.Enabled {
		return nil, nil
	}
	d := gqlh.Deps{
		Store:    s.Store,
		Auth:     s.Auth,
		Markdown: s.Markdown,
		Log:      s.Log.With("group", "graphql"),
		Config: gqlh.Config{
			Enabled:       true,
			Introspection: c.Introspection,
			Path:          c.Path,
			MaxDepth:      c.MaxDepth,
			MaxComplexity: c.MaxComplexity,
			Timeout:       c.Timeout,
			MaxBodyBytes:  c.MaxBodyBytes,
			// Each cache within its share of memory.cacheMiB.
			CacheBytes:         s.CacheBytes(wire.CacheGraphQL),
			DocumentCacheBytes: s.CacheBytes(wire.CacheGraphQLDocs),
		},
		Caches: s.Caches,
		// GraphQL is not chosen by Host: entry urls are links on the default site.
		Site: s.Config.SEOSite(),
	}
	if seoConfig := s.Config.SEOConfig(); seoConfig.Enabled {
		seoConfig.Log = s.Log.With("group", "graphql")
		d.SEO = seo.NewResolver(seoConfig, s.Store)
	}
	return gqlh.New(d)
}
