package validate_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cms/content"
	"cms/content/validate"
)

// absent marks a test value that is left out of the submitted map.
type absentT struct{}

var absent = absentT{}

// mapOf builds a Map from key, value pairs.
func mapOf(kv ...any) *content.Map {
	m := content.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func field(typ string, rules ...string) content.Field {
	return content.Field{Handle: "f", Type: typ, Validate: rules}
}

func withOptions(f content.Field, kv ...any) content.Field {
	f.Options = mapOf(kv...)
	return f
}

func required(f content.Field) content.Field {
	f.Required = true
	return f
}

func doc(texts ...string) *content.Map {
	nodes := make([]any, len(texts))
	for i, t := range texts {
		nodes[i] = mapOf("type", "paragraph", "content", []any{mapOf("type", "text", "text", t)})
	}
	return mapOf("type", "doc", "content", nodes)
}

// check validates one field holding v and returns its messages.
func check(t *testing.T, f content.Field, v any) []string {
	t.Helper()
	values := content.NewMap(1)
	if v != absent {
		values.Set(f.Handle, v)
	}
	errs, err := validate.Values(context.Background(), []content.Field{f}, values, validate.Options{})
	if err != nil {
		t.Fatalf("Values: unexpected error %v", err)
	}
	return errs[f.Handle]
}

func TestValuesRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		field content.Field
		value any
		want  []string // nil: valid
	}{
		// required, by flag and by rule, per shape
		{"required flag absent", required(field("text")), absent, []string{"This field is required"}},
		{"required rule nil", field("text", "required"), nil, []string{"This field is required"}},
		{"required empty string", field("text", "required"), "", []string{"This field is required"}},
		{"required white space", field("text", "required"), " \t\n", []string{"This field is required"}},
		{"required text ok", field("text", "required"), "x", nil},
		{"required flag and rule one message", required(field("text", "required")), "", []string{"This field is required"}},
		{"required empty list", field("multiselect", "required"), []any{}, []string{"This field is required"}},
		{"required list ok", field("entries", "required"), []any{"posts/a"}, nil},
		{"required tiptap empty doc", field("tiptap", "required"), doc(" "), []string{"This field is required"}},
		{"required tiptap doc ok", field("tiptap", "required"), doc("hi"), nil},
		{"required tiptap json string empty", field("tiptap", "required"), `{"type":"doc","content":[]}`, []string{"This field is required"}},
		{"required toggle false ok", field("toggle", "required"), false, nil},
		{"required number zero ok", field("number", "required"), int64(0), nil},
		{"required number absent", field("number", "required"), absent, []string{"This field is required"}},
		{"required single asset empty", required(field("asset")), "", []string{"This field is required"}},
		{"required replicator empty", required(field("replicator")), []any{}, []string{"This field is required"}},
		{"hidden never validated", required(field("hidden", "min:3")), absent, nil},

		// optional and blank: other rules skipped
		{"optional absent", field("text", "min:3", "email"), absent, nil},
		{"optional nil", field("number", "min:3"), nil, nil},
		{"optional blank skips rules", field("text", "min:3", "email"), "", nil},
		{"optional empty list skips min", field("multiselect", "min:2"), []any{}, nil},

		// min / max / size on text: characters
		{"text min fails", field("text", "min:3"), "ab", []string{"Must be at least 3 characters"}},
		{"text min ok", field("text", "min:3"), "abc", nil},
		{"text min counts runes", field("text", "min:3"), "héé", nil},
		{"text min 1 singular", field("text", "min:1", "max:1"), "ab", []string{"Must be at most 1 character"}},
		{"text max fails", field("text", "max:10"), "abcdefghijk", []string{"Must be at most 10 characters"}},
		{"text max runes", field("text", "max:2"), "日本", nil},
		{"text size fails", field("text", "size:2"), "abc", []string{"Must be exactly 2 characters"}},
		{"slug min", field("slug", "min:3"), "ab", []string{"Must be at least 3 characters"}},
		{"markdown max", field("markdown", "max:2"), "abc", []string{"Must be at most 2 characters"}},
		{"code max", field("code", "max:2"), "abc", []string{"Must be at most 2 characters"}},
		{"yaml max", field("yaml", "max:2"), "abc", []string{"Must be at most 2 characters"}},
		{"tiptap min visible text", field("tiptap", "min:5"), doc("ab", "cd"), []string{"Must be at least 5 characters"}},
		{"tiptap max visible text ok", field("tiptap", "max:4"), doc("ab", "cd"), nil},
		{"tiptap legacy markdown", field("tiptap", "max:3"), "# abc", []string{"Must be at most 3 characters"}},
		{"tiptap json string", field("tiptap", "max:3"), `{"type":"doc","content":[{"type":"text","text":"abcd"}]}`, []string{"Must be at most 3 characters"}},
		{"several failures all reported", field("text", "min:5", "regex:^z"), "abc", []string{"Must be at least 5 characters", "Must match pattern ^z"}},

		// min / max / size / numeric_range on numbers: value
		{"number min fails", field("number", "min:3"), int64(2), []string{"Must be at least 3"}},
		{"number min ok", field("number", "min:3"), int64(3), nil},
		{"number max float", field("number", "max:2.5"), 2.6, []string{"Must be at most 2.5"}},
		{"number min negative", field("number", "min:-1"), int64(-2), []string{"Must be at least -1"}},
		{"number size", field("number", "size:4"), int64(5), []string{"Must be exactly 4"}},
		{"numeric_range low", field("number", "numeric_range:1,10"), int64(0), []string{"Must be at least 1"}},
		{"numeric_range high", field("number", "numeric_range:1,10"), 10.5, []string{"Must be at most 10"}},
		{"numeric_range ok", field("number", "numeric_range:1,10"), int64(10), nil},
		{"numeric_range ignored on text", field("text", "numeric_range:1,2"), "abc", nil},
		{"number in", field("number", "in:1,2,3"), int64(4), []string{"Must be one of: 1, 2, 3"}},
		{"number in float match", field("number", "in:1,2.5"), 2.5, nil},
		{"number not_in", field("number", "not_in:1,2"), int64(2), []string{"Must not be one of: 1, 2"}},
		{"number integer rule", field("number", "integer"), 2.5, []string{"Must be a whole number"}},
		{"number numeric rule", field("number", "numeric"), 2.5, nil},

		// min / max / size on lists: count
		{"multiselect min", field("multiselect", "min:2"), []any{"a"}, []string{"Must have at least 2 items"}},
		{"multiselect max", field("multiselect", "max:1"), []any{"a", "b"}, []string{"Must have at most 1 item"}},
		{"entries size", field("entries", "size:2"), []any{"a/b"}, []string{"Must have exactly 2 items"}},
		{"taxonomy max", field("taxonomy", "max:1"), []any{"a", "b"}, []string{"Must have at most 1 item"}},
		{"replicator min", field("replicator", "min:2"), []any{mapOf("_type", "x")}, []string{"Must have at least 2 items"}},
		{"grid max", field("grid", "max:0"), []any{mapOf("a", "b")}, []string{"Must have at most 0 items"}},
		{"blocks ok", field("blocks", "min:1"), []any{mapOf("_type", "hero")}, nil},
		{"asset list max", withOptions(field("asset", "max:1"), "max_files", int64(0)), []any{"a.jpg", "b.jpg"}, []string{"Must have at most 1 item"}},
		{"multiselect in items", field("multiselect", "in:a,b"), []any{"a", "c"}, []string{"Each item must be one of: a, b"}},
		{"multiselect not_in items", field("multiselect", "not_in:x"), []any{"a", "x"}, []string{"Must not include any of: x"}},
		{"list accepts []string", field("taxonomy", "min:3"), []string{"a", "b"}, []string{"Must have at least 3 items"}},

		// regex
		{"regex fails", field("text", "regex:^a"), "ba", []string{"Must match pattern ^a"}},
		{"regex unanchored", field("text", "regex:b"), "abc", nil},
		{"regex with colon", field("text", "regex:^a:b$"), "a:b", nil},
		{"invalid regex ignored", field("text", "regex:("), "x", nil},
		{"regex on tiptap text", field("tiptap", "regex:^hi$"), doc("hi"), nil},

		// url / email
		{"url ok", field("text", "url"), "https://example.com/a?b=c#d", nil},
		{"url http ok", field("text", "url"), "http://localhost:8080", nil},
		{"url relative", field("text", "url"), "/about", []string{"Must be a valid URL"}},
		{"url no host", field("text", "url"), "http://", []string{"Must be a valid URL"}},
		{"url ftp", field("text", "url"), "ftp://example.com", []string{"Must be a valid URL"}},
		{"url javascript", field("text", "url"), "javascript:alert(1)", []string{"Must be a valid URL"}},
		{"url with space", field("text", "url"), "https://exa mple.com", []string{"Must be a valid URL"}},
		{"email ok", field("text", "email"), "jane.doe+tag@example.co.uk", nil},
		{"email no at", field("text", "email"), "jane.example.com", []string{"Must be a valid email address"}},
		{"email no tld", field("text", "email"), "jane@localhost", []string{"Must be a valid email address"}},
		{"email space", field("text", "email"), "jane doe@example.com", []string{"Must be a valid email address"}},
		{"email too long", field("text", "email"), strings.Repeat("a", 60) + "@" + strings.Repeat("b", 200) + ".com", []string{"Must be a valid email address"}},

		// in / not_in on text
		{"in ok", field("text", "in:a, b"), "b", nil},
		{"in fails", field("select", "in:a,b"), "c", []string{"Must be one of: a, b"}},
		{"in long list", field("text", "in:1,2,3,4,5,6,7,8,9,10,11"), "x", []string{"Must be one of the allowed options"}},
		{"not_in fails", field("text", "not_in:admin,root"), "root", []string{"Must not be one of: admin, root"}},

		// character classes
		{"alpha ok unicode", field("text", "alpha"), "Zoë", nil},
		{"alpha fails", field("text", "alpha"), "abc1", []string{"Must contain only letters"}},
		{"alpha_num ok", field("text", "alpha_num"), "abc123", nil},
		{"alpha_num fails", field("text", "alpha_num"), "abc-1", []string{"Must contain only letters and numbers"}},
		{"alpha_dash ok", field("text", "alpha_dash"), "a_b-1", nil},
		{"alpha_dash fails", field("text", "alpha_dash"), "a b", []string{"Must contain only letters, numbers, dashes, and underscores"}},
		{"lowercase fails", field("text", "lowercase"), "aB", []string{"Must be lowercase"}},
		{"uppercase ok", field("text", "uppercase"), "AB-1", nil},
		{"integer text ok", field("text", "integer"), "-42", nil},
		{"integer text fails", field("text", "integer"), "4.2", []string{"Must be a whole number"}},
		{"numeric text ok", field("text", "numeric"), "4.2e1", nil},
		{"numeric text fails", field("text", "numeric"), "NaN", []string{"Must be a number"}},

		// dates
		{"date rule ok", field("date", "date"), "2024-02-29", nil},
		{"date rule datetime", field("date", "date"), "2024-02-29T10:11:12.5+01:00", nil},
		{"date rule bad day", field("date", "date"), "2023-02-29", []string{"Must be a valid date"}},
		{"date rule bad text", field("text", "date"), "tomorrow", []string{"Must be a valid date"}},
		{"date field no format check", field("date"), "tomorrow", nil},
		{"after ok", field("date", "after:2024-01-01"), "2024-01-02", nil},
		{"after same day fails", field("date", "after:2024-01-01"), "2024-01-01", []string{"Must be a date after 2024-01-01"}},
		{"before fails", field("date", "before:2024-01-01"), "2024-06-01T00:00:00Z", []string{"Must be a date before 2024-01-01"}},
		{"after bad value", field("date", "after:2024-01-01"), "soon", []string{"Must be a valid date"}},

		// accepted
		{"accepted toggle false", field("toggle", "accepted"), false, []string{"Must be accepted"}},
		{"accepted toggle absent", field("toggle", "accepted"), absent, []string{"Must be accepted"}},
		{"accepted toggle true", field("toggle", "accepted"), true, nil},
		{"accepted text blank", field("text", "accepted"), " ", []string{"Must be accepted"}},
		{"accepted text no", field("text", "accepted"), "no", []string{"Must be accepted"}},
		{"accepted text yes", field("text", "accepted"), "Yes", nil},

		// rules that do not apply, or are unknown, are ignored
		{"email on number ignored", field("number", "email"), int64(3), nil},
		{"min on toggle ignored", field("toggle", "min:3"), true, nil},
		{"unknown rule ignored", field("text", "frobnicate:3"), "x", nil},
		{"bad min param ignored", field("text", "min:abc"), "x", nil},
		{"needless param still applies", field("text", "email:strict"), "x", []string{"Must be a valid email address"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := check(t, tt.field, tt.value); !slices.Equal(got, tt.want) {
				t.Errorf("messages = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValuesTypes(t *testing.T) {
	t.Parallel()
	opts := func(kv ...any) *content.Map { return mapOf(kv...) }
	tests := []struct {
		name  string
		field content.Field
		value any
		want  []string
	}{
		{"text wants string", field("text"), int64(3), []string{"Must be a string"}},
		{"markdown wants string", field("markdown"), true, []string{"Must be a string"}},
		{"code wants string", field("code"), []any{}, []string{"Must be a string"}},
		{"yaml wants string", field("yaml"), mapOf("a", "b"), []string{"Must be a string"}},
		{"date wants string", field("date"), int64(2024), []string{"Must be a string"}},
		{"type error hides rules", field("text", "min:5"), int64(3), []string{"Must be a string"}},
		{"slug ok", field("slug"), "my-post-2", nil},
		{"slug uppercase", field("slug"), "My-Post", []string{"Must contain only lowercase letters, numbers, and hyphens"}},
		{"slug blank optional", field("slug"), "", nil},
		{"tiptap string", field("tiptap"), "plain", nil},
		{"tiptap object", field("tiptap"), doc("x"), nil},
		{"tiptap number", field("tiptap"), int64(1), []string{"Must be text or a rich-text document"}},
		{"number int", field("number"), int64(3), nil},
		{"number float", field("number"), 3.5, nil},
		{"number string", field("number"), "3", []string{"Must be a number"}},
		{"number integer option", content.Field{Handle: "f", Type: "number", Options: opts("integer", true)}, 3.5, []string{"Must be a whole number"}},
		{"number integer option integral float", content.Field{Handle: "f", Type: "number", Options: opts("integer", true)}, 3.0, nil},
		{"toggle bool", field("toggle"), false, nil},
		{"toggle string", field("toggle"), "true", []string{"Must be true or false"}},
		{"select no options any string", field("select"), "anything", nil},
		{"select wants string", field("select"), int64(1), []string{"Must be a string"}},
		{"select options list", withOptions(field("select"), "options", []any{"draft", "published"}), "draft", nil},
		{"select options list fails", withOptions(field("select"), "options", []any{"draft", "published"}), "x", []string{"Must be one of: draft, published"}},
		{"select options blank optional", withOptions(field("select"), "options", []any{"a"}), "", nil},
		{"select long list late option", withOptions(field("select"), "options", manyOptions(20)), "o18", nil},
		{"select long list repeated option", withOptions(field("select"), "options", append(manyOptions(20), "o3", "late")), "late", nil},
		{"select long map key", withOptions(field("select"), "options", mapOf("k0", "v0", "k1", "v1", "k2", "v2", "k3", "v3", "k4", "v4", "k5", "v5", "k6", "v6", "k7", "v7", "k8", "v8", "k9", "v9")), "k9", nil},
		{"select choices", withOptions(field("select"), "choices", []any{"a", "b"}), "b", nil},
		{"select value label maps", withOptions(field("select"), "options", []any{mapOf("value", "s", "label", "Small"), mapOf("value", "l", "label", "Large")}), "m", []string{"Must be one of: s, l"}},
		{"select number options", withOptions(field("select"), "options", []any{int64(1), int64(2)}), "2", nil},
		{"select map values", withOptions(field("select"), "options", mapOf("s", "Small", "l", "Large")), "Large", nil},
		{"select map keys", withOptions(field("select"), "options", mapOf("s", "Small", "l", "Large")), "s", nil},
		{"select map fails lists values", withOptions(field("select"), "options", mapOf("s", "Small", "l", "Large")), "x", []string{"Must be one of: Small, Large"}},
		{"multiselect list of strings", field("multiselect"), []any{"a", "b"}, nil},
		{"multiselect not a list", field("multiselect"), "a", []string{"Must be a list"}},
		{"multiselect non-string item", field("multiselect"), []any{"a", int64(1)}, []string{"Each item must be a string"}},
		{"multiselect options", withOptions(field("multiselect"), "options", []any{"a", "b"}), []any{"a", "c"}, []string{"Each item must be one of: a, b"}},
		{"entries list", field("entries"), []any{"posts/hello", "bare-slug"}, nil},
		{"entries empty item", field("entries"), []any{"posts/hello", " "}, []string{"Must not contain empty items"}},
		{"taxonomy not list", field("taxonomy"), mapOf(), []string{"Must be a list"}},
		{"asset default single", field("asset"), "/assets/a.jpg", nil},
		{"asset single rejects list", field("asset"), []any{"/assets/a.jpg"}, []string{"Must be a single file path"}},
		{"asset unlimited list", withOptions(field("asset"), "max_files", int64(0)), []any{"a", "b", "c"}, nil},
		{"asset unlimited rejects string", withOptions(field("asset"), "max_files", int64(0)), "a", []string{"Must be a list"}},
		{"asset max_files", withOptions(field("asset"), "max_files", int64(2)), []any{"a", "b", "c"}, []string{"Must have at most 2 files"}},
		{"asset min_files", withOptions(field("asset"), "max_files", int64(3), "min_files", int64(2)), []any{"a"}, []string{"Must have at least 2 files"}},
		{"asset bad max_files falls back to single", withOptions(field("asset"), "max_files", "many"), "a", nil},
		{"asset non-string item", withOptions(field("asset"), "max_files", int64(0)), []any{int64(1)}, []string{"Each item must be a string"}},
		{"replicator objects", field("replicator"), []any{mapOf("_type", "a")}, nil},
		{"replicator wants list", field("replicator"), mapOf(), []string{"Must be a list"}},
		{"grid wants objects", field("grid"), []any{"a"}, []string{"Each item must be an object"}},
		{"blocks wants objects", field("blocks"), []any{[]any{}}, []string{"Each item must be an object"}},
		{"hidden anything", field("hidden"), []any{int64(1), mapOf()}, nil},
		{"unknown type passes", field("colour"), int64(1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := check(t, tt.field, tt.value); !slices.Equal(got, tt.want) {
				t.Errorf("messages = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValuesAllFieldsAndVisibility(t *testing.T) {
	t.Parallel()
	fields := []content.Field{
		{Handle: "name", Type: "text", Required: true},
		{Handle: "email", Type: "text", Validate: []string{"required", "email"}},
		{Handle: "contact_me", Type: "toggle"},
		{Handle: "phone", Type: "text", Required: true,
			Visibility: &content.Visibility{Field: "contact_me", Operator: "equals", Value: true}},
		{Handle: "secret", Type: "hidden", Required: true},
		{Handle: "name", Type: "number"}, // duplicate: the first definition wins
		{Type: "text", Required: true},   // no handle: skipped
	}
	errs, err := validate.Values(context.Background(), fields,
		mapOf("email", "nope", "contact_me", false, "extra", int64(1)), validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := content.FieldErrors{
		"name":  {"This field is required"},
		"email": {"Must be a valid email address"},
	}
	if !equalErrors(errs, want) {
		t.Errorf("errors = %v, want %v", errs, want)
	}

	errs, err = validate.Values(context.Background(), fields,
		mapOf("name", "Jo", "email", "jo@example.com", "contact_me", true), validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (content.FieldErrors{"phone": {"This field is required"}}); !equalErrors(errs, want) {
		t.Errorf("visible phone: errors = %v, want %v", errs, want)
	}
}

func TestValuesEmptyResultNotNil(t *testing.T) {
	t.Parallel()
	errs, err := validate.Values(context.Background(), nil, nil, validate.Options{})
	if err != nil || errs == nil || len(errs) != 0 {
		t.Fatalf("Values(nil) = %v, %v; want empty non-nil map", errs, err)
	}
}

func TestValuesPartial(t *testing.T) {
	t.Parallel()
	fields := []content.Field{
		{Handle: "title", Type: "text", Required: true},
		{Handle: "summary", Type: "text", Required: true, Validate: []string{"max:5"}},
		{Handle: "body", Type: "markdown", Required: true},
	}
	tests := []struct {
		name   string
		values *content.Map
		want   content.FieldErrors
	}{
		{"absent fields not required", mapOf("summary", "short"), content.FieldErrors{}},
		{"present fields checked", mapOf("summary", "too long"), content.FieldErrors{"summary": {"Must be at most 5 characters"}}},
		{"clearing a required field fails", mapOf("title", ""), content.FieldErrors{"title": {"This field is required"}}},
		{"nil clears too", mapOf("body", nil), content.FieldErrors{"body": {"This field is required"}}},
		{"nothing sent", content.NewMap(0), content.FieldErrors{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			errs, err := validate.Values(context.Background(), fields, tt.values, validate.Options{Partial: true})
			if err != nil {
				t.Fatal(err)
			}
			if !equalErrors(errs, tt.want) {
				t.Errorf("errors = %v, want %v", errs, tt.want)
			}
		})
	}
}

func equalErrors(a, b content.FieldErrors) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// hookFunc is a HookRunner made of a function.
type hookFunc func(ctx context.Context, call validate.HookCall) (validate.HookResult, error)

func (f hookFunc) RunHook(ctx context.Context, call validate.HookCall) (validate.HookResult, error) {
	return f(ctx, call)
}

func TestValuesHooks(t *testing.T) {
	t.Parallel()
	errTrap := errors.New("wasm trap: unreachable")
	tests := []struct {
		name     string
		rules    []string
		value    any
		hook     func(validate.HookCall) (validate.HookResult, error)
		nilHooks bool
		want     []string // field messages
		wantErr  bool     // a HOOK_UNAVAILABLE request error
		wantLog  bool
		wantCall *validate.HookCall
	}{
		{
			name:  "valid",
			rules: []string{"hook:vat-number:EU"},
			value: "DE123",
			hook:  func(validate.HookCall) (validate.HookResult, error) { return validate.HookResult{Valid: true}, nil },
			wantCall: &validate.HookCall{Name: "vat-number", Arg: "EU", Form: "contact", Field: "f",
				Value: "DE123", Locale: "de"},
		},
		{
			name:  "arg keeps later colons",
			rules: []string{"hook:check:a:b"},
			value: "x",
			hook:  func(validate.HookCall) (validate.HookResult, error) { return validate.HookResult{Valid: true}, nil },
			wantCall: &validate.HookCall{Name: "check", Arg: "a:b", Form: "contact", Field: "f",
				Value: "x", Locale: "de"},
		},
		{
			name:  "invalid with message",
			rules: []string{"hook:no-disposable-email"},
			value: "a@mailinator.com",
			hook: func(validate.HookCall) (validate.HookResult, error) {
				return validate.HookResult{Message: " Disposable addresses are not accepted ", Code: "DISPOSABLE"}, nil
			},
			want: []string{"Disposable addresses are not accepted"},
		},
		{
			name:  "invalid without message",
			rules: []string{"hook:x"},
			value: "v",
			hook:  func(validate.HookCall) (validate.HookResult, error) { return validate.HookResult{}, nil },
			want:  []string{"Is not valid"},
		},
		{
			name:  "long message cut",
			rules: []string{"hook:x"},
			value: "v",
			hook: func(validate.HookCall) (validate.HookResult, error) {
				return validate.HookResult{Message: strings.Repeat("é", 600)}, nil
			},
			want: []string{strings.Repeat("é", 512)},
		},
		{
			name:  "unavailable refuses the request",
			rules: []string{"hook:missing"},
			value: "v",
			hook: func(validate.HookCall) (validate.HookResult, error) {
				return validate.HookResult{}, &content.Error{Kind: content.Unavailable, Message: "hook not installed"}
			},
			wantErr: true,
		},
		{
			name:     "no runner refuses the request",
			rules:    []string{"hook:x"},
			value:    "v",
			nilHooks: true,
			wantErr:  true,
		},
		{
			name:    "trap fails the field",
			rules:   []string{"hook:x"},
			value:   "v",
			hook:    func(validate.HookCall) (validate.HookResult, error) { return validate.HookResult{}, errTrap },
			want:    []string{"Could not be validated"},
			wantLog: true,
		},
		{
			name:  "not run after a rule failed",
			rules: []string{"min:5", "hook:x"},
			value: "v",
			hook: func(validate.HookCall) (validate.HookResult, error) {
				return validate.HookResult{}, errors.New("must not be called")
			},
			want: []string{"Must be at least 5 characters"},
		},
		{
			name:     "not run on a blank optional field",
			rules:    []string{"hook:x"},
			value:    "",
			nilHooks: true,
		},
		{
			name:  "stops at the first failing hook",
			rules: []string{"hook:a", "hook:b"},
			value: "v",
			hook: func(c validate.HookCall) (validate.HookResult, error) {
				if c.Name == "b" {
					return validate.HookResult{}, errors.New("must not be called")
				}
				return validate.HookResult{Message: "bad"}, nil
			},
			want: []string{"bad"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs strings.Builder
			var got *validate.HookCall
			values := mapOf("f", tt.value, "other", "o")
			opts := validate.Options{Form: "contact", Locale: "de", Log: newLogger(&logs)}
			if !tt.nilHooks {
				opts.Hooks = hookFunc(func(_ context.Context, c validate.HookCall) (validate.HookResult, error) {
					if got == nil {
						got = &c
					}
					return tt.hook(c)
				})
			}
			errs, err := validate.Values(context.Background(), []content.Field{field("text", tt.rules...)}, values, opts)
			if tt.wantErr {
				var ce *content.Error
				if !errors.As(err, &ce) || ce.Kind != content.Unavailable || ce.Code != validate.CodeHookUnavailable {
					t.Fatalf("err = %v, want Unavailable HOOK_UNAVAILABLE", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if !slices.Equal(errs["f"], tt.want) {
				t.Errorf("messages = %q, want %q", errs["f"], tt.want)
			}
			if tt.wantLog != strings.Contains(logs.String(), "wasm trap") {
				t.Errorf("log = %q, want cause logged: %v", logs.String(), tt.wantLog)
			}
			if tt.wantCall != nil {
				if got == nil {
					t.Fatal("hook not called")
				}
				if got.Data != values {
					t.Errorf("Data is not the submitted values")
				}
				got.Data = nil
				if *got != *tt.wantCall {
					t.Errorf("call = %+v, want %+v", *got, *tt.wantCall)
				}
			}
		})
	}
}

func TestValuesHookCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	hooks := hookFunc(func(ctx context.Context, _ validate.HookCall) (validate.HookResult, error) {
		cancel()
		return validate.HookResult{}, ctx.Err()
	})
	_, err := validate.Values(ctx, []content.Field{field("text", "hook:x")}, mapOf("f", "v"), validate.Options{Hooks: hooks})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func manyOptions(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("o%d", i)
	}
	return out
}

// TestSelectLongListRefuses: past the options a search covers, unknown values are still refused.
func TestSelectLongListRefuses(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 16, 17, 40} {
		f := withOptions(field("select"), "options", manyOptions(n))
		if got := check(t, f, "x"); len(got) == 0 {
			t.Errorf("%d options: x accepted", n)
		}
		if got := check(t, f, fmt.Sprintf("o%d", n-1)); len(got) != 0 {
			t.Errorf("%d options: the last refused: %q", n, got)
		}
	}
}
