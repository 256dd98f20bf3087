package validate

import (
	"fmt"
	"math"
	"slices"

	"cms/content"
)

// Problem is one mistake in a blueprint, found by CheckBlueprint.
type Problem struct {
	Path    string `json:"path"` // e.g. tabs.main.fields[2].field.validate[0]
	Message string `json:"message"`
	Code    string `json:"code"` // one of the Code constants
	// Warning marks a problem that does not make the blueprint unusable: a dangling visibility
	// reference, a rule that does not apply to its field type, a parameter on a rule without one.
	Warning bool `json:"warning,omitempty"`
}

// String writes the problem as "path: message (CODE)" for command-line output.
func (p Problem) String() string {
	s := p.Message + " (" + p.Code + ")"
	if p.Path != "" {
		s = p.Path + ": " + s
	}
	if p.Warning {
		s = "warning: " + s
	}
	return s
}

// HasErrors reports whether any problem is more than a warning.
func HasErrors(problems []Problem) bool {
	return slices.ContainsFunc(problems, func(p Problem) bool { return !p.Warning })
}

// CheckBlueprint checks a blueprint's structure, for `cms check` and start-up, and returns its
// problems in blueprint order; none means the blueprint is sound. kind is the blueprint's folder
// (content.BlueprintForms and so on); only forms restrict the field types, to those a public form
// can render:
//
//   - text, number, date, toggle, select, multiselect, markdown, tiptap, code, yaml, hidden;
//   - asset, entries, taxonomy, replicator, grid, blocks only when not required
//     (UNSUPPORTED_PUBLIC_FORM_FIELDS otherwise);
//   - anything else is INVALID_TYPE.
//
// Codes: MISSING_PROPERTY (no handle or type, an incomplete visibility rule), INVALID_TYPE,
// DUPLICATE_HANDLE, UNKNOWN_RULE, INVALID_RULE (a bad parameter or hook name), INVALID_OPTION
// (asset cardinality, select options, number integer), UNSUPPORTED_PUBLIC_FORM_FIELDS, and the
// warnings DANGLING_VISIBILITY_REF, INAPPLICABLE_RULE, and INVALID_RULE for a needless parameter
// or a length or count that is a fraction or negative.
func CheckBlueprint(bp *content.Blueprint, kind string) []Problem {
	if bp == nil {
		return []Problem{{Code: CodeMissingProperty, Message: "Blueprint is missing"}}
	}
	type located struct {
		f    content.Field
		path string
	}
	var all []located
	for _, t := range bp.Tabs {
		for i, f := range t.Fields {
			all = append(all, located{f, fmt.Sprintf("tabs.%s.fields[%d]", t.Handle, i)})
		}
		for _, s := range t.Sections {
			for i, f := range s.Fields {
				all = append(all, located{f, fmt.Sprintf("tabs.%s.sections.%s.fields[%d]", t.Handle, s.Handle, i)})
			}
		}
	}

	var ps []Problem
	add := func(path, code, format string, args ...any) {
		ps = append(ps, Problem{Path: path, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	firstSeen := make(map[string]string, len(all))
	for _, l := range all {
		if l.f.Handle == "" {
			continue
		}
		if first, dup := firstSeen[l.f.Handle]; dup {
			add(l.path+".handle", CodeDuplicateHandle, "Duplicate field handle %q (first seen at %s)", l.f.Handle, first)
			continue
		}
		firstSeen[l.f.Handle] = l.path
	}

	for _, l := range all {
		f, path := l.f, l.path
		if f.Handle == "" {
			add(path+".handle", CodeMissingProperty, "Field handle is required")
		}
		_, known := fieldShape(f.Type)
		switch {
		case f.Type == "":
			add(path+".field.type", CodeMissingProperty, "Field type is required")
		case !known:
			add(path+".field.type", CodeInvalidType, "Unknown field type %q", f.Type)
		case kind == content.BlueprintForms:
			ps = append(ps, checkFormType(f, path)...)
		}
		for j, s := range f.Validate {
			rpath := fmt.Sprintf("%s.field.validate[%d]", path, j)
			r, p := parseRule(s)
			if p != nil {
				ps = append(ps, Problem{Path: rpath, Code: p.code, Message: p.message, Warning: p.warning})
			}
			if !usable(p) || !known {
				continue
			}
			if !applies(r.name, f.Type) {
				ps = append(ps, Problem{Path: rpath, Code: CodeInapplicableRule, Warning: true,
					Message: fmt.Sprintf("Rule %q does not apply to field type %q and is ignored", r.name, f.Type)})
				continue
			}
			if m := countParamProblem(r, f.Type); m != "" {
				ps = append(ps, Problem{Path: rpath, Code: CodeInvalidRule, Warning: true, Message: m})
			}
		}
		ps = append(ps, checkOptions(f, path)...)
		if vis := f.Visibility; vis != nil {
			vpath := path + ".field.visibility"
			switch {
			case vis.Field == "":
				add(vpath+".field", CodeMissingProperty, "Visibility rule needs a field")
			case firstSeen[vis.Field] == "":
				ps = append(ps, Problem{Path: vpath + ".field", Code: CodeDanglingVisibility, Warning: true,
					Message: fmt.Sprintf("Visibility refers to field %q, which does not exist", vis.Field)})
			}
			switch vis.Operator {
			case "equals", "not_equals", "contains", "empty", "not_empty":
			default:
				add(vpath+".operator", CodeMissingProperty,
					"Unknown visibility operator %q; use equals, not_equals, contains, empty or not_empty", vis.Operator)
			}
		}
	}
	return ps
}

// countParamProblem flags a length or count rule whose parameter no length or count can meet
// exactly (a fraction, a negative). Only a warning: such a rule still works, just oddly.
func countParamProblem(r rule, typ string) string {
	switch r.name {
	case "min", "max", "size":
	default:
		return ""
	}
	unit := "characters"
	switch sh, _ := fieldShape(typ); sh {
	case shapeText:
	case shapeList:
		unit = "items"
	default:
		return ""
	}
	if r.n < 0 || r.n != math.Trunc(r.n) {
		return fmt.Sprintf("Rule %q counts %s on a %s field and needs a whole number, 0 or more", r.name, unit, typ)
	}
	return ""
}

// checkFormType checks that a public form can render a field of a known type.
func checkFormType(f content.Field, path string) []Problem {
	switch f.Type {
	case "text", "number", "date", "toggle", "select", "multiselect", "markdown", "tiptap", "code", "yaml", "hidden":
		return nil
	case "asset", "entries", "taxonomy", "replicator", "grid", "blocks":
		if isRequired(f) {
			return []Problem{{Path: path + ".field.required", Code: CodeUnsupportedFormField,
				Message: fmt.Sprintf("Field type %q cannot be required in a form: public forms cannot render it", f.Type)}}
		}
		return nil
	}
	return []Problem{{Path: path + ".field.type", Code: CodeInvalidType,
		Message: fmt.Sprintf("Field type %q is not allowed in form blueprints", f.Type)}}
}

// isRequired reports whether a field is required by its flag or a required rule.
func isRequired(f content.Field) bool {
	if f.Required {
		return true
	}
	for _, s := range f.Validate {
		if r, p := parseRule(s); usable(p) && r.name == "required" {
			return true
		}
	}
	return false
}

// checkOptions checks the options validation depends on.
func checkOptions(f content.Field, path string) []Problem {
	var ps []Problem
	add := func(key, format string, args ...any) {
		ps = append(ps, Problem{Path: path + ".field.options." + key, Code: CodeInvalidOption, Message: fmt.Sprintf(format, args...)})
	}
	switch f.Type {
	case "asset":
		maxN, maxSet, maxOK := optionInt(f.Options, "max_files")
		minN, minSet, minOK := optionInt(f.Options, "min_files")
		if maxSet && (!maxOK || maxN < 0) {
			add("max_files", "max_files must be a whole number, 0 or more (0 means unlimited)")
		}
		if minSet && (!minOK || minN < 0) {
			add("min_files", "min_files must be a whole number, 0 or more")
		}
		a := assetOf(f)
		switch {
		case !a.multiple && a.min > 1:
			add("min_files", "A single-file asset field (max_files 1) cannot need %d files", a.min)
		case a.max > 0 && a.min > a.max:
			add("min_files", "min_files (%d) must not exceed max_files (%d)", a.min, a.max)
		}
	case "select", "multiselect":
		for _, key := range []string{"options", "choices"} {
			switch v := f.Options.Value(key).(type) {
			case nil, *content.Map:
			case []any:
				for i, it := range v {
					if m, ok := it.(*content.Map); ok {
						it = m.Value("value")
					}
					if _, ok := scalarString(it); !ok {
						add(fmt.Sprintf("%s[%d]", key, i), "An option must be a string, a number, a boolean or a map with a value")
					}
				}
			default:
				add(key, "%s must be a list or a map", key)
			}
		}
	case "number":
		if v, ok := f.Options.Get("integer"); ok && v != nil {
			if _, isBool := v.(bool); !isBool {
				add("integer", "integer must be true or false")
			}
		}
	}
	return ps
}

// HookNames returns the distinct names of the hooks that fields' rules call, sorted, so a caller
// can check that each is installed. Malformed hook rules, and those of hidden fields (never run),
// are left out.
func HookNames(fields []content.Field) []string {
	var names []string
	for _, f := range fields {
		for _, s := range f.Validate {
			if r, p := parseRule(s); p == nil && r.name == "hook" && applies(r.name, f.Type) {
				names = append(names, r.hook)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
