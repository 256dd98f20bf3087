package forms

import (
	"fmt"
	"net/http"
	"strings"
	"sync"

	"cms/content"
	"cms/content/validate"
	"cms/handlers/web"
)

// form is a form definition prepared for requests: its blueprint's fields, what is wrong with
// them, the hooks they call and the public view. It is rebuilt when definitions change.
type form struct {
	def    *content.FormDef
	fields []content.Field
	hooks  []string // hook names the fields call, sorted
	broken error    // FORM_MISCONFIGURED when the blueprint is missing or has errors
	public *PublicForm
}

// PublicForm is what anonymous clients see of a form: enough to render it, nothing stored.
type PublicForm struct {
	Handle   string `json:"handle"`
	Title    string `json:"title"`
	Display  string `json:"display"`
	Honeypot bool   `json:"honeypot"`
	// Fields are the fields a public form can render, as in the blueprint.
	Fields []content.Field `json:"fields"`
	// OmittedFields counts optional fields of types a public form cannot render (asset,
	// entries, taxonomy, replicator, grid, blocks); they are left out of Fields.
	OmittedFields int `json:"omittedFields"`
}

// renderable are the field types a public form can render.
var renderable = map[string]bool{
	"text": true, "number": true, "date": true, "toggle": true, "select": true, "multiselect": true,
	"markdown": true, "tiptap": true, "code": true, "yaml": true, "hidden": true,
}

// formCache keeps prepared forms for one generation of the definitions.
type formCache struct {
	defs  Definitions
	mu    sync.Mutex
	gen   uint64
	forms map[string]*form
}

func newFormCache(d Definitions) *formCache { return &formCache{defs: d, forms: map[string]*form{}} }

// get returns the prepared form, or a NotFound error.
func (c *formCache) get(handle string) (*form, error) {
	gen := c.defs.DefinitionsGeneration()
	c.mu.Lock()
	if gen != c.gen {
		c.gen, c.forms = gen, map[string]*form{}
	}
	f, ok := c.forms[handle]
	c.mu.Unlock()
	if ok {
		return f, nil
	}
	def, err := c.defs.FormDef(handle)
	if err != nil {
		return nil, err
	}
	f = prepare(def, c.defs)
	c.mu.Lock()
	if c.gen == gen {
		c.forms[handle] = f
	}
	c.mu.Unlock()
	return f, nil
}

// prepare checks a form's blueprint and builds its public view.
func prepare(def *content.FormDef, defs Definitions) *form {
	f := &form{def: def}
	bp, err := defs.Blueprint(content.BlueprintForms, def.Blueprint)
	if err != nil {
		f.broken = misconfigured(def, fmt.Sprintf("its blueprint %q is missing or does not load", def.Blueprint), err)
		return f
	}
	if problems := FormProblems(bp); len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.String()
		}
		f.broken = misconfigured(def, "its blueprint has errors", fmt.Errorf("%s", strings.Join(msgs, "; ")))
		return f
	}
	f.fields = bp.Fields()
	f.hooks = validate.HookNames(f.fields)
	pub := &PublicForm{Handle: def.Handle, Title: def.Title, Display: def.Title, Honeypot: def.Honeypot, Fields: []content.Field{}}
	for _, fl := range f.fields {
		if renderable[fl.Type] {
			pub.Fields = append(pub.Fields, fl)
		} else {
			pub.OmittedFields++
		}
	}
	f.public = pub
	return f
}

// FormProblems returns the errors (not the warnings) [validate.CheckBlueprint] finds in a form
// blueprint: what makes a form refuse submissions with FORM_MISCONFIGURED.
func FormProblems(bp *content.Blueprint) []validate.Problem {
	var out []validate.Problem
	for _, p := range validate.CheckBlueprint(bp, content.BlueprintForms) {
		if !p.Warning {
			out = append(out, p)
		}
	}
	return out
}

func misconfigured(def *content.FormDef, why string, cause error) error {
	return &web.Error{Status: http.StatusInternalServerError, Code: CodeMisconfigured,
		Message: fmt.Sprintf("Form %q cannot accept submissions: %s (see the server log or run cms check)", def.Handle, why),
		Err:     fmt.Errorf("form %s: blueprint %s: %w", def.Handle, def.Blueprint, cause)}
}

// usable returns a form that can take submissions: 404 for an unknown form, 500
// FORM_MISCONFIGURED for a broken one.
func (a *api) usable(handle string) (*form, error) {
	f, err := a.forms.get(handle)
	if err != nil {
		return nil, err
	}
	if f.broken != nil {
		return nil, f.broken
	}
	return f, nil
}

// publicCache lets shared caches keep a form's definition briefly, like Madori's public endpoint.
const publicCache = "public, max-age=0, s-maxage=60"

// GET /api/forms: every usable form; broken ones are left out and logged.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	out := []*PublicForm{}
	for _, def := range a.Definitions.FormDefs() {
		f, err := a.forms.get(def.Handle)
		if err != nil {
			continue // removed since the listing
		}
		if f.broken != nil {
			// Logged at start-up and by cms check; a warning per request would flood the log.
			a.Log.Debug("form left out of the list", "form", def.Handle, "err", f.broken)
			continue
		}
		out = append(out, f.public)
	}
	w.Header().Set("Cache-Control", publicCache)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// GET /api/forms/{handle}: one form.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	f, err := a.usable(r.PathValue("handle"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", publicCache)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: f.public})
	return nil
}
