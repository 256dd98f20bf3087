package wire

import (
	"fmt"
	"log/slog"
	"strings"

	"cms/content/fsstore"
	"cms/content/pagecache"
	"cms/runtime/config"
)

// CacheStaticPages names the static page cache in the readiness details.
const CacheStaticPages = "static.pages"

// openStaticCache builds the static page cache (staticCache.enabled; nil when off) and points
// the store's content changes at its purges: it runs before the store opens, so every change
// (API writes, hand edits, other processes') purges exactly the pages that read what changed.
func openStaticCache(s *Services, cfg config.Config, opts *fsstore.Options, log *slog.Logger) error {
	if !cfg.StaticCache.Enabled {
		return nil
	}
	var d pagecache.Driver
	switch cfg.StaticCache.Driver {
	case "file":
		f, err := pagecache.OpenFile(sitePath(cfg.SiteDir, cfg.StaticCache.StoragePath), pagecache.FileOptions{})
		if err != nil {
			return fmt.Errorf("static cache: %w", err)
		}
		s.OnClose(f.Close)
		d = f
	default:
		d = pagecache.NewMemory(cfg.StaticCache.MaxBytes)
	}
	rules := make([]pagecache.InvalidationRule, len(cfg.StaticCache.InvalidationRules))
	for i, r := range cfg.StaticCache.InvalidationRules {
		rules[i] = pagecache.InvalidationRule{Collection: r.Collection, URLs: r.URLs}
	}
	sites := cfg.ContentSites()
	c, err := pagecache.New(pagecache.Options{
		Driver:            d,
		InvalidationRules: rules,
		// A purge reports full URLs on the site's origin (what a CDN purges).
		URL: func(site, path string) string {
			for _, st := range sites {
				if st.Handle == site {
					return strings.TrimSuffix(st.URL, st.BasePath()) + path
				}
			}
			return path
		},
		// The site group reports purges (log line, webhook: handlers/pagecache.Notifier), so
		// that the core every Lambda function links carries no handler.
		OnPurge: func(urls []string) {
			if f := s.purged.Load(); f != nil {
				(*f)(urls)
			}
		},
		Log: log,
	})
	if err != nil {
		return fmt.Errorf("static cache: %w", err)
	}
	s.StaticCache = c
	s.Caches.Register(CacheStaticPages, c)
	upstream := cfg.Site.Upstream != ""
	opts.OnContentChange = func(ch fsstore.Change) {
		change := pagecache.StoreChange(string(ch.Kind), ch.Collection, ch.Name)
		if upstream && change.Kind != pagecache.ChangeEntry {
			// A headless frontend's pages record nothing they read: a global, navigation or
			// term may show on any of them (entries purge theirs by invalidationRules).
			change = pagecache.Change{Kind: pagecache.ChangeAll}
		}
		c.Purge(change)
	}
	return nil
}

// OnStaticCachePurge sets what hears each purge of the static cache that removed pages.
func (s *Services) OnStaticCachePurge(f func(urls []string)) { s.purged.Store(&f) }
