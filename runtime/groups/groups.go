// Package groups lists every endpoint group. It imports every group's builder package, so only
// the local runner, the generators and tests import it; a Lambda main imports its own
// runtime/groups/<group> package instead (see the cms/runtime/wire package doc for why).
package groups

import (
	"net/http"

	"cms/runtime/groups/assetfiles"
	"cms/runtime/groups/assets"
	"cms/runtime/groups/auth"
	"cms/runtime/groups/cp"
	"cms/runtime/groups/entries"
	"cms/runtime/groups/forms"
	"cms/runtime/groups/git"
	"cms/runtime/groups/globals"
	"cms/runtime/groups/graphql"
	"cms/runtime/groups/health"
	"cms/runtime/groups/hooks"
	"cms/runtime/groups/navigation"
	"cms/runtime/groups/publicentries"
	"cms/runtime/groups/seo"
	"cms/runtime/groups/settings"
	"cms/runtime/groups/site"
	"cms/runtime/groups/taxonomies"
	"cms/runtime/groups/users"
	"cms/runtime/wire"
)

// All returns every endpoint group, in mount order. Adding a group here without a Lambda main
// and infra template entries fails runtime/lambda's and infra's tests: run
// go generate ./runtime/lambda.
func All() []wire.Group {
	return []wire.Group{
		health.Group(),
		publicentries.Group(),
		auth.Group(),
		users.Group(),
		entries.Group(),
		globals.Group(),
		navigation.Group(),
		taxonomies.Group(),
		assets.Group(),
		assetfiles.Group(),
		settings.Group(),
		graphql.Group(),
		forms.Group(),
		hooks.Group(),
		git.Group(),
		seo.Group(),
		cp.Group(),
		site.Group(),
	}
}

// Mux mounts every group on one mux, as the local server serves them.
func Mux(s *wire.Services) (http.Handler, error) { return wire.Mount(s, All()...) }
