// Package assetfiles wires the public asset file group (handlers/assetfiles), a read-only
// frontend.
package assetfiles

import (
	"net/http"

	"cms/content/fsstore"
	"cms/content/imaging"
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

// Build builds the asset file group. Image derivatives are kept in memory (the group's share of
// memory.cacheMiB) and, when the site folder is writable and transforms are configured, on disk
// under .cms/derivatives/.
func Build(s *wire.Services) (http.Handler, error) {
	c := s.Config
	log := s.Log.With("group", "assetfiles")
	dir := c.SiteDir
	if c.ReadOnly || (len(c.Assets.Transforms.Presets) == 0 && c.Assets.Transforms.SigningKey == "") {
		dir = "" // nothing to keep on disk (or no disk to keep it on)
	}
	tr, err := imaging.New(imaging.Options{
		MaxConcurrent: c.Assets.Transforms.MaxConcurrent,
		MemoryBytes:   s.CacheBytes(wire.CacheDerivatives),
		Dir:           dir,
		Log:           log,
	})
	if err != nil {
		return nil, err
	}
	s.OnClose(tr.Close)
	s.Caches.Register(wire.CacheDerivatives, tr.Cache())
	return assetfiles.New(assetfiles.Deps{
		Store:       s.Store,
		Log:         log,
		BasePath:    c.Public.BasePath,
		Transformer: tr,
		Presets:     c.Assets.Transforms.Presets,
		SigningKey:  []byte(c.Assets.Transforms.SigningKey),
	})
}
