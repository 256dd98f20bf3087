// Package health wires the health group (handlers/health): liveness and readiness of the
// storage folders, the store's count of list queries by how its index answered them, and its
// background work.
package health

import (
	"net/http"

	"cms/handlers/health"
	"cms/runtime/config"
	"cms/runtime/wire"
)

// Group describes the health group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "health", Prefixes: Prefixes, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return health.Prefixes() }

// Build builds the health group.
func Build(s *wire.Services) (http.Handler, error) {
	c := s.Config
	w := !c.ReadOnly
	var probes []health.Probe
	if s.Git != nil {
		probes = append(probes, health.Probe{Name: "git", Check: s.Git.Problem})
	}
	var queries func() health.QueryStats
	var background func() []string
	if s.Store != nil {
		queries = func() health.QueryStats { return health.QueryStats(s.Store.QueryStats()) }
		background = s.Store.Background
	}
	return health.New(health.Deps{
		Probes: probes,
		Folders: []health.Folder{
			{Name: "content", Path: s.SitePath(c.ContentPath), Writable: w},
			{Name: "resources", Path: s.SitePath(c.ResourcesPath), Writable: w},
			{Name: "users", Path: s.SitePath(c.UsersPath), Writable: w},
		},
		Log:        s.Log.With("group", "health"),
		Now:        s.Now,
		Started:    s.Started,
		Caches:     s.Caches,
		Queries:    queries,
		Background: background,
	})
}
