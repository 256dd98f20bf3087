// Package site wires the site group (handlers/site): the public website, a read-only frontend
// that answers every path no other group claims (on Lambda, the $default route).
package site

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"cms/content/fsstore"
	"cms/content/imgurl"
	"cms/content/pagecache"
	"cms/content/routing"
	"cms/content/seo"
	hpagecache "cms/handlers/pagecache"
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
	var upstream *url.URL
	if c.Site.Upstream != "" {
		u, err := config.ParseUpstream(c.Site.Upstream)
		if err != nil {
			return nil, fmt.Errorf("site.upstream: %w", err)
		}
		upstream = u
	}
	pages, err := site.New(site.Deps{
		Upstream:     upstream,
		Store:        s.Store,
		Markdown:     s.Markdown,
		Bodies:       wire.Bodies(s),
		SEO:          seo.NewResolver(c.SEOConfig(), docs),
		SocialImages: c.SEOConfig().SocialImages,
		Preview:      wire.Preview(s),
		Sites:        c.ContentSites(),
		Views:        s.SitePath(filepath.Join(c.ResourcesPath, "views")),
		DataPaths: []string{s.SitePath(filepath.Join(c.ContentPath, "globals")), s.SitePath(filepath.Join(c.ContentPath, "navigation")),
			s.SitePath(filepath.Join(c.ContentPath, "taxonomies")), s.SitePath(filepath.Join(c.ContentPath, "settings.yaml"))},
		ReloadEvery:           reloadEvery(c),
		Flags:                 site.Flags{Metadata: on && c.SEO.Metadata, Sitemap: on && c.SEO.Sitemap, Robots: on && c.SEO.Robots, Humans: on && c.SEO.Humans},
		CacheControl:          c.Pages.CacheControl,
		ContentSecurityPolicy: c.Pages.ContentSecurityPolicy,
		AssetsPath:            "/assets",
		Images:                imgurl.Builder{Prefix: "/assets/", Key: []byte(c.Assets.Transforms.SigningKey), Presets: c.Assets.Transforms.Presets},
		Reserved:              []string{c.CP.Path, "/assets", "/api"},
		CacheBytes:            s.CacheBytes(wire.CacheSitePages), // see static below
		Caches:                s.Caches,
		Log:                   s.Log.With("group", "site"),
		Now:                   s.Now,
	})
	if err != nil {
		return nil, err
	}
	h, err := public(s, static(s, pages))
	if err != nil {
		return nil, err
	}
	// The CP's cache warm (settings group) requests pages through this handler when the process
	// mounts both groups; a process without the website has none to warm with.
	_, _ = wire.Shared(s, wire.SiteHandlerKey, func() (http.Handler, error) { return h, nil })
	if rt, ok := pages.(interface{ Routes() []string }); ok {
		return routed{h, rt}, nil
	}
	return h, nil
}

// routed is the wrapped site handler, still listing the site's routes (the route tests).
type routed struct {
	http.Handler
	rt interface{ Routes() []string }
}

func (r routed) Routes() []string { return r.rt.Routes() }

// static puts the static page cache (staticCache.enabled) in front of rendering, behind the
// redirects. The site's own page cache stays: a page the static cache stores renders afresh
// (so that its reads are recorded) and is kept only there; the requests the static cache lets
// through (cookies, credentials, prefetches) are the ones the site's cache still serves.
// Public forms carry no per-response token (the honeypot is empty in every page), so no
// placeholder needs filling.
func static(s *wire.Services, next http.Handler) http.Handler {
	if s.StaticCache == nil {
		return next
	}
	c := s.Config
	// One notifier per process (its webhook queue), whichever group builds it first.
	_, _ = wire.Shared(s, "static.notifier", func() (*hpagecache.Notifier, error) {
		n := hpagecache.NewNotifier(c.StaticCache.PurgeWebhook, s.Log.With("component", "static-cache"), nil)
		s.OnClose(func() error { n.Close(); return nil })
		s.OnStaticCachePurge(n.Report)
		return n, nil
	})
	sites := routing.NewSites(c.ContentSites())
	hosts := map[string]bool{}
	for _, st := range sites.List() {
		if u, err := url.Parse(st.URL); err == nil {
			hosts[normalHost(u.Host)] = true
		}
	}
	return hpagecache.Wrap(next, hpagecache.Config{
		Cache: s.StaticCache,
		Rules: &pagecache.Rules{Exclude: c.StaticCache.Exclude, Reserved: []string{c.CP.Path, "/assets", "/api"},
			QueryStrings: c.StaticCache.QueryStrings},
		// A host no site names would render the default site: such requests are not stored.
		// Neither are paths the trailing-slash policy moves: keys do not tell /x from /x/, and
		// the page handler answers those with the redirect.
		Site: func(r *http.Request) (string, bool) {
			st, rest, inside := sites.Select(r.Host, r.URL.EscapedPath())
			_, moved := st.CanonicalRequest(rest)
			return st.Handle, inside && !moved && hosts[normalHost(r.Host)]
		},
		Log: s.Log.With("component", "static-cache"),
	})
}

// normalHost lower-cases a host and drops an explicit default port (as routing.Sites does).
func normalHost(h string) string {
	h = strings.ToLower(h)
	if p, ok := strings.CutSuffix(h, ":80"); ok {
		return p
	}
	if p, ok := strings.CutSuffix(h, ":443"); ok {
		return p
	}
	return h
}

// public puts the SEO operations in front of page rendering: authored redirects are answered
// before a page renders, and the pages answered 404 are recorded (each nil when off).
func public(s *wire.Services, next http.Handler) (http.Handler, error) {
	rs, err := seoops.Redirects(s)
	if err != nil {
		return nil, err
	}
	nf, err := seoops.NotFound(s)
	if err != nil {
		return nil, err
	}
	// Typed nils would read as "on" behind the interfaces.
	var lookup site.RedirectLookup
	if rs != nil {
		lookup = rs
	}
	var rec site.NotFoundRecorder
	if nf != nil {
		rec = nf
	}
	sites := routing.NewSites(s.Config.ContentSites())
	siteOf := func(r *http.Request) string {
		st, _, _ := sites.Select(r.Host, r.URL.EscapedPath())
		return st.Handle
	}
	return site.Public(next, siteOf, lookup, rec, s.Config.CP.Path), nil
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
