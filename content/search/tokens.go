// Package search is the full-text index of entries: tokens folded to a Unicode-insensitive form,
// an inverted index per collection with BM25F ranking (the title boosted), prefix matching of the
// last query word, and highlighted snippets. It is pure; fsstore's entry index keeps one per
// collection up to date and persists it in its snapshot.
package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// MaxTokenLen bounds a token in bytes; longer runs of letters (base64, hashes) are cut.
const MaxTokenLen = 48

// folder is the full Unicode case fold (ß -> ss, Σ/ς -> σ), which strings.ToLower does not do.
// cases.Caser is stateful, so each call takes its own (Fold returns a fresh one cheaply).
func fold(s string) string { return cases.Fold().String(s) }

// Fold maps a word to its search form: case-folded, decomposed (NFKD, so ligatures and full-width
// forms match their plain letters) and without combining marks, so "Éclair", "ECLAIR" and
// "éclair" are one term. ASCII words take a fast path.
func Fold(word string) string {
	ascii := true
	for i := 0; i < len(word); i++ {
		if word[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(word)
	}
	d := norm.NFKD.String(fold(word))
	var b strings.Builder
	b.Grow(len(d))
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isWord reports whether r belongs to a token: letters, digits and combining marks.
func isWord(r rune) bool {
	return r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') ||
		r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
}

// Tokens calls fn with each token of s, folded, and its byte range in s.
func Tokens(s string, fn func(tok string, start, end int)) {
	start := -1
	for i, r := range s {
		if isWord(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emit(s, start, i, fn)
			start = -1
		}
	}
	if start >= 0 {
		emit(s, start, len(s), fn)
	}
}

func emit(s string, start, end int, fn func(string, int, int)) {
	w := s[start:end]
	if len(w) > MaxTokenLen {
		// Cut at a rune boundary.
		n := MaxTokenLen
		for n > 0 && !utf8.RuneStart(w[n]) {
			n--
		}
		w = w[:n]
	}
	if t := Fold(w); t != "" {
		fn(t, start, end)
	}
}
