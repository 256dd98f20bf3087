// Package site wires the site group (handlers/site): the public website, a read-only frontend
// that answers every path no other group claims (on Lambda, the $default route).
package site

import (
	"net/http"
	"path/filepath"
	"time"

	"cms/content/fsstore"
	"cms/content/imgurl"
	"cms/content/seo"
	"cms/handlers/site"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ site.Store = (*fsstore.Store)(nil)

// Group describes the site group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "site", Prefixes: Prefixes, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return site.Prefixes() }

// Build builds the site group.
func Build(s *wire.Services) (http.Handler, error) {
	c := s.Config
	// The store reads the Git-authored SEO documents once it implements seo.Docs; until then the
	// resolver works from the records alone.
	docs, _ := any(s.Store).(seo.Docs)
	on := c.SEO.Enabled
	return site.New(site.Deps{
		Store:    s.Store,
		Markdown: s.Markdown,
		Bodies:   wire.Bodies(s),
		SEO: seo.NewResolver(seo.Config{Enabled: on, Metadata: on && c.SEO.Metadata, StructuredData: on && c.SEO.StructuredData,
			AllowExternalCanonicals: c.SEO.AllowExternalCanonicals}, docs),
		Preview: wire.Preview(s),
		Sites:   c.ContentSites(),
		Views:   s.SitePath(filepath.Join(c.ResourcesPath, "views")),
		DataPaths: []string{s.SitePath(filepath.Join(c.ContentPath, "globals")), s.SitePath(filepath.Join(c.ContentPath, "navigation")),
			s.SitePath(filepath.Join(c.ContentPath, "taxonomies")), s.SitePath(filepath.Join(c.ContentPath, "settings.yaml"))},
		ReloadEvery:           reloadEvery(c),
		Flags:                 site.Flags{Metadata: on && c.SEO.Metadata, Sitemap: on && c.SEO.Sitemap, Robots: on && c.SEO.Robots, Humans: on && c.SEO.Humans},
		CacheControl:          c.Pages.CacheControl,
		ContentSecurityPolicy: c.Pages.ContentSecurityPolicy,
		AssetsPath:            "/assets",
		Images:                imgurl.Builder{Prefix: "/assets/", Key: []byte(c.Assets.Transforms.SigningKey), Presets: c.Assets.Transforms.Presets},
		Reserved:              []string{c.CP.Path, "/assets", "/api"},
		CacheBytes:            s.CacheBytes(wire.CacheSitePages),
		Caches:                s.Caches,
		Log:                   s.Log.With("group", "site"),
		Now:                   s.Now,
	})
}

// reloadEvery is how often the templates and the data files (globals, navigation, terms,
// settings) are checked for changes: five times a second while developing (an edit shows by
// the time a browser reloads; walking the folders on every request would cost more than
// serving a cached page), every second otherwise, without a restart either way.
func reloadEvery(c config.Config) time.Duration {
	if c.Production() {
		return time.Second
	}
	return 200 * time.Millisecond
}
