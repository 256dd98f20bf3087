package validate_test

import (
	"slices"
	"testing"

	"cms/content"
	"cms/content/validate"
)

func TestVisible(t *testing.T) {
	t.Parallel()
	vis := func(op string, value any) content.Field {
		return content.Field{Handle: "f", Type: "text", Visibility: &content.Visibility{Field: "ref", Operator: op, Value: value}}
	}
	tests := []struct {
		name  string
		field content.Field
		ref   any // absent leaves "ref" out
		want  bool
	}{
		{"no rule", content.Field{Handle: "f", Type: "text"}, absent, true},
		{"no field named", content.Field{Handle: "f", Visibility: &content.Visibility{Operator: "equals"}}, absent, true},
		{"unknown operator visible", vis("greater_than", int64(1)), int64(5), true},

		{"equals string", vis("equals", "external"), "external", true},
		{"equals string differs", vis("equals", "external"), "internal", false},
		{"equals absent", vis("equals", "x"), absent, false},
		{"equals nil nil", vis("equals", nil), absent, true},
		{"equals bool true", vis("equals", true), true, true},
		{"equals bool with string true", vis("equals", "true"), true, true},
		{"equals bool false vs true", vis("equals", true), false, false},
		{"equals bool false vs false", vis("equals", false), false, true},
		{"equals bool false vs other string", vis("equals", "yes"), false, true},
		{"equals number with string", vis("equals", "3"), int64(3), true},
		{"equals number with float", vis("equals", 3.0), int64(3), true},
		{"equals number with blank string", vis("equals", " "), int64(0), false},
		{"equals number with non-number", vis("equals", "abc"), int64(3), false},
		{"equals string with number", vis("equals", int64(2)), "2", true},
		{"equals string with bool", vis("equals", true), "true", true},
		{"equals list never", vis("equals", "a"), []any{"a"}, false},
		{"not_equals string", vis("not_equals", "a"), "b", true},
		{"not_equals same", vis("not_equals", "a"), "a", false},
		{"not_equals absent", vis("not_equals", "a"), absent, true},

		{"contains substring", vis("contains", "ell"), "hello", true},
		{"contains missing", vis("contains", "xyz"), "hello", false},
		{"contains number value", vis("contains", int64(1)), "a1b", true},
		{"contains on number ref", vis("contains", "1"), int64(1), false},
		{"contains list item", vis("contains", "b"), []any{"a", "b"}, true},
		{"contains list no item", vis("contains", "c"), []any{"a", "b"}, false},
		{"contains nil value", vis("contains", nil), "abc", false},

		{"empty absent", vis("empty", nil), absent, true},
		{"empty nil", vis("empty", nil), nil, true},
		{"empty string", vis("empty", nil), "", true},
		{"empty list", vis("empty", nil), []any{}, true},
		{"empty white space is not empty", vis("empty", nil), " ", false},
		{"empty false is not empty", vis("empty", nil), false, false},
		{"not_empty value", vis("not_empty", nil), "x", true},
		{"not_empty absent", vis("not_empty", nil), absent, false},
		{"not_empty zero", vis("not_empty", nil), int64(0), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			values := content.NewMap(1)
			if tt.ref != absent {
				values.Set("ref", tt.ref)
			}
			if got := validate.Visible(tt.field, values); got != tt.want {
				t.Errorf("Visible = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFilterVisible(t *testing.T) {
	t.Parallel()
	fields := []content.Field{
		{Handle: "kind", Type: "select"},
		{Handle: "url", Type: "text", Visibility: &content.Visibility{Field: "kind", Operator: "equals", Value: "external"}},
		{Handle: "entry", Type: "entries", Visibility: &content.Visibility{Field: "kind", Operator: "equals", Value: "internal"}},
		{Handle: "note", Type: "text"},
		{Handle: "meta", Type: "hidden"},
	}
	tests := []struct {
		name     string
		values   *content.Map
		wantKeys []string
	}{
		{"hidden field dropped, unknown keys dropped",
			mapOf("entry", []any{"a/b"}, "url", "https://x.io", "kind", "external", "_honeypot", "", "evil", "x"),
			[]string{"kind", "url"}},
		{"absent fields not added", mapOf("kind", "internal"), []string{"kind"}},
		{"blueprint order, hidden type kept", mapOf("meta", "m", "note", "n"), []string{"note", "meta"}},
		{"nil values", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := validate.FilterVisible(fields, tt.values)
			if !slices.Equal(got.Keys(), tt.wantKeys) {
				t.Errorf("keys = %q, want %q", got.Keys(), tt.wantKeys)
			}
			for _, k := range got.Keys() {
				if got.Value(k) == nil {
					t.Errorf("key %q lost its value", k)
				}
			}
		})
	}
}
