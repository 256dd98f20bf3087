// Package cp wires the Control Panel group (handlers/cp): the editors' browser application at
// cp.path (default /cp). It serves embedded static files only and reads nothing from the site
// folder, so it is not a writer; the API groups it calls do the writing.
package cp

import (
	"net/http"

	"cms/handlers/cp"
	"cms/runtime/config"
	"cms/runtime/wire"
)

// Group describes the Control Panel group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "cp", Prefixes: Prefixes, Build: Build}
}

// Prefixes are the paths the group serves: cp.path and everything below it.
func Prefixes(c config.Config) []string { return cp.Prefixes(c.CP.Path) }

// Build builds the Control Panel, or returns nil when cp.enabled is false (a frontend-only
// deployment: spec rule 4), so that /cp is not mounted at all.
func Build(s *wire.Services) (http.Handler, error) {
	c := s.Config
	if !enabled(c) {
		return nil, nil
	}
	return cp.New(cp.Deps{
		Path:     c.CP.Path,
		BasePath: c.BasePath,
		Secure:   c.Production(),
		Log:      s.Log.With("group", "cp"),
	})
}

// enabled reports whether to serve the CP. A local server on a site folder it cannot write
// switches cp.enabled off (spec rule 4); a Lambda frontend keeps the deployment's setting
// (runtime/lambda/lambdamain), because the CP function only serves embedded files while the
// writer functions do the editing.
func enabled(c config.Config) bool { return c.CP.Enabled }
