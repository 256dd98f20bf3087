package validate

import (
	"context"
	"testing"

	"cms/content"
)

// fuzzTypes returns every field type, plus one the catalogue does not know.
func fuzzTypes() []string {
	return []string{"text", "slug", "markdown", "tiptap", "number", "toggle", "select", "multiselect",
		"date", "asset", "entries", "taxonomy", "replicator", "grid", "blocks", "yaml", "code", "hidden", "colour"}
}

// FuzzRuleParse feeds arbitrary rule strings to the parser, the blueprint check and validation.
func FuzzRuleParse(f *testing.F) {
	for _, s := range []string{"required", "min:3", "max:-2.5", "size:0", "numeric_range:1,10", "regex:^a:b$",
		"regex:(", "url", "email", "in:a,b", "not_in:", "after:2024-01-01T10:00Z", "before:x", "hook:vat:EU",
		"hook:", "alpha_dash", "accepted", ":", "min:1e308", "numeric_range:,", "date:"} {
		f.Add(s, "abc")
	}
	f.Fuzz(func(t *testing.T, s, value string) {
		r, p := parseRule(s)
		if p != nil && p.message == "" {
			t.Fatalf("parseRule(%q): problem without a message", s)
		}
		if !usable(p) && p.code == "" {
			t.Fatalf("parseRule(%q): unusable rule without a code", s)
		}
		values := []any{value, int64(len(value)), float64(len(value)) / 3, []any{value}, true,
			[]any{content.NewMap(0)}, content.NewMap(0)}
		for _, typ := range fuzzTypes() {
			fl := content.Field{Handle: "f", Type: typ, Validate: []string{s}}
			CheckBlueprint(&content.Blueprint{Tabs: []content.Tab{{Handle: "t", Fields: []content.Field{fl}}}}, content.BlueprintForms)
			HookNames([]content.Field{fl})
			sh, _ := fieldShape(typ)
			for _, v := range values {
				if usable(p) && applies(r.name, typ) && r.name != "hook" && checkShape(fl, v) == "" {
					apply(r, fl, sh, v)
				}
			}
			if r.name == "hook" {
				continue // hooks without a runner refuse the request, which is not what this target checks
			}
			errs, err := Values(context.Background(), []content.Field{fl}, mapWith("f", value), Options{})
			if err != nil {
				t.Fatalf("Values(%q on %s): %v", s, typ, err)
			}
			for _, m := range errs["f"] {
				if m == "" {
					t.Fatalf("Values(%q on %s): empty message", s, typ)
				}
			}
		}
	})
}

// FuzzCoerce feeds arbitrary form strings to every field type's coercion, then to validation and
// visibility, none of which may panic.
func FuzzCoerce(f *testing.F) {
	for _, s := range []string{"", " ", "3", "-2.5e3", "NaN", "on", "off", "yes", "2024-01-31", "a,b",
		`{"type":"doc","content":[{"type":"text","text":"hi"}]}`, `{"type":"doc","content":[[[`, "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, typ := range fuzzTypes() {
			fl := content.Field{Handle: "f", Type: typ, Required: true,
				Validate:   []string{"min:1", "max:5", "regex:^a", "email", "url", "in:a,b", "date", "after:2000-01-01"},
				Options:    mapWith("max_files", int64(0), "options", []any{"a", s}, "integer", true),
				Visibility: &content.Visibility{Field: "g", Operator: "contains", Value: s}}
			v, ok := Coerce(fl, s)
			if ok && typ == "number" && v != nil {
				if _, isNum := toFloat(v); !isNum {
					t.Fatalf("Coerce(number, %q) = %#v, ok but not a number", s, v)
				}
			}
			if !ok && v != s {
				t.Fatalf("Coerce(%s, %q) changed the value it could not coerce: %#v", typ, s, v)
			}
			values := mapWith("f", v, "g", s)
			if _, err := Values(context.Background(), []content.Field{fl}, values, Options{}); err != nil {
				t.Fatalf("Values(%s, %q): %v", typ, s, err)
			}
			FilterVisible([]content.Field{fl}, values)
			for _, op := range []string{"equals", "not_equals", "contains", "empty", "not_empty"} {
				fl.Visibility.Operator = op
				Visible(fl, mapWith("g", v))
			}
		}
	})
}

func mapWith(kv ...any) *content.Map {
	m := content.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}
