// Package site wires the site group (handlers/site): the public website, a read-only frontend
// that answers every path no other group claims (on Lambda, the $default route).
package site

import (
	"net/http"
	"path/filepath"
	"time"

	"cms/content/fsstore"
	"cms/content/routing"
	"cms/content/seo"
	"cms/handlers/seopublic"
	"cms/handlers/site"
	"cms/runtime/config"
	"cms/runtime/seoops"
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
	h, err := site.New(site.Deps{
		Store:    s.Store,
		Markdown: s.Markdown,
		SEO: seo.NewResolver(seo.Config{Enabled: on, Metadata: on && c.SEO.Metadata, StructuredData: on && c.SEO.StructuredData,
			AllowExternalCanonicals: c.SEO.AllowExternalCanonicals}, docs),
		Sites: c.ContentSites(),
		Views: s.SitePath(filepath.Join(c.ResourcesPath, "views")),
		DataPaths: []string{s.SitePath(filepath.Join(c.ContentPath, "globals")), s.SitePath(filepath.Join(c.ContentPath, "navigation")),
			s.SitePath(filepath.Join(c.ContentPath, "taxonomies")), s.SitePath(filepath.Join(c.ContentPath, "settings.yaml"))},
		ReloadEvery:           reloadEvery(c),
		Flags:                 site.Flags{Metadata: on && c.SEO.Metadata, Sitemap: on && c.SEO.Sitemap, Robots: on && c.SEO.Robots, Humans: on && c.SEO.Humans},
		CacheControl:          c.Pages.CacheControl,
		ContentSecurityPolicy: c.Pages.ContentSecurityPolicy,
		AssetsPath:            "/assets",
		Reserved:              []string{c.CP.Path, "/assets", "/api"},
		CacheBytes:            s.CacheBytes(wire.CacheSitePages),
		Caches:                s.Caches,
		Log:                   s.Log.With("group", "site"),
		Now:                   s.Now,
	})
	if err != nil {
		return nil, err
	}
	return withSEO(s, h)
}

// withSEO runs the authored redirects before the pages and records the paths answered 404, as
// seoops says the site group does; each is left out while its feature is off.
func withSEO(s *wire.Services, h http.Handler) (http.Handler, error) {
	rs, err := seoops.Redirects(s)
	if err != nil {
		return nil, err
	}
	nf, err := seoops.NotFound(s)
	if err != nil {
		return nil, err
	}
	// Typed nils must not become non-nil interfaces.
	var look seopublic.Lookuper
	if rs != nil {
		look = rs
	}
	var rec seopublic.Recorder
	if nf != nil {
		rec = nf
	}
	sites := routing.NewSites(s.Config.ContentSites())
	siteOf := func(r *http.Request) string {
		st, _, _ := sites.Select(r.Host, r.URL.EscapedPath())
		return st.Handle
	}
	out := seopublic.Public(h, siteOf, look, rec, s.Config.CP.Path)
	if rt, ok := h.(interface{ Routes() []string }); ok {
		return routed{out, rt}, nil // the route table stays visible to the route tests
	}
	return out, nil
}

// routed is a wrapped handler that still lists the inner handler's routes.
type routed struct {
	http.Handler
	rt interface{ Routes() []string }
}

// Routes returns the inner handler's route table.
func (r routed) Routes() []string { return r.rt.Routes() }

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
