package query

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The flat path accepts the usual filters and leaves everything else to the decoder.
func TestFlatFilter(t *testing.T) {
	t.Parallel()
	fields := make([]string, MaxFilters+1)
	for i := range fields {
		fields[i] = fmt.Sprintf(`"f%d":%d`, i, i)
	}
	tooMany := "{" + strings.Join(fields, ",") + "}"
	tests := []struct {
		in   string
		want map[string]any // nil: left to the decoder
	}{
		{`{}`, map[string]any{}},
		{` { } `, map[string]any{}},
		{`{"category":"news"}`, map[string]any{"category": "news"}},
		{"{\"category\" :\t\"news\" ,\n\"featured\":true}", map[string]any{"category": "news", "featured": true}},
		{`{"a":false,"b":null}`, map[string]any{"a": false, "b": nil}},
		{`{"rating":5,"n":-0,"f":1.5,"e":2E+3,"big":1e400}`, nil}, // 1e400 does not parse
		{`{"rating":5,"n":-0,"f":1.5,"e":2E+3}`, map[string]any{"rating": int64(5), "n": int64(0), "f": 1.5, "e": 2000.0}},
		{`{"n":9223372036854775808}`, map[string]any{"n": 9223372036854775808.0}},
		{`{"a":1,"a":2}`, map[string]any{"a": int64(2)}},
		{`{"a":01}`, nil},
		{`{"a":+1}`, nil},
		{`{"a":.5}`, nil},
		{`{"a":1.}`, nil},
		{`{"a":1e}`, nil},
		{`{"a":tru}`, nil},
		{`{"a":"\u0041"}`, nil},
		{`{"a":"caf` + "\xc3\xa9" + `"}`, nil},
		{`{"a":["x"]}`, nil},
		{`{"a":{"$gt":1}}`, nil},
		{`{"a b":1}`, nil},
		{`{"a":1,}`, nil},
		{`{"a":1} x`, nil},
		{`{"a":1`, nil},
		{`[]`, nil},
		{tooMany, nil},
	}
	for _, tt := range tests {
		got, ok := parseFlatFilter(tt.in)
		if tt.want == nil {
			if ok {
				t.Errorf("%s: flat path took it: %v", tt.in, got)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %#v, %v; want %#v", tt.in, got, ok, tt.want)
		}
	}
}

// Whatever the flat path accepts, the decoder reads the same way.
func FuzzFlatFilter(f *testing.F) {
	for _, s := range []string{`{"category":"news","featured":true}`, `{"a":-1.5e3}`, `{ }`, `{"a":null,"a":0}`, `{"a":1e999}`, `{"a":"x\ty"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseFlatFilter(s)
		if !ok {
			return
		}
		want, err := parseFilterJSON(s)
		if err != nil {
			t.Fatalf("%q: the flat path accepted what the decoder refuses: %v", s, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: flat %#v, decoder %#v", s, got, want)
		}
	})
}
