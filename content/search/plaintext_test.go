package search_test

import (
	"regexp"
	"strings"
	"testing"

	"cms/content/search"
)

// plainTextRegexp is PlainText as regular expressions wrote it first: the reference the
// scanners must match byte for byte.
func plainTextRegexp(md string) string {
	s := refLink.ReplaceAllString(md, "$1")
	s = refTag.ReplaceAllString(s, " ")
	s = refMarkers.Replace(s)
	return strings.TrimSpace(refSpaces.ReplaceAllString(s, " "))
}

var (
	refLink    = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	refTag     = regexp.MustCompile(`<[^>]{0,200}>`)
	refMarkers = strings.NewReplacer("```", " ", "`", "", "**", "", "__", "", "*", "", "#", "", "> ", " ", "|", " ")
	refSpaces  = regexp.MustCompile(`\s+`)
)

var plainTextCases = []string{
	"# Title\n\nSee [the *docs*](https://x.example/a) and <b>bold</b> `code`.",
	"![alt text](img.png) and !not [a](b) ![x](",
	"[a [b](c) d](e)", "[no link] (x)", "[unclosed", "[a](unclosed", "[a]b(c)", "][(]()",
	"!![x](y)", "[x](y)[z](w)", "[](empty)", "[x]()",
	"<" + strings.Repeat("a", 200) + ">", "<" + strings.Repeat("a", 201) + ">", "< <" + strings.Repeat("é", 199) + ">",
	"<" + strings.Repeat("é", 201) + ">", "a < b > c", "<<>>", "<\n>", "x\xff<\xfe\xfd>y",
	"tabs\t\tand\n\n\rnew\flines  and   spaces", " \v lead and trail \u00a0", "***bold*** __u__ ___x___ > quote |a|b|",
	"```go\ncode\n```", "####### h", "", "   ",
}

func TestPlainTextMatchesTheRegexpReference(t *testing.T) {
	t.Parallel()
	for _, in := range plainTextCases {
		if got, want := search.PlainText(in), plainTextRegexp(in); got != want {
			t.Errorf("PlainText(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzPlainText(f *testing.F) {
	for _, s := range plainTextCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := search.PlainText(in), plainTextRegexp(in); got != want {
			t.Fatalf("PlainText(%q) = %q, want %q", in, got, want)
		}
	})
}

func BenchmarkPlainText(b *testing.B) {
	md := strings.Repeat("## Heading\n\nSome *text* with a [link](https://example.com/x) and `code`, <b>tags</b>.\n\n- item one\n- item two\n\n", 20)
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			search.PlainText(md)
		}
	})
	b.Run("regexp", func(b *testing.B) {
		for b.Loop() {
			plainTextRegexp(md)
		}
	})
}
