package validate_test

import (
	"slices"
	"testing"

	"cms/content"
	"cms/content/validate"
)

func bp(fields ...content.Field) *content.Blueprint {
	return &content.Blueprint{Tabs: []content.Tab{{Handle: "main", Fields: fields}}}
}

func TestCheckBlueprint(t *testing.T) {
	t.Parallel()
	f := func(handle, typ string, rules ...string) content.Field {
		return content.Field{Handle: handle, Type: typ, Validate: rules}
	}
	req := func(fl content.Field) content.Field { fl.Required = true; return fl }
	opt := func(fl content.Field, kv ...any) content.Field { fl.Options = mapOf(kv...); return fl }
	vis := func(fl content.Field, ref, op string) content.Field {
		fl.Visibility = &content.Visibility{Field: ref, Operator: op, Value: "x"}
		return fl
	}
	tests := []struct {
		name string
		bp   *content.Blueprint
		kind string
		want []validate.Problem
	}{
		{"sound", bp(f("title", "text", "required", "min:3", "max:120"), f("n", "number", "numeric_range:1,5"), f("when", "date", "after:2020-01-01")), "collections", nil},
		{"nil blueprint", nil, "collections", []validate.Problem{{Code: "MISSING_PROPERTY", Message: "Blueprint is missing"}}},
		{"missing handle and type", bp(content.Field{}), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].handle", Code: "MISSING_PROPERTY", Message: "Field handle is required"},
			{Path: "tabs.main.fields[0].field.type", Code: "MISSING_PROPERTY", Message: "Field type is required"},
		}},
		{"unknown type", bp(f("a", "colour")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.type", Code: "INVALID_TYPE", Message: `Unknown field type "colour"`},
		}},
		{"duplicate across tab and section", &content.Blueprint{Tabs: []content.Tab{
			{Handle: "main", Fields: []content.Field{f("a", "text")}},
			{Handle: "seo", Sections: []content.Section{{Handle: "meta", Fields: []content.Field{f("b", "text"), f("a", "text")}}}},
		}}, "collections", []validate.Problem{
			{Path: "tabs.seo.sections.meta.fields[1].handle", Code: "DUPLICATE_HANDLE", Message: `Duplicate field handle "a" (first seen at tabs.main.fields[0])`},
		}},
		{"unknown rule", bp(f("a", "text", "frob")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[0]", Code: "UNKNOWN_RULE", Message: `Unknown validation rule "frob"`},
		}},
		{"bad min param", bp(f("a", "text", "required", "min:x")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[1]", Code: "INVALID_RULE", Message: `Rule "min" needs a number, as in min:3`},
		}},
		{"bad regex", bp(f("a", "text", "regex:(")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[0]", Code: "INVALID_RULE", Message: "Rule \"regex\" has an invalid pattern: error parsing regexp: missing closing ): `(`"},
		}},
		{"range reversed", bp(f("a", "number", "numeric_range:5,1")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[0]", Code: "INVALID_RULE", Message: `Rule "numeric_range" has its lower bound 5 above its upper bound 1`},
		}},
		{"bad hook name", bp(f("a", "text", "hook:Bad_Name", "hook:ok-name:Arg")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[0]", Code: "INVALID_RULE", Message: `Rule "hook" needs a hook name of lowercase letters, digits, '_' and '-', as in hook:vat-number`},
		}},
		{"empty hook name", bp(f("a", "text", "hook:")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[0]", Code: "INVALID_RULE", Message: `Rule "hook" needs a hook name of lowercase letters, digits, '_' and '-', as in hook:vat-number`},
		}},
		{"inapplicable rule warns", bp(f("a", "number", "email")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[0]", Code: "INAPPLICABLE_RULE", Warning: true, Message: `Rule "email" does not apply to field type "number" and is ignored`},
		}},
		{"needless param warns", bp(f("a", "text", "email:x")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[0]", Code: "INVALID_RULE", Warning: true, Message: `Rule "email" takes no parameter; "x" is ignored`},
		}},
		{"fractional length warns", bp(f("a", "text", "min:2.5"), f("b", "multiselect", "max:-1"), f("c", "number", "min:-1.5")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.validate[0]", Code: "INVALID_RULE", Warning: true, Message: `Rule "min" counts characters on a text field and needs a whole number, 0 or more`},
			{Path: "tabs.main.fields[1].field.validate[0]", Code: "INVALID_RULE", Warning: true, Message: `Rule "max" counts items on a multiselect field and needs a whole number, 0 or more`},
		}},
		{"asset max_files negative", bp(opt(f("a", "asset"), "max_files", int64(-1))), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.options.max_files", Code: "INVALID_OPTION", Message: "max_files must be a whole number, 0 or more (0 means unlimited)"},
		}},
		{"asset max_files fraction", bp(opt(f("a", "asset"), "max_files", 1.5)), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.options.max_files", Code: "INVALID_OPTION", Message: "max_files must be a whole number, 0 or more (0 means unlimited)"},
		}},
		{"asset min above max", bp(opt(f("a", "asset"), "max_files", int64(2), "min_files", int64(3))), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.options.min_files", Code: "INVALID_OPTION", Message: "min_files (3) must not exceed max_files (2)"},
		}},
		{"asset single min 2", bp(opt(f("a", "asset"), "min_files", int64(2))), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.options.min_files", Code: "INVALID_OPTION", Message: "A single-file asset field (max_files 1) cannot need 2 files"},
		}},
		{"asset unlimited with min ok", bp(opt(f("a", "asset"), "max_files", int64(0), "min_files", int64(5))), "collections", nil},
		{"select options not a list", bp(opt(f("a", "select"), "options", "a,b")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.options.options", Code: "INVALID_OPTION", Message: "options must be a list or a map"},
		}},
		{"select option item bad", bp(opt(f("a", "multiselect"), "choices", []any{"a", []any{}})), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.options.choices[1]", Code: "INVALID_OPTION", Message: "An option must be a string, a number, a boolean or a map with a value"},
		}},
		{"number integer not bool", bp(opt(f("a", "number"), "integer", "yes")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.options.integer", Code: "INVALID_OPTION", Message: "integer must be true or false"},
		}},
		{"dangling visibility warns", bp(vis(f("a", "text"), "nope", "equals")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.visibility.field", Code: "DANGLING_VISIBILITY_REF", Warning: true, Message: `Visibility refers to field "nope", which does not exist`},
		}},
		{"visibility later field ok", bp(vis(f("a", "text"), "b", "not_empty"), f("b", "text")), "collections", nil},
		{"visibility bad operator", bp(f("b", "text"), vis(f("a", "text"), "b", "gt")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[1].field.visibility.operator", Code: "MISSING_PROPERTY", Message: `Unknown visibility operator "gt"; use equals, not_equals, contains, empty or not_empty`},
		}},
		{"visibility without field", bp(vis(f("a", "text"), "", "empty")), "collections", []validate.Problem{
			{Path: "tabs.main.fields[0].field.visibility.field", Code: "MISSING_PROPERTY", Message: "Visibility rule needs a field"},
		}},
		{"form public types ok", bp(f("a", "text"), f("b", "number"), f("c", "date"), f("d", "toggle"), f("e", "select"),
			f("g", "multiselect"), f("h", "markdown"), f("i", "tiptap"), f("j", "code"), f("k", "yaml"), req(f("l", "hidden"))), "forms", nil},
		{"form optional non-public ok", bp(f("a", "asset"), f("b", "entries"), f("c", "taxonomy"), f("d", "replicator"), f("e", "grid"), f("g", "blocks")), "forms", nil},
		{"form required asset", bp(req(f("a", "asset"))), "forms", []validate.Problem{
			{Path: "tabs.main.fields[0].field.required", Code: "UNSUPPORTED_PUBLIC_FORM_FIELDS", Message: `Field type "asset" cannot be required in a form: public forms cannot render it`},
		}},
		{"form required by rule", bp(f("a", "entries", "required")), "forms", []validate.Problem{
			{Path: "tabs.main.fields[0].field.required", Code: "UNSUPPORTED_PUBLIC_FORM_FIELDS", Message: `Field type "entries" cannot be required in a form: public forms cannot render it`},
		}},
		{"form slug not allowed", bp(f("a", "slug")), "forms", []validate.Problem{
			{Path: "tabs.main.fields[0].field.type", Code: "INVALID_TYPE", Message: `Field type "slug" is not allowed in form blueprints`},
		}},
		{"collections allow required asset and slug", bp(req(f("a", "asset")), f("b", "slug")), "collections", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := validate.CheckBlueprint(tt.bp, tt.kind)
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n got %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestProblemHelpers(t *testing.T) {
	t.Parallel()
	warn := validate.Problem{Path: "tabs.main.fields[0]", Message: "m", Code: "DANGLING_VISIBILITY_REF", Warning: true}
	bad := validate.Problem{Message: "Blueprint is missing", Code: "MISSING_PROPERTY"}
	if validate.HasErrors([]validate.Problem{warn}) || !validate.HasErrors([]validate.Problem{warn, bad}) || validate.HasErrors(nil) {
		t.Error("HasErrors does not tell warnings from errors")
	}
	if got, want := warn.String(), "warning: tabs.main.fields[0]: m (DANGLING_VISIBILITY_REF)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := bad.String(), "Blueprint is missing (MISSING_PROPERTY)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

func TestHookNames(t *testing.T) {
	t.Parallel()
	fields := []content.Field{
		{Handle: "a", Type: "text", Validate: []string{"hook:vat-number:EU", "required", "hook:b"}},
		{Handle: "b", Type: "number", Validate: []string{"hook:vat-number", "hook:Bad"}},
		{Handle: "c", Type: "hidden", Validate: []string{"hook:never-run"}},
		{Handle: "d", Type: "text", Validate: []string{"hook:a_1"}},
	}
	if got, want := validate.HookNames(fields), []string{"a_1", "b", "vat-number"}; !slices.Equal(got, want) {
		t.Errorf("HookNames = %q, want %q", got, want)
	}
	if got := validate.HookNames(nil); len(got) != 0 {
		t.Errorf("HookNames(nil) = %q", got)
	}
}
