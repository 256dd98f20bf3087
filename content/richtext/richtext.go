// Package richtext renders the rich-text documents that `tiptap` fields store (ProseMirror JSON:
// {"type":"doc","content":[...]}) to HTML for the website.
//
// Documents are untrusted input (anyone allowed to edit an entry can store any JSON through the
// API), so rendering is by allow-list: known nodes and marks become fixed tags, text is escaped,
// links and images keep only safe addresses, and every other attribute is dropped. A node of an
// unknown type is not drawn but its children are, so no text is lost to a newer editor's node.
// Depth and node count are limited.
package richtext

import (
	"errors"
	"fmt"
	"html"
	"math"
	"net/url"
	"strings"

	"cms/content"
)

// Limits: deeper or larger documents are refused (ErrLimit) rather than rendered in part. The
// editor never makes anything close; only a hand-made document can reach them.
const (
	MaxDepth = 64
	MaxNodes = 200_000
)

// ErrLimit is returned (wrapped) for a document over MaxDepth or MaxNodes.
var ErrLimit = errors.New("rich text over the size limits")

// IsDocument reports whether v is a rich-text document (a map with a "type"), as content/validate
// reads it: *content.Map, map[string]any, or either encoded as a JSON string.
func IsDocument(v any) bool {
	_, ok := node(v)
	return ok
}

// Parse returns the document held in a string (rich text stored as JSON), or false when the
// string is something else (Markdown, from before the field held documents).
func Parse(s string) (map[string]any, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") {
		return nil, false
	}
	var m content.Map
	if err := m.UnmarshalJSON([]byte(t)); err != nil {
		return nil, false
	}
	if _, ok := m.Get("type"); !ok {
		return nil, false
	}
	return m.Plain(), true
}

// node returns v as a node map, when it is one.
func node(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		_, ok := x["type"].(string)
		return x, ok
	case *content.Map:
		if x == nil {
			return nil, false
		}
		return node(x.Plain())
	case string:
		return Parse(x)
	}
	return nil, false
}

// Render returns the HTML of a document (see IsDocument for the forms it takes). A value that is
// no document renders as nothing.
func Render(v any) (string, error) {
	n, ok := node(v)
	if !ok {
		return "", nil
	}
	r := renderer{}
	r.b.Grow(256)
	if err := r.node(n, 0); err != nil {
		return "", err
	}
	return r.b.String(), nil
}

type renderer struct {
	b     strings.Builder
	nodes int
}

// blocks maps simple node types to their element.
var blocks = map[string]string{
	"paragraph": "p", "bulletList": "ul", "listItem": "li", "blockquote": "blockquote",
	"taskList": "ul", "taskItem": "li",
}

func (r *renderer) node(n map[string]any, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("%w: nested deeper than %d", ErrLimit, MaxDepth)
	}
	if r.nodes++; r.nodes > MaxNodes {
		return fmt.Errorf("%w: more than %d nodes", ErrLimit, MaxNodes)
	}
	typ, _ := n["type"].(string)
	attrs, _ := n["attrs"].(map[string]any)
	switch typ {
	case "text":
		s, _ := n["text"].(string)
		r.text(s, n["marks"])
		return nil
	case "hardBreak":
		r.b.WriteString("<br>")
		return nil
	case "horizontalRule":
		r.b.WriteString("<hr>")
		return nil
	case "image":
		r.image(attrs)
		return nil
	case "codeBlock":
		// Code is text only: marks inside are not drawn.
		r.b.WriteString("<pre><code")
		if lang, _ := attrs["language"].(string); codeLanguage(lang) {
			r.b.WriteString(` class="language-` + lang + `"`)
		}
		r.b.WriteString(">")
		r.plain(n, depth+1)
		r.b.WriteString("</code></pre>")
		return nil
	case "heading":
		level := clamp(number(attrs["level"], 2), 1, 6)
		fmt.Fprintf(&r.b, "<h%d>", level)
		if err := r.children(n, depth); err != nil {
			return err
		}
		fmt.Fprintf(&r.b, "</h%d>", level)
		return nil
	case "orderedList":
		r.b.WriteString("<ol")
		if start := number(attrs["start"], 1); start != 1 {
			fmt.Fprintf(&r.b, ` start="%d"`, start)
		}
		r.b.WriteString(">")
		if err := r.children(n, depth); err != nil {
			return err
		}
		r.b.WriteString("</ol>")
		return nil
	}
	tag, ok := blocks[typ]
	if ok {
		r.b.WriteString("<" + tag + ">")
	}
	if err := r.children(n, depth); err != nil {
		return err
	}
	if ok {
		r.b.WriteString("</" + tag + ">")
	}
	return nil
}

func (r *renderer) children(n map[string]any, depth int) error {
	kids, _ := n["content"].([]any)
	for _, k := range kids {
		if c, ok := k.(map[string]any); ok {
			if err := r.node(c, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// plain writes the escaped text below n (inside a code block), hard breaks as newlines.
func (r *renderer) plain(n map[string]any, depth int) {
	kids, _ := n["content"].([]any)
	for _, k := range kids {
		c, ok := k.(map[string]any)
		if !ok || depth > MaxDepth {
			continue
		}
		r.nodes++
		switch c["type"] {
		case "text":
			s, _ := c["text"].(string)
			r.b.WriteString(html.EscapeString(s))
		case "hardBreak":
			r.b.WriteString("\n")
		default:
			r.plain(c, depth+1)
		}
	}
}

// marks maps mark types to their element; link is drawn apart (it has an address).
var marks = map[string]string{
	"bold": "strong", "italic": "em", "strike": "s", "code": "code", "underline": "u",
	"subscript": "sub", "superscript": "sup", "highlight": "mark",
}

// text writes escaped text inside its marks' elements (unknown marks are left out).
func (r *renderer) text(s string, ms any) {
	list, _ := ms.([]any)
	var closers []string
	for _, m := range list {
		mk, ok := m.(map[string]any)
		if !ok {
			continue
		}
		typ, _ := mk["type"].(string)
		if typ == "link" {
			attrs, _ := mk["attrs"].(map[string]any)
			href, _ := attrs["href"].(string)
			if href, ok := safeURL(href, true); ok {
				r.b.WriteString(`<a href="` + html.EscapeString(href) + `" rel="noopener noreferrer nofollow">`)
				closers = append(closers, "</a>")
			}
			continue
		}
		if tag, ok := marks[typ]; ok {
			r.b.WriteString("<" + tag + ">")
			closers = append(closers, "</"+tag+">")
		}
	}
	r.b.WriteString(html.EscapeString(s))
	for i := len(closers) - 1; i >= 0; i-- {
		r.b.WriteString(closers[i])
	}
}

// image draws an image whose address is safe; alt and title are escaped text.
func (r *renderer) image(attrs map[string]any) {
	src, _ := attrs["src"].(string)
	src, ok := safeURL(src, false)
	if !ok {
		return
	}
	alt, _ := attrs["alt"].(string)
	r.b.WriteString(`<img src="` + html.EscapeString(src) + `" alt="` + html.EscapeString(alt) + `"`)
	if title, _ := attrs["title"].(string); title != "" {
		r.b.WriteString(` title="` + html.EscapeString(title) + `"`)
	}
	r.b.WriteString(">")
}

// codeLanguage reports whether s is a code block language that may become a class name: 1 to
// 32 ASCII letters, digits or bytes of _+#.-.
func codeLanguage(s string) bool {
	return len(s) >= 1 && len(s) <= 32 && strings.IndexFunc(s, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_+#.-", c))
	}) < 0
}

// safeURL returns an address that may be a link (http, https, mailto, tel) or an image source
// (http, https), or one on this site (a path or a fragment); anything else (javascript:, data:,
// addresses with control characters) is refused.
func safeURL(s string, link bool) (string, bool) {
	s = strings.TrimSpace(s)
	// Browsers read a backslash as a slash ("/\evil.example" is another site) and skip control
	// characters inside a scheme ("java\tscript:"), so addresses with either are refused.
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return s, u.Host != ""
	case "mailto", "tel":
		return s, link
	case "":
		// A path or fragment of this site; "//host" would be another site without a scheme.
		return s, !strings.HasPrefix(s, "//")
	}
	return "", false
}

// number reads a whole number attribute (JSON numbers decode as float64, YAML ones as int64).
func number(v any, def int) int {
	switch x := v.(type) {
	case int64:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return int(x)
		}
	case int:
		return x
	case float64:
		if x == math.Trunc(x) && x >= math.MinInt32 && x <= math.MaxInt32 {
			return int(x)
		}
	}
	return def
}

func clamp(n, lo, hi int) int { return max(lo, min(hi, n)) }
