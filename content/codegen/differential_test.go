package codegen

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cms/content"
	"cms/content/codegen/codegentest"
	"cms/content/validate"
)

// vcase is one row of the differential table: fields and the values to check against them.
type vcase struct {
	name   string
	fields []content.Field
	values []string // JSON objects
	coerce bool     // as the forms endpoint: validate.CoerceAll first
}

func opts(kv ...any) *content.Map {
	m := content.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

// one is a case of a single field "f" with each value given as the JSON of f.
func one(name string, f content.Field, vals ...string) vcase {
	f.Handle = "f"
	c := vcase{name: name, fields: []content.Field{f}, values: []string{`{}`, `{"f":null}`}}
	for _, v := range vals {
		c.values = append(c.values, `{"f":`+v+`}`)
	}
	return c
}

// wrongTypes are values of every JSON type, so every shape check is crossed with every type.
var wrongTypes = []string{`""`, `" "`, `"x"`, `0`, `1.5`, `-3`, `true`, `false`, `[]`, `["a"]`, `[1]`, `[""]`, `{}`, `{"a":1}`, `[{}]`, `[{"a":1}]`}

func validationTable() []vcase {
	var cs []vcase
	for _, typ := range []string{"text", "slug", "markdown", "code", "yaml", "date", "select", "multiselect", "tiptap",
		"number", "toggle", "asset", "entries", "taxonomy", "replicator", "grid", "blocks", "hidden", "unknowntype"} {
		cs = append(cs, one(typ+" shapes", content.Field{Type: typ}, wrongTypes...))
		cs = append(cs, one(typ+" required", content.Field{Type: typ, Required: true}, wrongTypes...))
	}
	text := func(rules ...string) content.Field { return content.Field{Type: "text", Validate: rules} }
	num := func(rules ...string) content.Field { return content.Field{Type: "number", Validate: rules} }
	list := func(rules ...string) content.Field { return content.Field{Type: "multiselect", Validate: rules} }
	unicode := []string{`"héllo"`, `"he\u0301llo"`, `"👍👍"`, `"日本語"`, `"\u00a0"`, `"\ufeff"`, `"\u2028"`, `"\u0085"`, `"\t\n"`, `"ab"`, `"abc"`, `"abcd"`}
	cs = append(cs,
		one("min chars", text("min:3"), unicode...),
		one("max chars", text("max:3"), unicode...),
		one("size chars", text("size:2"), unicode...),
		one("min 1 char", text("min:1", "max:1"), unicode...),
		one("min fraction", text("min:2.5"), unicode...),
		one("required rule", text("required"), unicode...),
		one("regex", text("regex:^[a-z]+$"), `"abc"`, `"ABC"`, `"a1"`, `"é"`),
		one("regex unanchored", text("regex:[0-9]{2}"), `"a12b"`, `"a1b"`),
		one("regex case flag", text("regex:(?i)^abc$"), `"ABC"`, `"abd"`),
		one("bad regex ignored", text("regex:([a-z"), `"x"`),
		one("url", text("url"), `"https://example.com"`, `"http://a.b/c?d=e#f"`, `"HTTPS://EXAMPLE.COM"`, `"ftp://x.y"`,
			`"example.com"`, `"http://"`, `"http:///x"`, `"https://exa mple.com"`, `"http://a.b/%zz"`, `"http://a:80"`,
			`"http://a:b"`, `"http://[::1]:80/"`, `"http:opaque"`, `"https://user:pw@host/"`, `"mailto:a@b.c"`, `"//x.y"`),
		one("email", text("email"), `"a@b.co"`, `"a@b.c"`, `"a@b"`, `"a.b@c.de"`, `".a@b.de"`, `"a..b@c.de"`, `"a@-b.de"`,
			`"a@b-.de"`, `"ü@exämple.de"`, `"a@b@c.de"`, `"a b@c.de"`, `"a@xn--p1ai.xn--p1ai"`, `"a@b.d1"`, `"@b.de"`, `"a+tag@b.de"`),
		one("in text", text("in:a,b, c"), `"a"`, `"c"`, `" c"`, `"d"`),
		one("not_in text", text("not_in:a,b"), `"a"`, `"z"`),
		one("in long list", text("in:1,2,3,4,5,6,7,8,9,10,11"), `"12"`, `"1"`),
		one("alpha", text("alpha"), `"abc"`, `"abç"`, `"e\u0301"`, `"ab1"`, `"日本"`),
		one("alpha_num", text("alpha_num"), `"ab1"`, `"ab-1"`, `"١٢"`),
		one("alpha_dash", text("alpha_dash"), `"a-b_c1"`, `"a b"`),
		one("lowercase", text("lowercase"), `"abc"`, `"Abc"`, `"123"`, `"ß"`, `"İ"`, `"ﬀ"`, `"ǅ"`),
		one("uppercase", text("uppercase"), `"ABC"`, `"AbC"`, `"ß"`, `"ﬀ"`, `"ǅ"`, `"ς"`),
		one("integer text", text("integer"), `"12"`, `" -3 "`, `"1.5"`, `"+7"`, `"1e3"`),
		one("numeric text", text("numeric"), `"1.5"`, `".5"`, `"5."`, `"1e400"`, `"0x10"`, `"NaN"`, `" 2 "`),
		one("date text", text("date"), `"2024-02-29"`, `"2023-02-29"`, `"2024-01-31T10:00"`, `"2024-01-31t10:00:00z"`,
			`"2024-01-31 10:00:00.123+02:00"`, `"2024-13-01"`, `"2024-01-01T24:00"`, `"2024-01-01T10:00+25:00"`, `"24-01-01"`, `" 2024-01-01 "`),
		one("after", text("after:2024-01-01"), `"2024-01-01"`, `"2024-01-01T00:00:00.000000001Z"`, `"2023-12-31T23:00:00-02:00"`, `"x"`),
		one("before", text("before:2024-01-01T12:00Z"), `"2024-01-01T11:59:59.999Z"`, `"2024-01-01T12:00:00Z"`, `"2024-01-01T13:00+02:00"`),
		one("accepted text", text("accepted"), `"yes"`, `"On"`, `"1"`, `"true"`, `"no"`, `" "`),
		one("accepted toggle", content.Field{Type: "toggle", Validate: []string{"accepted"}}, `true`, `false`),
		one("required toggle", content.Field{Type: "toggle", Required: true}, `true`, `false`),
		one("number min max", num("min:2", "max:5"), `1`, `2`, `5`, `5.5`, `-0`),
		one("number size", num("size:3"), `3`, `3.0`, `4`),
		one("numeric_range", num("numeric_range:1.5,2"), `1`, `1.5`, `2`, `2.5`),
		one("number in", num("in:1,2.50"), `2.5`, `3`),
		one("number not_in", num("not_in:1"), `1`, `1.0`, `2`),
		one("number integer rule", num("integer"), `2`, `2.5`),
		one("number integer option", content.Field{Type: "number", Options: opts("integer", true)}, `2`, `2.5`),
		one("number big", num("max:1e21"), `1e22`, `1e20`),
		one("number tiny", num("min:0.0000001"), `0.00000001`, `1`),
		one("list min", list("min:2"), `["a"]`, `["a","b"]`),
		one("list max size", list("max:1", "size:1"), `["a","b"]`, `["a"]`),
		one("list in", list("in:a,b"), `["a","c"]`, `["b"]`),
		one("list not_in", list("not_in:a"), `["a"]`, `["b"]`),
		one("select options", content.Field{Type: "select", Options: opts("options", []any{"a", "b"})}, `"a"`, `"c"`, `""`),
		one("select value/label", content.Field{Type: "select", Options: opts("options", []any{opts("value", "v", "label", "V"), int64(2)})}, `"v"`, `"V"`, `"2"`),
		one("select map", content.Field{Type: "select", Options: opts("choices", opts("k1", "One", "k2", "Two"))}, `"k1"`, `"One"`, `"x"`),
		one("select mixed map", content.Field{Type: "select", Options: opts("options", opts("k1", "One", "k2", int64(3)))}, `"k1"`, `"One"`, `"x"`),
		one("select many", content.Field{Type: "select", Options: opts("options", []any{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"})}, `"x"`),
		one("multiselect options", content.Field{Type: "multiselect", Options: opts("options", []any{"a", "b"})}, `["a","c"]`, `["a"]`),
		one("asset multiple", content.Field{Type: "asset", Options: opts("max_files", int64(2), "min_files", int64(1))}, `[]`, `["a"]`, `["a","b","c"]`, `[" "]`, `"a"`),
		one("asset unlimited", content.Field{Type: "asset", Options: opts("max_files", int64(0)), Validate: []string{"max:2", "in:a,b"}}, `["a","b","c"]`, `["a","x"]`),
		one("asset single rules", content.Field{Type: "asset", Validate: []string{"in:a"}}, `"a"`, `"b"`, `" "`),
		one("entries empty item", content.Field{Type: "entries"}, `["a"," "]`, `["blog/x"]`),
		one("replicator count", content.Field{Type: "replicator", Validate: []string{"min:1", "max:1"}}, `[{},{}]`, `[{"_type":"x"}]`, `[null]`),
		one("tiptap text", content.Field{Type: "tiptap", Validate: []string{"min:3", "max:5"}}, `"ab"`, `"abcd"`,
			`{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"ab"}]}]}`,
			`{"type":"doc","content":[{"type":"text","text":"abcdef"}]}`, `{"type":"doc"}`,
			`"{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"abcd\"}]}"`, `"{not json"`, `"{\"a\":1}"`),
		one("tiptap required", content.Field{Type: "tiptap", Required: true}, `{"type":"doc","content":[{"type":"text","text":"  "}]}`, `"{\"type\":\"doc\"}"`),
		one("slug format", content.Field{Type: "slug", Validate: []string{"max:3"}}, `"a-b"`, `"A"`, `"abcd"`, `"a_b"`),
		one("date field rules", content.Field{Type: "date", Validate: []string{"after:2024-01-01"}}, `"2024-06-01"`, `"2023-01-01"`),
		one("select rule", content.Field{Type: "select", Validate: []string{"min:2"}}, `"a"`, `"ab"`),
		one("yaml min", content.Field{Type: "yaml", Validate: []string{"min:2"}}, `"a"`),
		one("inapplicable ignored", content.Field{Type: "toggle", Validate: []string{"min:2", "email"}}, `true`),
		one("unknown rule ignored", text("frobnicate", "min:x", "numeric_range:5,1"), `"a"`),
		one("hook skipped on other failures", text("min:5", "hook:vat"), `"abc"`),
		one("several failures", text("min:5", "alpha", "uppercase"), `"ab1"`),
		vcase{name: "visibility", fields: []content.Field{
			{Handle: "kind", Type: "select"},
			{Handle: "n", Type: "number"},
			{Handle: "on", Type: "toggle"},
			{Handle: "tags", Type: "multiselect"},
			{Handle: "a", Type: "text", Required: true, Visibility: &content.Visibility{Field: "kind", Operator: "equals", Value: "x"}},
			{Handle: "b", Type: "text", Required: true, Visibility: &content.Visibility{Field: "n", Operator: "equals", Value: "2"}},
			{Handle: "c", Type: "text", Required: true, Visibility: &content.Visibility{Field: "on", Operator: "equals", Value: "true"}},
			{Handle: "d", Type: "text", Required: true, Visibility: &content.Visibility{Field: "tags", Operator: "contains", Value: "t"}},
			{Handle: "e", Type: "text", Required: true, Visibility: &content.Visibility{Field: "kind", Operator: "not_empty"}},
			{Handle: "g", Type: "text", Required: true, Visibility: &content.Visibility{Field: "kind", Operator: "not_equals", Value: int64(2)}},
			{Handle: "h", Type: "text", Required: true, Visibility: &content.Visibility{Field: "kind", Operator: "contains", Value: "y"}},
			{Handle: "i", Type: "text", Required: true, Visibility: &content.Visibility{Field: "tags", Operator: "empty"}},
			{Handle: "j", Type: "text", Required: true, Visibility: &content.Visibility{Field: "kind", Operator: "bogus"}},
		}, values: []string{`{}`, `{"kind":"x","n":2,"on":true,"tags":["t"]}`, `{"kind":"2","n":"2","on":"true","tags":"t"}`,
			`{"kind":"xy","n":2.0,"on":false,"tags":[]}`, `{"kind":"","n":" ","tags":null}`}},
		vcase{name: "duplicates and hidden", fields: []content.Field{
			{Handle: "x", Type: "hidden", Required: true},
			{Handle: "x", Type: "text", Required: true},
			{Handle: "x", Type: "number", Required: true},
			{Handle: "", Type: "text", Required: true},
		}, values: []string{`{}`, `{"x":"a"}`, `{"x":1}`}},
	)
	// Form submissions: every row again after coercion, and coercion's own cases.
	n := len(cs)
	for _, c := range cs[:n] {
		c.name += " (form)"
		c.coerce = true
		cs = append(cs, c)
	}
	cs = append(cs, func() vcase {
		c := one("coerce", content.Field{Type: "number", Validate: []string{"min:2"}}, `"3"`, `" 1 "`, `""`, `"  "`, `"1e400"`, `"x"`, `"0x1"`, `2`)
		c.coerce = true
		return c
	}(), func() vcase {
		c := vcase{name: "coerce kinds", coerce: true, fields: []content.Field{
			{Handle: "t", Type: "toggle", Required: true}, {Handle: "m", Type: "multiselect", Required: true},
			{Handle: "a", Type: "asset", Options: opts("max_files", int64(3))}, {Handle: "s", Type: "asset"},
			{Handle: "d", Type: "date", Validate: []string{"date"}}, {Handle: "h", Type: "hidden"}, {Handle: "h", Type: "number", Required: true},
		}}
		c.values = []string{`{"t":"on","m":"a","a":"x","s":"y","d":" 2024-01-01 ","h":"3"}`, `{"t":"No","m":"","a":" ","d":"x"}`,
			`{"t":"maybe","m":["a"],"a":["x","y","z","w"]}`, `{"t":1,"m":5}`, `{"t":2}`, `{"t":""}`,
			`{"t":"yes"}`, `{"t":" TRUE "}`, `{"t":" off "}`, `{"t":"0"}`, `{"t":"1"}`, `{"t":0}`, `{"t":1.5}`}
		return c
	}())
	return cs
}

// TestDifferentialValidation runs every row of the table through the Go rule engine and through
// the generated zod schema under node: both must accept and reject the same values with the
// same messages. The same script checks that the file client refuses to run in a browser.
func TestDifferentialValidation(t *testing.T) {
	tools := codegentest.Tools(t)
	cases := validationTable()
	type nodeCase struct {
		Spec   []fieldSpec       `json:"spec"`
		Values []json.RawMessage `json:"values"`
		Coerce bool              `json:"coerce"`
	}
	var in []nodeCase
	want := make([][]content.FieldErrors, len(cases))
	for i, c := range cases {
		nc := nodeCase{Spec: specs(c.fields), Coerce: c.coerce}
		for _, v := range c.values {
			var m content.Map
			if err := m.UnmarshalJSON([]byte(v)); err != nil {
				t.Fatalf("%s: bad JSON %s: %v", c.name, v, err)
			}
			vals := &m
			if c.coerce {
				vals = validate.CoerceAll(c.fields, vals)
			}
			fe, err := validate.Values(t.Context(), c.fields, vals, validate.Options{Hooks: passHooks{}})
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, v, err)
			}
			want[i] = append(want[i], fe)
			nc.Values = append(nc.Values, json.RawMessage(v))
		}
		in = append(in, nc)
	}

	dir, outDir := t.TempDir(), t.TempDir()
	s, _ := testSite(t)
	writeFiles(t, dir, generate(t, s))
	script := `import { blueprintSchema } from "./schemas";
import { createClient } from "./client";
import type { FieldSpec } from "./runtime/validate";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(0, "utf8")) as { spec: FieldSpec[]; values: unknown[]; coerce: boolean }[];
const out = cases.map((c) => {
  const schema = blueprintSchema<Record<string, unknown>>(c.spec, { coerce: c.coerce });
  return c.values.map((v) => {
    const r = schema.safeParse(v);
    const errs: Record<string, string[]> = {};
    if (!r.success) for (const i of r.error.issues) (errs[String(i.path[0])] ??= []).push(i.message);
    return errs;
  });
});
// The file client refuses to run where a browser's globals are.
let refused = "";
(globalThis as { window?: unknown }).window = {};
try {
  createClient({ parseYaml: (s: string) => s });
} catch (e) {
  refused = (e as Error).message;
}
process.stdout.write(JSON.stringify({ out, refused }));
`
	if err := os.WriteFile(filepath.Join(dir, "diff.ts"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	codegentest.Compile(t, tools, dir, outDir)
	stdin, _ := json.Marshal(in)
	var res struct {
		Out     [][]content.FieldErrors
		Refused string
	}
	if err := json.Unmarshal(codegentest.RunNode(t, filepath.Join(outDir, "diff.js"), stdin), &res); err != nil {
		t.Fatal(err)
	}
	got := res.Out
	if !strings.Contains(res.Refused, "must not run in a browser") {
		t.Errorf("the file client ran with a browser's window defined (message %q)", res.Refused)
	}
	rows := 0
	for i, c := range cases {
		for j, v := range c.values {
			rows++
			w, g := want[i][j], got[i][j]
			if len(w) == 0 && len(g) == 0 {
				continue
			}
			if !reflect.DeepEqual(w, g) {
				t.Errorf("%s: %s\n  Go:  %s\n  zod: %s", c.name, v, fmtErrs(w), fmtErrs(g))
			}
		}
	}
	t.Logf("%d rows compared", rows)
}

func fmtErrs(fe content.FieldErrors) string {
	var parts []string
	for k, v := range fe {
		parts = append(parts, fmt.Sprintf("%s=%q", k, v))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// passHooks accepts every value, as the browser side skips hooks (they run on the server only).
type passHooks struct{}

func (passHooks) RunHook(_ context.Context, _ validate.HookCall) (validate.HookResult, error) {
	return validate.HookResult{Valid: true}, nil
}
