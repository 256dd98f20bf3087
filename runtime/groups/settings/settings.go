// Package settings wires the CP settings group (handlers/settings), a writer.
package settings

import (
	"context"
	"net/http"
	"sync"

	"cms/content"
	"cms/content/fsstore"
	"cms/handlers/settings"
	"cms/runtime/cachewarm"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ settings.Store = (*fsstore.Store)(nil)

// warmConcurrency is the pages a CP warm requests at once: the website keeps serving meanwhile.
const warmConcurrency = 2

// Group describes the CP settings group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "settings", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return settings.Prefixes() }

// Build builds the CP settings group.
func Build(s *wire.Services) (http.Handler, error) {
	d := settings.Deps{
		Store: s.Store,
		As:    func(ed content.Editor) settings.Store { return s.Store.As(ed) },
		Auth:  s.Auth,
		Log:   s.Log.With("group", "settings"),
	}
	if s.StaticCache != nil { // a nil *pagecache.Cache would be a non-nil interface
		d.PageCache = s.StaticCache
		d.Warm = warmer(s)
	}
	return settings.New(d)
}

// warmer requests the site's pages through the website in this process (the one whose static
// cache serves them), one warm at a time: a second request while one runs is 409 CONFLICT.
func warmer(s *wire.Services) func(context.Context) (settings.WarmResult, error) {
	var running sync.Mutex
	return func(ctx context.Context) (settings.WarmResult, error) {
		if !running.TryLock() {
			return settings.WarmResult{}, &content.Error{Kind: content.Conflict, Code: "CONFLICT", Op: "cache.warm", Message: "A warm of the static cache is already running"}
		}
		defer running.Unlock()
		// The website this process serves (registered by the site group when it is mounted);
		// a process without it (a Lambda settings function) has no pages to warm here.
		site, err := wire.Shared(s, wire.SiteHandlerKey, func() (http.Handler, error) {
			return nil, &content.Error{Kind: content.Conflict, Code: "DISABLED", Op: "cache.warm",
				Message: "This process does not serve the website; warm the cache where it does (cms cache warm)"}
		})
		if err != nil {
			return settings.WarmResult{}, err
		}
		targets, err := cachewarm.Targets(s, "")
		if err != nil {
			return settings.WarmResult{}, err
		}
		res, err := cachewarm.Run(ctx, site, targets, warmConcurrency, nil)
		if err != nil {
			return settings.WarmResult{}, err
		}
		return settings.WarmResult{Requested: res.Requested, Stored: res.Stored, Cached: res.Cached, Failed: len(res.Failed)}, nil
	}
}
