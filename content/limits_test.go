package content_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"cms/content"
)

func TestJSONNesting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{``, 0},
		{`1`, 0},
		{`"[{"`, 0},
		{`{}`, 1},
		{`[]`, 1},
		{`{"a":1,"b":[2]}`, 2},
		{`[[],[[]],[]]`, 3},
		{`{"a":"]}\"[{"}`, 1},      // brackets and an escaped quote inside a string
		{`{"a\\":[1]}`, 2},         // an escaped backslash ends before the closing quote
		{`["\\\"[[["]`, 1},         // escaped backslash, then an escaped quote
		{`{"a":"\u005b"}`, 1},      // an escaped bracket is text
		{` [ { "a" : [ ] } ] `, 3}, // whitespace
		{strings.Repeat("[", 1000) + strings.Repeat("]", 1000), 1000},
	}
	for _, tt := range tests {
		if got := content.JSONNesting([]byte(tt.in)); got != tt.want {
			t.Errorf("JSONNesting(%.40q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestCheckJSONNesting(t *testing.T) {
	t.Parallel()
	at := strings.Repeat("[", content.MaxNesting) + strings.Repeat("]", content.MaxNesting)
	if err := content.CheckJSONNesting("op", []byte(at)); err != nil {
		t.Errorf("nesting at the limit refused: %v", err)
	}
	err := content.CheckJSONNesting("op", []byte("["+at+"]"))
	ce, ok := errors.AsType[*content.Error](err)
	if !ok || ce.Kind != content.Invalid || ce.Code != content.CodeNestingTooDeep || ce.Details != (content.LimitDetails{Limit: content.MaxNesting}) {
		t.Errorf("one level over the limit: err = %#v", err)
	}
}

func TestNesting(t *testing.T) {
	t.Parallel()
	var nilMap *content.Map
	deep := any(0)
	for range 10_000 {
		deep = []any{deep}
	}
	m := content.NewMap(2)
	m.Set("a", 1)
	m.Set("b", []any{content.NewMap(0), []any{"x"}})
	tests := []struct {
		name string
		v    any
		want int
	}{
		{"scalar", "x", 0},
		{"nil", nil, 0},
		{"nil map", nilMap, 1},
		{"empty list", []any{}, 1},
		{"map", m, 3},
		{"plain map of another library", map[string]any{"a": []string{"x"}}, 2},
		{"capped past the limit", deep, content.MaxNesting + 1},
	}
	for _, tt := range tests {
		if got := content.Nesting(tt.v); got != tt.want {
			t.Errorf("%s: Nesting = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// FuzzJSONNesting checks the scanner against encoding/json: on valid JSON it counts what the
// decoder sees, and a decoded object nests as deep as the text said.
func FuzzJSONNesting(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":"]"}]}`, `["\\", "\"[", []]`, `"x"`, `[[[]]`, `{"a":"\u005b"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := content.JSONNesting(b) // must not panic on anything
		if !json.Valid(b) {
			return
		}
		want, depth := 0, 0
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("valid JSON did not tokenize: %v", err)
			}
			switch tok {
			case json.Delim('{'), json.Delim('['):
				depth++
				want = max(want, depth)
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
		}
		if got != want {
			t.Fatalf("JSONNesting = %d, the decoder saw %d", got, want)
		}
		var m content.Map
		if got <= content.MaxNesting && m.UnmarshalJSON(b) == nil {
			if n := content.Nesting(&m); n != got {
				t.Fatalf("decoded object nests %d deep, the text %d", n, got)
			}
		}
	})
}
