package frontmatter

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
	m, ok := parseSimple([]byte(src))
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
		if _, ok := parseSimple([]byte(src)); ok {
			t.Errorf("fast path accepted %q, which it cannot be sure of", src)
		}
	}
}

// FuzzSimpleMatchesYAML: whenever the fast path accepts input, yaml.v3 must agree exactly.
func FuzzSimpleMatchesYAML(f *testing.F) {
	for _, s := range []string{
		"title: x\nn: 1\n", "a: [1, b, true]\n", "a:\n  - 1\n  - x\n", "d: 2026-01-02\n", "q: 'a''b'\n",
		"f: -0.5\n", "x: null\ny: ~\n", "k: True\n", "k: yes\n", "u: ünï\n", "p: /path/x\n", "z: 99999999999999999999\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.TrimSpace(src) == "" {
			return // ParseYAML answers empty documents before either path
		}
		m, ok := parseSimple([]byte(src))
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
	})
}
