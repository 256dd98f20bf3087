package hookrun

import (
	"fmt"
	"strings"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/validate"
)

// Site is what [Problems] reads.
type Site interface {
	FormDefs() []*content.FormDef
	Blueprint(kind, handle string) (*content.Blueprint, error)
	Blueprints(kind string) []*content.Blueprint
	// HookMeta returns an error when no hook of that name is installed.
	HookMeta(name string) (*content.Hook, error)
	ResourcePath(p ...string) string
}

var _ Site = (*fsstore.Store)(nil)

// Problems lists what stops forms and hook rules from working, for the forms group's start-up
// log and `cms check`: forms whose blueprint is missing or does not load (they answer 500
// FORM_MISCONFIGURED), and blueprints of the given kinds that call hooks that are not installed
// (their saves and submissions get 503 HOOK_UNAVAILABLE).
func Problems(st Site, kinds ...string) []fsstore.Problem {
	var out []fsstore.Problem
	for _, def := range st.FormDefs() {
		if _, err := st.Blueprint(content.BlueprintForms, def.Blueprint); err != nil {
			out = append(out, fsstore.Problem{File: st.ResourcePath("forms", def.Handle+".yaml"),
				Message: fmt.Sprintf("blueprint %q is missing or does not load: the form answers 500 FORM_MISCONFIGURED", def.Blueprint)})
		}
	}
	for _, kind := range kinds {
		for _, bp := range st.Blueprints(kind) {
			var missing []string
			for _, h := range validate.HookNames(bp.Fields()) {
				if _, err := st.HookMeta(h); err != nil {
					missing = append(missing, h)
				}
			}
			if len(missing) > 0 {
				out = append(out, fsstore.Problem{File: st.ResourcePath("blueprints", kind, bp.Handle+".yaml"),
					Message: fmt.Sprintf("validation hook(s) %s not installed: saves and submissions get 503 HOOK_UNAVAILABLE (install with cms hooks push)",
						strings.Join(missing, ", "))})
			}
		}
	}
	return out
}
