package search

import (
	"html"
	"strings"
	"unicode/utf8"
)

// SnippetTokens is about how many words a snippet shows.
const SnippetTokens = 30

// mdMarkers are the Markdown characters PlainText drops (or turns into a space), earlier
// patterns first where they overlap.
var mdMarkers = strings.NewReplacer("```", " ", "`", "", "**", "", "__", "", "*", "", "#", "", "> ", " ", "|", " ")

// PlainText reduces Markdown to the words a reader sees: links to their text, tags and markup
// characters dropped, white space collapsed. It is for snippets, not for rendering. Each step
// is a single scan (regular expressions made it a tenth of a millisecond per entry, the bulk of
// building the full-text index of a site).
func PlainText(md string) string {
	s := linkTexts(md)
	s = dropTags(s)
	s = mdMarkers.Replace(s)
	return strings.TrimSpace(collapseSpace(s))
}

// linkTexts replaces each Markdown link or image, ![text](target) or [text](target), with its
// text: a "[" up to the first "]", which must be followed by "(", up to the first ")".
func linkTexts(s string) string {
	var b strings.Builder
	last := 0 // s[last:] is not copied yet
	for i := 0; i < len(s); {
		open := strings.IndexByte(s[i:], '[')
		if open < 0 {
			break
		}
		open += i
		closeText := strings.IndexByte(s[open+1:], ']')
		if closeText < 0 {
			break // no "]" after any later "[" either
		}
		closeText += open + 1
		if closeText+1 >= len(s) || s[closeText+1] != '(' {
			i = closeText // every "[" before this "]" ends at it: none of them is a link
			continue
		}
		end := strings.IndexByte(s[closeText+2:], ')')
		if end < 0 {
			break // no ")" after this or any later link text
		}
		end += closeText + 2
		start := open
		if start > last && s[start-1] == '!' {
			start--
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:start])
		b.WriteString(s[open+1 : closeText])
		last, i = end+1, end+1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// maxTag is the most characters between "<" and ">" that dropTags takes for a tag.
const maxTag = 200

// dropTags replaces each "<" ... ">" with at most maxTag characters (none of them ">") between
// with a space.
func dropTags(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			break
		}
		lt += i
		gt := strings.IndexByte(s[lt+1:], '>')
		if gt < 0 {
			break // no ">" after any later "<" either
		}
		gt += lt + 1
		if !atMostRunes(s[lt+1:gt], maxTag) {
			i = lt + 1 // a later "<" before this ">" may be close enough
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:lt])
		b.WriteByte(' ')
		last, i = gt+1, gt+1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// atMostRunes reports whether s has at most n characters (an invalid byte counting as one).
func atMostRunes(s string, n int) bool {
	if len(s) <= n {
		return true
	}
	return utf8.RuneCountInString(s[:min(len(s), 4*(n+1))]) <= n
}

// collapseSpace turns each run of ASCII white space (\t \n \f \r and space) into one space.
func collapseSpace(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			continue
		}
		j := i + 1
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j == i+1 && s[i] == ' ' {
			continue // already one space
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:i])
		b.WriteByte(' ')
		last, i = j, j-1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

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
