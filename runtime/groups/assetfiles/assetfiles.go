// Package assetfiles wires the public asset file group (handlers/assetfiles), a read-only
// frontend.
package assetfiles

import (
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/assetfiles"
	"cms/runtime/config"
	"cms/runtime/wire"
)

var _ assetfiles.Store = (*fsstore.Store)(nil)

// Group describes the asset file group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "assetfiles", Prefixes: Prefixes, Build: Build, CORS: wire.CORSPublic}
}

// Prefixes are the paths the group serves: /assets/ and the public API's assets path.
func Prefixes(c config.Config) []string { return assetfiles.Prefixes(c.Public.BasePath) }

// Build builds the asset file group.
func Build(s *wire.Services) (http.Handler, error) {
	return assetfiles.New(assetfiles.Deps{
		Store:    s.Store,
		Log:      s.Log.With("group", "assetfiles"),
		BasePath: s.Config.Public.BasePath,
	})
}
