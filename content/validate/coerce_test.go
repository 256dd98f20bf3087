package validate_test

import (
	"fmt"
	"reflect"
	"testing"

	"cms/content"
	"cms/content/validate"
)

func TestCoerce(t *testing.T) {
	t.Parallel()
	multiAsset := withOptions(field("asset"), "max_files", int64(0))
	tests := []struct {
		name   string
		field  content.Field
		in     any
		want   any
		wantOK bool
	}{
		{"nil stays nil", field("number"), nil, nil, true},
		{"number int string", field("number"), "3", int64(3), true},
		{"number float string", field("number"), " 2.5 ", 2.5, true},
		{"number negative", field("number"), "-7", int64(-7), true},
		{"number exponent", field("number"), "1e3", 1000.0, true},
		{"number huge int becomes float", field("number"), "99999999999999999999", 1e20, true},
		{"number blank is nil", field("number"), "  ", nil, true},
		{"number text", field("number"), "three", "three", false},
		{"number NaN refused", field("number"), "NaN", "NaN", false},
		{"number Inf refused", field("number"), "Inf", "Inf", false},
		{"number hex refused", field("number"), "0x10", "0x10", false},
		{"number overflow refused", field("number"), "1e400", "1e400", false},
		{"number kept", field("number"), int64(4), int64(4), true},
		{"number go int normalised", field("number"), 4, int64(4), true},
		{"number bool refused", field("number"), true, true, false},
		{"toggle true", field("toggle"), "true", true, true},
		{"toggle on", field("toggle"), "on", true, true},
		{"toggle 1", field("toggle"), "1", true, true},
		{"toggle YES", field("toggle"), " YES ", true, true},
		{"toggle false", field("toggle"), "false", false, true},
		{"toggle off", field("toggle"), "off", false, true},
		{"toggle 0", field("toggle"), "0", false, true},
		{"toggle no", field("toggle"), "no", false, true},
		{"toggle empty", field("toggle"), "", false, true},
		{"toggle bool kept", field("toggle"), true, true, true},
		{"toggle number 1", field("toggle"), int64(1), true, true},
		{"toggle number 2", field("toggle"), int64(2), int64(2), false},
		{"toggle other string", field("toggle"), "maybe", "maybe", false},
		{"multiselect string", field("multiselect"), "a", []any{"a"}, true},
		{"multiselect empty string", field("multiselect"), "", []any{}, true},
		{"multiselect []string", field("multiselect"), []string{"a", "b"}, []any{"a", "b"}, true},
		{"multiselect list kept", field("multiselect"), []any{"a"}, []any{"a"}, true},
		{"multiselect number refused", field("multiselect"), int64(1), int64(1), false},
		{"entries string", field("entries"), "posts/a", []any{"posts/a"}, true},
		{"taxonomy string", field("taxonomy"), "go", []any{"go"}, true},
		{"asset multiple string", multiAsset, "a.jpg", []any{"a.jpg"}, true},
		{"asset single unchanged", field("asset"), "a.jpg", "a.jpg", true},
		{"date trimmed", field("date"), " 2024-01-02 ", "2024-01-02", true},
		{"date number refused", field("date"), int64(2024), int64(2024), false},
		{"text unchanged", field("text"), " x ", " x ", true},
		{"text number unchanged", field("text"), int64(1), int64(1), true},
		{"select unchanged", field("select"), "a", "a", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := validate.Coerce(tt.field, tt.in)
			if ok != tt.wantOK || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Coerce(%#v) = %#v, %v; want %#v, %v", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestCoerceAll(t *testing.T) {
	t.Parallel()
	fields := []content.Field{
		{Handle: "age", Type: "number"},
		{Handle: "subscribe", Type: "toggle"},
		{Handle: "tags", Type: "multiselect"},
		{Handle: "name", Type: "text"},
	}
	in := mapOf("name", "Jo", "extra", "x", "age", "41", "tags", "go", "subscribe", "on", "bad", "1")
	in.Set("age", "41")
	got := validate.CoerceAll(fields, in)
	want := mapOf("name", "Jo", "extra", "x", "age", int64(41), "tags", []any{"go"}, "subscribe", true, "bad", "1")
	if !reflect.DeepEqual(got.Plain(), want.Plain()) || !reflect.DeepEqual(got.Keys(), want.Keys()) {
		t.Errorf("CoerceAll = %v, want %v", got.Plain(), want.Plain())
	}
	if v, _ := in.String("age"); v != "41" {
		t.Errorf("input modified: age = %v", in.Value("age"))
	}

	// A value that cannot be coerced is kept, and validation names the type error.
	got = validate.CoerceAll(fields, mapOf("age", "forty"))
	if got.Value("age") != "forty" {
		t.Errorf("uncoercible value = %v, want it kept", got.Value("age"))
	}
	if validate.CoerceAll(fields, nil).Len() != 0 {
		t.Error("CoerceAll(nil) not empty")
	}
}

// TestCoerceAllFirstDefinitionWins: with a handle defined twice the first field coerces, for
// small forms and large ones alike.
func TestCoerceAllFirstDefinitionWins(t *testing.T) {
	t.Parallel()
	for _, extra := range []int{0, 20} {
		fields := []content.Field{{Handle: "n", Type: "number"}, {Handle: "n", Type: "text"}, {Handle: "on", Type: "toggle"}}
		for i := range extra {
			fields = append(fields, content.Field{Handle: fmt.Sprintf("f%d", i), Type: "text"})
		}
		fields = append(fields, content.Field{Handle: "late", Type: "number"})
		got := validate.CoerceAll(fields, mapOf("n", "7", "on", "on", "late", "3", "f1", "x", "other", "5"))
		want := mapOf("n", int64(7), "on", true, "late", int64(3), "f1", "x", "other", "5")
		if !reflect.DeepEqual(got.Plain(), want.Plain()) || !reflect.DeepEqual(got.Keys(), want.Keys()) {
			t.Errorf("%d extra fields: CoerceAll = %v, want %v", extra, got.Plain(), want.Plain())
		}
	}
}
