// Package settings wires the CP settings group (handlers/settings), a writer.
package settings

import (
	"cms/content"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/settings"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ settings.Store = (*fsstore.Store)(nil)

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
	}
	return settings.New(d)
}
