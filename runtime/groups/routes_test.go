package groups_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cms/content/codegen"
	"cms/content/contenttest"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/wire"
)

// routeTable is what every group's handler offers: its web.Router's route table.
type routeTable interface{ Routes() []string }

var wildcard = regexp.MustCompile(`\{[^}]*\}`)

// TestEveryRouteIsServed walks the route table of every group, mounted as the local server mounts
// them, and sends each route one request: it must reach its endpoint, not the router's 404 or
// 405, so a route outside its group's prefixes or hidden behind another pattern fails here.
func TestEveryRouteIsServed(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\n")
	s := startServices(t, dir, nil, nil)

	tables := map[string][]string{}
	all := groups.All()
	for i := range all {
		g, build := all[i].Name, all[i].Build
		all[i].Build = func(s *wire.Services) (http.Handler, error) {
			h, err := build(s)
			if h == nil || err != nil {
				t.Fatalf("group %s: handler %v, error %v (every group is on by default)", g, h, err)
			}
			rt, ok := h.(routeTable)
			if !ok {
				t.Fatalf("group %s: handler %T has no route table (use web.Router)", g, h)
			}
			tables[g] = rt.Routes()
			return h, nil
		}
	}
	mux, err := wire.Mount(s, all...)
	if err != nil {
		t.Fatal(err)
	}

	for _, g := range all {
		if len(tables[g.Name]) == 0 {
			t.Errorf("group %s: empty route table", g.Name)
		}
		for _, route := range tables[g.Name] {
			method, path, _ := strings.Cut(route, " ")
			path = wildcard.ReplaceAllString(strings.TrimSuffix(path, "{$}"), "x") // {$} only ends a path
			w := httptest.NewRecorder()
			mux.ServeHTTP(w, httptest.NewRequest(method, path, nil))
			body := w.Body.String()
			if w.Code == http.StatusMethodNotAllowed || w.Code == http.StatusNotFound &&
				(strings.Contains(body, "Route not found") || strings.Contains(body, "404 page not found")) {
				t.Errorf("group %s: %s (as %s %s) is not served: %d %s", g.Name, route, method, path, w.Code, body)
			}
		}
	}

	for _, want := range []string{"GET /api/users/me", "GET /api/users/capabilities"} {
		if !slices.Contains(tables["users"], want) {
			t.Errorf("users route table lacks %s:\n%s", want, strings.Join(tables["users"], "\n"))
		}
	}
}

// TestEveryRouteIsDocumented: every route in every group's route table is in the OpenAPI
// document's route list (content/codegen/openapi_routes.go), and every documented route is
// served, so the document can neither miss an endpoint nor describe one that is gone. A new
// route fails here, once, until its line is added there (see docs/generate.md).
func TestEveryRouteIsDocumented(t *testing.T) {
	t.Parallel()
	for _, conf := range []string{"watch: none\n", "watch: none\npublic:\n  basePath: /content\ngraphql:\n  path: /gql\n"} {
		checkRoutesDocumented(t, conf)
	}
}

func checkRoutesDocumented(t *testing.T, conf string) {
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\n"+conf)
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	documented := map[string]bool{}
	for _, r := range codegen.Routes {
		documented[codegen.RoutePattern(r, cfg.Public.BasePath, cfg.GraphQL.Path)] = true
	}
	served := map[string]bool{}
	var missing []string
	for _, g := range groups.All() {
		h, err := g.Build(s)
		if err != nil || h == nil {
			t.Fatalf("group %s: %v", g.Name, err)
		}
		rt, ok := h.(routeTable)
		if !ok {
			t.Fatalf("group %s: handler %T has no route table", g.Name, h)
		}
		for _, route := range rt.Routes() {
			served[route] = true
			if !documented[route] {
				missing = append(missing, g.Name+": "+route)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("%s: routes missing from the OpenAPI route list (add a line each to content/codegen/openapi_routes.go):\n  %s", strings.TrimSpace(conf), strings.Join(missing, "\n  "))
	}
	var gone []string
	for r := range documented {
		if !served[r] {
			gone = append(gone, r)
		}
	}
	slices.Sort(gone)
	if len(gone) > 0 {
		t.Errorf("documented routes no group serves (remove them from content/codegen/openapi_routes.go):\n  %s", strings.Join(gone, "\n  "))
	}
}
