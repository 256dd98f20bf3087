package wire

import (
	"net/http"
	"sort"

	"cms/handlers/health"
	"cms/handlers/publicentries"
	"cms/handlers/web"
	"cms/runtime/config"
)

func sortStrings(s []string) { sort.Strings(s) }

func notFound() http.Handler {
	return web.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		return web.NotFound("Route not found: %s %s", r.Method, r.URL.Path)
	})
}

func healthPrefixes(config.Config) []string { return health.Prefixes() }

// Health builds the health group.
func Health(s *Services) (http.Handler, error) {
	c := s.Config
	w := !c.ReadOnly
	return health.New(health.Deps{
		Folders: []health.Folder{
			{Name: "content", Path: s.SitePath(c.ContentPath), Writable: w},
			{Name: "resources", Path: s.SitePath(c.ResourcesPath), Writable: w},
			{Name: "users", Path: s.SitePath(c.UsersPath), Writable: w},
		},
		Log:     s.Log.With("group", "health"),
		Now:     s.Now,
		Started: s.Started,
	})
}

func publicEntriesPrefixes(c config.Config) []string {
	return publicentries.Prefixes(c.Public.BasePath)
}

// PublicEntries builds the public entries group.
func PublicEntries(s *Services) (http.Handler, error) {
	return publicentries.New(publicentries.Deps{
		Store:    s.Store,
		Markdown: s.Markdown,
		Log:      s.Log.With("group", "publicentries"),
		BasePath: s.Config.Public.BasePath,
		Now:      s.Now,
	})
}
