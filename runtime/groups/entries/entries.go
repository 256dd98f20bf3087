// Package entries wires the CP entries and collections group (handlers/entries), a writer.
package entries

import (
	"cms/content"
	"errors"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/apidoc"
	"cms/handlers/entries"
	"cms/runtime/config"
	"cms/runtime/hookhost"
	"cms/runtime/seoops"
	"cms/runtime/wire"
)

var _ entries.Store = (*fsstore.Store)(nil)

// Group describes the entries group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "entries", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return entries.Prefixes() }

// Build builds the CP entries and collections group. Hook rules run on the process's shared
// WASM hook host; a blueprint that calls a hook that is not installed refuses saves with
// HOOK_UNAVAILABLE.
func Build(s *wire.Services) (http.Handler, error) {
	runner, err := hookhost.Runner(s)
	if err != nil {
		return nil, err
	}
	d := entries.Deps{
		Store: s.Store,
		As:    func(ed content.Editor) entries.Store { return s.Store.As(ed) },
		Auth:  s.Auth,
		Hooks: runner,
		// Draft previews, honoured by the public API at public.basePath.
		Preview:        wire.Preview(s),
		PublicBasePath: s.Config.Public.BasePath,
		// The CP's Markdown preview renders with the site's renderer and settings.
		Markdown: s.Markdown,
		Sites:    s.Config.ContentSites(),
		Log:      s.Log.With("group", "entries"),
		// Within its share of memory.cacheMiB.
		CacheBytes: s.CacheBytes(wire.CacheEntries),
		Caches:     s.Caches,
		APIDoc:     &apidoc.Doc{Defs: s.Store, PublicBasePath: s.Config.Public.BasePath, GraphQLPath: s.Config.GraphQL.Path},
	}
	rs, err := seoops.Redirects(s)
	if err != nil {
		return nil, err
	}
	if rs != nil {
		// An entry's public path is the same on every site, so each gets its 301.
		sites := s.Config.SEOSites()
		d.Moved = func(from, to string) error {
			var errs []error
			for _, site := range sites {
				if _, err := rs.Moved(site.Handle, from, to); err != nil {
					errs = append(errs, err)
				}
			}
			return errors.Join(errs...)
		}
	}
	return entries.New(d)
}
