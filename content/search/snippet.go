package search

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf8"
)

// SnippetTokens is about how many words a snippet shows.
const SnippetTokens = 30

var (
	mdLink    = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	mdTag     = regexp.MustCompile(`<[^>]{0,200}>`)
	mdMarkers = strings.NewReplacer("```", " ", "`", "", "**", "", "__", "", "*", "", "#", "", "> ", " ", "|", " ")
	spaces    = regexp.MustCompile(`\s+`)
)

// PlainText reduces Markdown to the words a reader sees: links to their text, tags and markup
// characters dropped, white space collapsed. It is for snippets, not for rendering.
func PlainText(md string) string {
	s := mdLink.ReplaceAllString(md, "$1")
	s = mdTag.ReplaceAllString(s, " ")
	s = mdMarkers.Replace(s)
	return strings.TrimSpace(spaces.ReplaceAllString(s, " "))
}

// Snippet returns about SnippetTokens words of text around the densest run of the query's words,
// HTML-escaped, with each matching word wrapped in <mark>...</mark> (the only markup in it), and
// "…" where text was cut. Words match as in Search: exactly, the last one also as a prefix.
func Snippet(text, query string) string {
	var words []string
	Tokens(query, func(t string, _, _ int) {
		if len(words) < MaxQueryTerms {
			words = append(words, t)
		}
	})
	r, _ := utf8.DecodeLastRuneInString(query)
	prefix := isWord(r) && len(words) > 0 && utf8.RuneCountInString(words[len(words)-1]) >= MinPrefix
	match := func(t string) bool {
		for i, w := range words {
			if t == w || (prefix && i == len(words)-1 && strings.HasPrefix(t, w)) {
				return true
			}
		}
		return false
	}
	type tok struct {
		start, end int
		hit        bool
	}
	var toks []tok
	Tokens(text, func(t string, start, end int) { toks = append(toks, tok{start, end, match(t)}) })
	if len(toks) == 0 {
		return html.EscapeString(text)
	}
	// The window of SnippetTokens tokens with the most hits; start a few words before the first.
	best, bestHits, hits := 0, -1, 0
	for i := range toks {
		if toks[i].hit {
			hits++
		}
		if i >= SnippetTokens && toks[i-SnippetTokens].hit {
			hits--
		}
		if hits > bestHits {
			bestHits, best = hits, max(0, i-SnippetTokens+1)
		}
	}
	for i := best; i < len(toks) && i < best+SnippetTokens; i++ {
		if toks[i].hit {
			best = max(0, i-3)
			break
		}
	}
	best = min(best, max(0, len(toks)-SnippetTokens)) // no shorter than the text allows
	last := min(len(toks), best+SnippetTokens) - 1
	from, to := toks[best].start, toks[last].end
	if best == 0 {
		from = 0
	}
	if last == len(toks)-1 {
		to = len(text)
	}
	var out strings.Builder
	if from > 0 {
		out.WriteString("… ")
	}
	pos := from
	for _, t := range toks[best : last+1] {
		if !t.hit {
			continue
		}
		out.WriteString(html.EscapeString(text[pos:t.start]))
		out.WriteString("<mark>")
		out.WriteString(html.EscapeString(text[t.start:t.end]))
		out.WriteString("</mark>")
		pos = t.end
	}
	out.WriteString(html.EscapeString(text[pos:to]))
	if to < len(text) {
		out.WriteString(" …")
	}
	return out.String()
}
