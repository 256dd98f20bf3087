// Package forms wires the forms group (handlers/forms): form definitions, public submissions and
// the CP's submissions endpoints.
package forms

import (
	"net/http"
	"strings"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/validate"
	"cms/handlers/forms"
	"cms/runtime/config"
	"cms/runtime/hookhost"
	"cms/runtime/wire"
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
	return wire.Group{Name: "forms", Prefixes: Prefixes, Appends: true, Build: Build}
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
	for _, p := range Problems(s.Store, runner.Installed) {
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

// Problems lists what stops forms from taking submissions, for start-up and `cms check`: a
// missing blueprint, blueprint errors, and hooks named by form blueprints that are not
// installed. installed reports whether a hook is installed.
func Problems(st *fsstore.Store, installed func(string) bool) []fsstore.Problem {
	var out []fsstore.Problem
	for _, def := range st.FormDefs() {
		bpFile := st.ResourcePath("blueprints", content.BlueprintForms, def.Blueprint+".yaml")
		bp, err := st.Blueprint(content.BlueprintForms, def.Blueprint)
		if err != nil {
			out = append(out, fsstore.Problem{File: st.ResourcePath("forms", def.Handle+".yaml"),
				Message: "form " + def.Handle + ": blueprint " + def.Blueprint + " is missing or does not load (FORM_MISCONFIGURED)"})
			continue
		}
		for _, p := range forms.FormProblems(bp) {
			out = append(out, fsstore.Problem{File: bpFile, Message: p.String()})
		}
		var missing []string
		for _, h := range validate.HookNames(bp.Fields()) {
			if !installed(h) {
				missing = append(missing, h)
			}
		}
		if len(missing) > 0 {
			out = append(out, fsstore.Problem{File: bpFile, Message: "form " + def.Handle + " calls validation hooks that are not installed: " +
				strings.Join(missing, ", ") + " (submissions get 503 HOOK_UNAVAILABLE; install with cms hooks push)"})
		}
	}
	return out
}
