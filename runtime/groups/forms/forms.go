// Package forms wires the forms group (handlers/forms): form definitions, public submissions and
// the CP's submissions endpoints.
package forms

import (
	"net/http"
	"strings"

	"cms/content"
	"cms/content/fsstore"
	"cms/handlers/forms"
	"cms/handlers/web"
	"cms/runtime/config"
	"cms/runtime/hookhost"
	"cms/runtime/wire"
	"cms/wasmhooks/hookrun"
)

var (
	_ forms.Definitions = (*fsstore.Store)(nil)
	_ forms.Submissions = (*fsstore.Store)(nil)
)

// Group describes the forms group for the runners. Submitting only ever creates new, uniquely
// named files, and deleting a submission removes one such file without reading or rewriting
// anything, so no request of the group needs the single writer's lock: it may scale out
// (Appends) rather than run as the one writer.
func Group() wire.Group {
	return wire.Group{Name: "forms", Prefixes: Prefixes, Appends: true, Build: Build, CORS: corsMode}
}

// corsMode admits cross-origin submissions like any public route; the definitions and the
// submissions endpoints stay the Control Panel's.
func corsMode(path string) web.CORSMode {
	if strings.HasSuffix(path, "/submit") {
		return web.CORSPublic
	}
	return web.CORSPrivate
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return forms.Prefixes() }

// Build builds the forms group, logging once every form that cannot take submissions.
func Build(s *wire.Services) (http.Handler, error) {
	runner, err := hookhost.Runner(s)
	if err != nil {
		return nil, err
	}
	log := s.Log.With("group", "forms")
	for _, p := range problems(s.Store) {
		log.Error("form cannot accept submissions", "file", p.File, "problem", p.Message)
	}
	origins := make([]string, 0, len(s.Config.Sites))
	for _, site := range s.Config.Sites {
		origins = append(origins, site.URL)
	}
	return forms.New(forms.Deps{
		Definitions:  s.Store,
		Submissions:  s.Store,
		Hooks:        runner,
		Auth:         s.Auth,
		RateLimit:    s.Config.Forms.RateLimit,
		MaxBodyBytes: s.Config.Forms.MaxBodyBytes,
		SiteOrigins:  origins,
		Locale:       defaultLocale(s.Config),
		Log:          log,
		Now:          s.Now,
	})
}

func defaultLocale(c config.Config) string {
	if len(c.Sites) > 0 && c.Sites[0].Locale != "" {
		return c.Sites[0].Locale
	}
	return "en"
}

// problems lists what stops forms from taking submissions: what [hookrun.Problems] finds for
// forms (a missing blueprint, hooks that are not installed), and the errors in each form's
// blueprint.
func problems(st *fsstore.Store) []fsstore.Problem {
	out := hookrun.Problems(st, content.BlueprintForms)
	for _, def := range st.FormDefs() {
		bp, err := st.Blueprint(content.BlueprintForms, def.Blueprint)
		if err != nil {
			continue // reported by hookrun.Problems
		}
		bpFile := st.ResourcePath("blueprints", content.BlueprintForms, def.Blueprint+".yaml")
		for _, p := range forms.FormProblems(bp) {
			out = append(out, fsstore.Problem{File: bpFile, Message: p.String()})
		}
	}
	return out
}
