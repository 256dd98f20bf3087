// Package assets wires the CP asset library group (handlers/assets), a writer.
package assets

import (
	"cms/content"
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/assets"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ assets.Store = (*fsstore.Store)(nil)

// Group describes the asset library group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "assets", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return assets.Prefixes() }

// Build builds the asset library group with the configured upload limits.
func Build(s *wire.Services) (http.Handler, error) {
	return assets.New(assets.Deps{
		Store:          s.Store,
		As:             func(ed content.Editor) assets.Store { return s.Store.As(ed) },
		Auth:           s.Auth,
		Log:            s.Log.With("group", "assets"),
		MaxUploadBytes: s.Config.Assets.MaxUploadBytes,
		AllowedTypes:   s.Config.Assets.AllowedTypes,
	})
}
