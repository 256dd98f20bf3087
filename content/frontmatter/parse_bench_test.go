package frontmatter

import (
	"strings"
	"testing"
)

// benchEntry is an entry file as the benchmark site generator writes them (front matter of
// about 300 bytes, a body of a few kilobytes).
var benchEntry = []byte("---\ntitle: Able after already 69697\nslug: able-after-69697\nstatus: published\n" +
	"createdAt: 2023-11-21T09:18:06.707Z\nupdatedAt: 2024-01-18T21:18:06.707Z\ncategory: opinion\n" +
	"featured: false\nrating: 7\ntags:\n  - git\n  - design\n  - go\nauthor_name: Grace Yilmaz\n---\n\n" +
	strings.Repeat("## Random morning pocket\n\n_Crystal_ `garden` coffee camera signal thunder forest manner inland.\n\n", 30))

// BenchmarkParseFront is the front matter parse the entry index runs for every file it reads.
func BenchmarkParseFront(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseFront(benchEntry); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLoneCR(t *testing.T) {
	for src, want := range map[string]bool{
		"":             false,
		"a: 1\r\nb: 2": false,
		"a: 1\r\n":     false,
		"a: 1\rb: 2":   true,
		"a: 1\r":       true,
		"a\r\n\r":      true,
		"\r\r\n":       true,
	} {
		if got := loneCR([]byte(src)); got != want {
			t.Errorf("loneCR(%q) = %v, want %v", src, got, want)
		}
	}
}
