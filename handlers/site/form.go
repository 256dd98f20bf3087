package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"sort"
	"strings"

	"cms/content"
)

// formField is one input of a rendered form.
type formField struct {
	ID, Name, Label, Instructions, Type, Value string
	Required, Checked, Multiline, Select       bool
	Options                                    []formOption
	Errors                                     []string
	Pattern                                    string
}

// DescribedBy lists the ids of what describes the input for a screen reader: its help text
// (shown for every type but a checkbox), then its error.
func (f formField) DescribedBy() string {
	var ids []string
	if f.Instructions != "" && f.Type != "checkbox" {
		ids = append(ids, f.ID+"-help")
	}
	if len(f.Errors) > 0 {
		ids = append(ids, f.ID+"-error")
	}
	return strings.Join(ids, " ")
}

type formOption struct {
	Value, Label string
	Selected     bool
}

type formData struct {
	Handle, Title, Action string
	Honeypot              bool
	Success               bool
	Failed                bool
	Code                  string
	Fields                []formField
}

var formTemplate = template.Must(template.New("form").Parse(`<form class="cms-form" method="post" action="{{.Action}}" accept-charset="utf-8">
{{- if .Success}}
<p class="cms-form-success" role="status">Thank you: your message was sent.</p>
{{- else if .Failed}}
<p class="cms-form-error" role="alert">{{if eq .Code "VALIDATION_ERROR"}}Please check the fields marked below.{{else if eq .Code "RATE_LIMITED"}}Too many messages were sent: please try again in a minute.{{else}}Your message could not be sent: please try again.{{end}}</p>
{{- end}}
{{- range .Fields}}
<div class="cms-field{{if .Errors}} cms-field-invalid{{end}}">
{{- if eq .Type "checkbox"}}
<input type="hidden" name="{{.Name}}" value="false">
<input type="checkbox" id="{{.ID}}" name="{{.Name}}" value="true"{{if .Checked}} checked{{end}}{{if .Errors}} aria-invalid="true"{{end}}{{with .DescribedBy}} aria-describedby="{{.}}"{{end}}>
<label for="{{.ID}}">{{.Label}}{{if .Required}} <span class="cms-required" aria-hidden="true">*</span>{{end}}</label>
{{- else}}
<label for="{{.ID}}">{{.Label}}{{if .Required}} <span class="cms-required" aria-hidden="true">*</span>{{end}}</label>
{{- if .Instructions}}
<p class="cms-help" id="{{.ID}}-help">{{.Instructions}}</p>
{{- end}}
{{- if .Multiline}}
<textarea id="{{.ID}}" name="{{.Name}}" rows="6"{{if .Required}} required{{end}}{{if .Errors}} aria-invalid="true"{{end}}{{with .DescribedBy}} aria-describedby="{{.}}"{{end}}>{{.Value}}</textarea>
{{- else if .Select}}
<select id="{{.ID}}" name="{{.Name}}"{{if .Required}} required{{end}}{{if .Errors}} aria-invalid="true"{{end}}{{with .DescribedBy}} aria-describedby="{{.}}"{{end}}>
<option value="">Choose…</option>
{{- range .Options}}
<option value="{{.Value}}"{{if .Selected}} selected{{end}}>{{.Label}}</option>
{{- end}}
</select>
{{- else}}
<input type="{{.Type}}" id="{{.ID}}" name="{{.Name}}" value="{{.Value}}"{{if .Required}} required{{end}}{{if .Errors}} aria-invalid="true"{{end}}{{with .DescribedBy}} aria-describedby="{{.}}"{{end}}>
{{- end}}
{{- end}}
{{- if .Errors}}
<p class="cms-field-error" id="{{.ID}}-error">{{range $i, $e := .Errors}}{{if $i}} {{end}}{{$e}}{{end}}</p>
{{- end}}
</div>
{{- end}}
{{- if .Honeypot}}
<div class="cms-hp" hidden>
<label for="{{.Handle}}-hp">Leave this field empty</label>
<input type="text" id="{{.Handle}}-hp" name="_honeypot" value="" tabindex="-1" autocomplete="off">
</div>
{{- end}}
<button type="submit">Send</button>
</form>
`))

// form "contact" .: the form rendered from its blueprint (labels, required markers, the
// honeypot). After a browser post the forms group redirects back with
// ?form=&status=&errors=&old=; the page then shows the outcome, each field's messages and the
// values the visitor sent.
func (f *funcs) form(h any, p *Page) (template.HTML, error) {
	handle, ok := h.(string)
	if !ok || !content.ValidHandle(handle) {
		return "", fmt.Errorf("form: %v is not a form handle", h)
	}
	def, err := f.s.Store.FormDef(handle)
	if err != nil {
		return "", fmt.Errorf("form %q: %w", handle, err)
	}
	bp, err := f.s.Store.Blueprint(content.BlueprintForms, def.Blueprint)
	if err != nil {
		return "", fmt.Errorf("form %q: blueprint %q: %w", handle, def.Blueprint, err)
	}
	d := formData{Handle: def.Handle, Title: def.Title, Action: f.s.FormsPath + "/" + def.Handle + "/submit", Honeypot: def.Honeypot}
	var fieldErrs map[string][]string
	var old map[string]string
	if p != nil && p.Query.Get("form") == def.Handle {
		switch p.Query.Get("status") {
		case "ok":
			d.Success = true
		case "error":
			d.Failed, d.Code = true, p.Query.Get("code")
			_ = json.Unmarshal([]byte(p.Query.Get("errors")), &fieldErrs)
			_ = json.Unmarshal([]byte(p.Query.Get("old")), &old)
		}
	}
	for _, fl := range bp.Fields() {
		if fl.Handle == "" || fl.Type == "hidden" || fl.Type == "section" {
			continue
		}
		ff := formField{ID: def.Handle + "-" + fl.Handle, Name: fl.Handle, Label: fl.Display, Instructions: fl.Instructions,
			Required: fl.Required || has(fl.Validate, "required"), Errors: fieldErrs[fl.Handle]}
		if ff.Label == "" {
			ff.Label = fl.Handle
		}
		if s, ok := fl.Default.(string); ok {
			ff.Value = s
		}
		v, sent := old[fl.Handle]
		if sent {
			ff.Value = v
		}
		switch fl.Type {
		case "textarea", "markdown", "code":
			ff.Multiline = true
		case "select", "radio":
			ff.Select = true
			ff.Options = options(fl, ff.Value)
		case "toggle":
			ff.Type = "checkbox"
			ff.Checked = fl.Default == true
			if sent {
				ff.Checked = v == "true" || v == "on" || v == "1"
			}
		case "integer", "float":
			ff.Type = "number"
		case "date":
			ff.Type = "date"
		default:
			ff.Type = "text"
			if has(fl.Validate, "email") {
				ff.Type = "email"
			} else if has(fl.Validate, "url") {
				ff.Type = "url"
			}
		}
		d.Fields = append(d.Fields, ff)
	}
	var b bytes.Buffer
	if err := formTemplate.Execute(&b, d); err != nil {
		return "", err
	}
	return template.HTML(b.String()), nil
}

func has(rules []string, name string) bool {
	for _, r := range rules {
		if r == name || strings.HasPrefix(r, name+":") {
			return true
		}
	}
	return false
}

// options reads a select's choices: a list of values or {value, label}, or a map of value to
// label.
func options(f content.Field, selected string) []formOption {
	src, ok := f.Options.Get("options")
	if !ok || src == nil {
		src = f.Options.Value("choices")
	}
	var out []formOption
	add := func(v, l string) {
		if l == "" {
			l = v
		}
		out = append(out, formOption{Value: v, Label: l, Selected: v == selected})
	}
	switch x := src.(type) {
	case []any:
		for _, it := range x {
			if m, ok := it.(*content.Map); ok {
				v, _ := m.Value("value").(string)
				l, _ := m.Value("label").(string)
				add(v, l)
				continue
			}
			add(fmt.Sprint(it), "")
		}
	case *content.Map:
		keys := append([]string(nil), x.Keys()...)
		if len(keys) > 0 && x.Value(keys[0]) == nil {
			sort.Strings(keys)
		}
		for _, k := range keys {
			l, _ := x.Value(k).(string)
			add(k, l)
		}
	}
	return out
}
