package frontmatter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"cms/content"
)

func same(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb) && fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b) && typesMatch(a, b)
}

// typesMatch compares Go types deeply (int64 vs float64 matters for the API).
func typesMatch(a, b any) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if fmt.Sprintf("%T", x[i]) != fmt.Sprintf("%T", y[i]) {
				return false
			}
		}
	}
	return true
}

func TestSimplePathTakesCommonFrontMatter(t *testing.T) {
	t.Parallel()
	src := "title: Hello world\nslug: hello-world\nstatus: published\ncreatedAt: 2026-05-31T20:00:00.000Z\nrating: 4\nscore: 2.5\nfeatured: true\ncategory: news\ntags: [go, cms, 2026]\nauthors:\n  - ann\n  - bob\nquoted: 'it''s'\ndq: \"plain\"\nempty:\n"
	m, ok := parseSimple([]byte(src), nil)
	if !ok {
		t.Fatal("common front matter fell back to yaml.v3")
	}
	v, err := parseYAMLv3([]byte(src), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !same(m, v) {
		j1, _ := json.Marshal(m)
		j2, _ := json.Marshal(v)
		t.Errorf("fast path differs from yaml.v3:\n%s\n%s", j1, j2)
	}
}

func TestSimplePathDeclines(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"a:\n  b: 1\n", "a: |\n  x\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: 1 # c\n", "a: 0x10\n",
		"a: 1_000\n", "a: 012\n", "a: 1e3\n", "a: .5\n", "a: {b: 1}\n", "a: \"x\\ny\"\n", "a: 1\na: 2\n",
		"- x\n", "a: [b, [c]]\n", "a: -x\n", "a: yes: no\n",
	} {
		if _, ok := parseSimple([]byte(src), nil); ok {
			t.Errorf("fast path accepted %q, which it cannot be sure of", src)
		}
	}
}

// unicodeSpaces are strings around characters that Go (unicode.IsSpace) or YAML 1.1 (line
// breaks) treat as white space but YAML 1.2's plain scalars do not, or that writers escape.
var unicodeSpaces = []string{
	"\u00a00", "0\u00a0", "\u00a0x", "x\u00a0", "\u00a0true", "\u00a0null", "\u00a0-1.5", "\u00a02026-01-02",
	"\u2028x", "x\u2028", "a\u2028b", "\u2029x", "a\u2029b", "\u2028 x", "\u0085x", "x\u0085", "a\u0085b",
	"\ufeffx", "x\ufeff", "\u3000x", "x\u3000", "\u2000x", "\u200bx", "\u1680x", "\u202fx", "\u205f1",
	"\u00a0", "\u2028", "\u2028\u2029", " \u00a0x", "x\u00a0 ", "a\nb\u2028c", "line\n\u00a0indented",
	"\u00a0#x", "x\u00a0#y", "a:\u00a0b", "a\u00a0: b", "-\u00a0x", "[\u00a0x]",
}

// TestSimplePathKeepsUnicodeSpaces: hand-written front matter with Unicode spaces must read as
// yaml.v3 reads it (the fast path used to trim them as Go does, so " 0" became the number 0).
func TestSimplePathKeepsUnicodeSpaces(t *testing.T) {
	t.Parallel()
	for _, v := range unicodeSpaces {
		for _, src := range []string{
			"t: " + v + "\n", "t: '" + v + "'\n", `t: "` + v + "\"\n", "t: [" + v + "]\n", "t:\n  - " + v + "\n",
		} {
			m, ok := parseSimple([]byte(src), nil)
			if !ok {
				continue
			}
			y, err := parseYAMLv3([]byte(src), 1)
			if err != nil {
				t.Errorf("fast path accepted %q, yaml.v3 rejects it: %v", src, err)
				continue
			}
			if !same(m, y) {
				j1, _ := json.Marshal(m)
				j2, _ := json.Marshal(y)
				t.Errorf("fast path differs from yaml.v3 on %q:\n%s\n%s", src, j1, j2)
			}
		}
	}
}

// TestUnicodeSpacesRoundTrip: a string written and read back (by either path) is the same
// string, as the API showed it before a restart.
func TestUnicodeSpacesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, v := range unicodeSpaces {
		if err := roundTrip(v); err != nil {
			t.Error(err)
		}
	}
}

// roundTrip writes v as a front-matter value (alone, and inside a list) and checks that both the
// fast path, when it takes the document, and yaml.v3 read back exactly v.
func roundTrip(v string) error {
	m := content.NewMap(2)
	m.Set("v", v)
	m.Set("l", []any{v})
	out, err := Format(m, "")
	if err != nil {
		return fmt.Errorf("format %q: %v", v, err)
	}
	fm, _, _, err := Split(out)
	if err != nil {
		return fmt.Errorf("split %q: %v", out, err)
	}
	want, _ := json.Marshal(m)
	if y, err := parseYAMLv3(fm, 2); err != nil {
		return fmt.Errorf("yaml.v3 cannot read back %q as written:\n%s\n%v", v, out, err)
	} else if j, _ := json.Marshal(y); !same(m, y) {
		return fmt.Errorf("yaml.v3 reads %q back differently:\nwant %s\ngot  %s\nfile:\n%s", v, want, j, out)
	}
	d, err := Parse(out)
	if err != nil {
		return fmt.Errorf("cannot read back %q as written:\n%s\n%v", v, out, err)
	}
	if j, _ := json.Marshal(d.Front); !same(m, d.Front) {
		return fmt.Errorf("%q reads back differently:\nwant %s\ngot  %s\nfile:\n%s", v, want, j, out)
	}
	return nil
}

// FuzzSimpleMatchesYAML: whenever the fast path accepts input, yaml.v3 must agree exactly; and
// the input, taken as a string value, survives a write and a read by both paths.
func FuzzSimpleMatchesYAML(f *testing.F) {
	for _, s := range []string{
		"title: x\nn: 1\n", "a: [1, b, true]\n", "a:\n  - 1\n  - x\n", "d: 2026-01-02\n", "q: 'a''b'\n",
		"f: -0.5\n", "x: null\ny: ~\n", "k: True\n", "k: yes\n", "u: ünï\n", "p: /path/x\n", "z: 99999999999999999999\n",
	} {
		f.Add(s)
	}
	for _, v := range unicodeSpaces {
		f.Add("t: " + v + "\n")
		f.Add("t: [" + v + ", '" + v + "']\n")
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if utf8.ValidString(src) {
			if err := roundTrip(src); err != nil {
				t.Fatal(err)
			}
		}
		if strings.TrimSpace(src) == "" {
			return // ParseYAML answers empty documents before either path
		}
		m, ok := parseSimple([]byte(src), nil)
		if !ok {
			return
		}
		v, err := parseYAMLv3([]byte(src), 1)
		if err != nil {
			t.Fatalf("fast path accepted %q but yaml.v3 rejects it: %v", src, err)
		}
		if v == nil && m.Len() == 0 {
			return
		}
		if !same(m, v) {
			j1, _ := json.Marshal(m)
			j2, _ := json.Marshal(v)
			t.Fatalf("fast path differs from yaml.v3 on %q:\n%s\n%s", src, j1, j2)
		}
		// Sharing values changes nothing a reader sees, even on a second document.
		in := NewInterner("t")
		for range 2 {
			if m2, ok := parseSimple([]byte(src), in); !ok || !same(m2, v) {
				t.Fatalf("shared values differ from yaml.v3 on %q", src)
			}
		}
	})
}

func TestInternerSharesRepeatedValues(t *testing.T) {
	in := NewInterner("title")
	a, _ := parseSimple([]byte("title: One\ncategory: news\ntags: [go, web]\n"), in)
	b, _ := parseSimple([]byte("title: One\ncategory: news\ntags:\n  - web\n"), in)
	sameData := func(x, y any) bool {
		xs, ys := x.(string), y.(string)
		return xs == ys && unsafe.StringData(xs) == unsafe.StringData(ys)
	}
	if !sameData(a.Value("category"), b.Value("category")) {
		t.Error("category not shared")
	}
	if !sameData(a.Value("tags").([]any)[1], b.Value("tags").([]any)[0]) {
		t.Error("tag not shared")
	}
	if sameData(a.Value("title"), b.Value("title")) {
		t.Error("a skipped key's value was shared")
	}
	// Lists stay each document's own.
	a.Value("tags").([]any)[1] = "changed"
	if b.Value("tags").([]any)[0] != "web" {
		t.Error("a change to one document's list reached the other")
	}
	// The table is bounded: values that never repeat do not grow it past its size.
	for i := range 3 * maxInterned {
		in.String(strconv.Itoa(i))
	}
	if len(in.vals) > maxInterned {
		t.Errorf("%d values remembered, want at most %d", len(in.vals), maxInterned)
	}
}

// yamlPrintableBytewise is yamlPrintable a character at a time, as it was before it read words.
func yamlPrintableBytewise(src []byte) bool {
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		if !yamlRuneOK(r) {
			return false
		}
		src = src[size:]
	}
	return true
}

// Reading eight bytes at a time changes no verdict: every byte value at every position of a
// word, and characters of every length straddling a word's end.
func TestYAMLPrintableWords(t *testing.T) {
	t.Parallel()
	check := func(src []byte) {
		t.Helper()
		if got, want := yamlPrintable(src), yamlPrintableBytewise(src); got != want {
			t.Fatalf("yamlPrintable(%q) = %v, want %v", src, got, want)
		}
	}
	for c := range 256 {
		for pos := range 17 {
			src := bytes.Repeat([]byte("title: x"), 3)[:17]
			src[pos] = byte(c)
			check(src)
		}
	}
	for _, r := range []string{"é", "€", "𝄞", "\u2028", "\u0085", "\uFEFF", "\xff", "\xe2\x82"} {
		for pos := range 10 {
			src := append(append(bytes.Repeat([]byte("a"), pos), r...), "bcdefghijklmnop"...)
			check(src)
		}
	}
}
