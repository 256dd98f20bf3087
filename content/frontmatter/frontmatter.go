// Package frontmatter splits, parses and serialises the YAML front matter of Markdown files and
// converts YAML documents to and from ordered [content.Map] values. It is pure: no file access.
//
// Values keep their written form: a plain scalar that YAML would resolve to a timestamp
// (createdAt: 2026-05-31T20:00:00.000Z) stays the string it was written as, and is written back
// unquoted; mapping keys keep their order.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"cms/content"
)

// Error is a parse failure with the line (1-based, within the whole file) it was found on.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Split separates a document into its front matter and body. A document that does not start
// with a "---" line has no front matter. fmLine is the file line on which the front matter
// starts (for error positions).
func Split(src []byte) (fm, body []byte, fmLine int, err error) {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	first, rest, ok := cutLine(src)
	if !ok && len(first) == 0 {
		return nil, src, 0, nil
	}
	if string(bytes.TrimRight(first, " \t\r")) != "---" {
		return nil, src, 0, nil
	}
	line := 2
	start := rest
	off := 0
	for {
		l, r, more := cutLine(rest)
		t := bytes.TrimRight(l, " \t\r") // compared without a string copy of each line
		if string(t) == "---" || string(t) == "..." {
			return start[:off], r, 2, nil
		}
		if !more {
			return nil, nil, 0, &Error{Line: 1, Msg: "front matter is not closed: missing '---' line"}
		}
		off += len(l) + 1
		rest = r
		line++
	}
}

func cutLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil, false
	}
	return b[:i], b[i+1:], true
}

// Document is a parsed Markdown file: ordered front matter plus body.
type Document struct {
	Front *content.Map
	Body  string
}

// Parse splits and parses a Markdown document. The body is trimmed of surrounding whitespace.
// Front matter must be a mapping (or empty).
func Parse(src []byte) (Document, error) {
	fm, body, line, err := Split(src)
	if err != nil {
		return Document{}, err
	}
	m, err := ParseYAMLMap(fm, line)
	if err != nil {
		return Document{}, err
	}
	return Document{Front: m, Body: strings.TrimSpace(string(body))}, nil
}

// ParseFront parses only the front matter of a document, without copying its body (indexes
// that keep metadata only use it).
func ParseFront(src []byte) (*content.Map, error) { return ParseFrontShared(src, nil) }

// ParseFrontShared is ParseFront with string values shared through in (see Interner).
func ParseFrontShared(src []byte, in *Interner) (*content.Map, error) {
	fm, _, line, err := Split(src)
	if err != nil {
		return nil, err
	}
	return parseYAMLMap(fm, line, in)
}

// ParseYAMLMap parses a YAML document that must be a mapping (empty input gives an empty map).
// lineOffset is the file line the document starts on, so errors point into the file.
func ParseYAMLMap(src []byte, lineOffset int) (*content.Map, error) {
	return parseYAMLMap(src, lineOffset, nil)
}

func parseYAMLMap(src []byte, lineOffset int, in *Interner) (*content.Map, error) {
	v, err := parseYAML(src, lineOffset, in)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case nil:
		return content.NewMap(0), nil
	case *content.Map:
		return x, nil
	default:
		return nil, &Error{Line: max(lineOffset, 1), Msg: fmt.Sprintf("expected a mapping of keys to values, found %s", describe(x))}
	}
}

func describe(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	}
	return "a scalar"
}

// ParseYAML parses one YAML document into Map values.
func ParseYAML(src []byte, lineOffset int) (any, error) { return parseYAML(src, lineOffset, nil) }

func parseYAML(src []byte, lineOffset int, in *Interner) (any, error) {
	if lineOffset < 1 {
		lineOffset = 1
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil
	}
	// The limits the writer keeps to (content.MaxDocumentBytes, content.MaxNesting): a document
	// past them was not written by the service, and is refused rather than parsed at any cost.
	if len(src) > content.MaxDocumentBytes {
		return nil, &Error{Line: lineOffset, Msg: fmt.Sprintf("document is larger than %d MiB", content.MaxDocumentBytes>>20)}
	}
	if m, ok := parseSimple(src, in); ok {
		return m, nil
	}
	return parseYAMLv3(src, lineOffset)
}

// parseYAMLv3 parses with yaml.v3: the general path for anything parseSimple does not take.
func parseYAMLv3(src []byte, lineOffset int) (any, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlError(err, lineOffset)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{Line: extra.Line + lineOffset - 1, Msg: "more than one YAML document"}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	return convert(doc.Content[0], lineOffset, 0)
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

func yamlError(err error, lineOffset int) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &Error{Line: n + lineOffset - 1, Msg: strings.TrimSpace(yamlLineRE.ReplaceAllString(msg, ""))}
	}
	return &Error{Line: lineOffset, Msg: msg}
}

// convert turns a node into a Map value. depth is the number of mappings and sequences around
// n, counted as content.Nesting counts them.
func convert(n *yaml.Node, lineOffset, depth int) (any, error) {
	if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && depth >= content.MaxNesting {
		return nil, &Error{Line: n.Line + lineOffset - 1, Msg: fmt.Sprintf("document nests mappings and lists more than %d levels deep", content.MaxNesting)}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return convert(n.Content[0], lineOffset, depth)
	case yaml.AliasNode:
		// Aliases are resolved by value, once. An alias cannot name an alias, and what it names
		// is bounded by depth like any other value.
		return convert(n.Alias, lineOffset, depth)
	case yaml.MappingNode:
		m := content.NewMap(len(n.Content) / 2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Tag == "!!merge" {
				if err := merge(m, v, lineOffset, depth); err != nil {
					return nil, err
				}
				continue
			}
			if k.Kind != yaml.ScalarNode {
				return nil, &Error{Line: k.Line + lineOffset - 1, Msg: "mapping keys must be plain strings"}
			}
			val, err := convert(v, lineOffset, depth+1)
			if err != nil {
				return nil, err
			}
			m.Set(k.Value, val)
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := convert(c, lineOffset, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		return scalar(n, lineOffset)
	}
	return nil, &Error{Line: n.Line + lineOffset - 1, Msg: "unsupported YAML node"}
}

func merge(m *content.Map, v *yaml.Node, lineOffset, depth int) error {
	val, err := convert(v, lineOffset, depth+1)
	if err != nil {
		return err
	}
	add := func(x any) error {
		src, ok := x.(*content.Map)
		if !ok {
			return &Error{Line: v.Line + lineOffset - 1, Msg: "merge value must be a mapping"}
		}
		for _, k := range src.Keys() {
			if _, exists := m.Get(k); !exists {
				m.Set(k, src.Value(k))
			}
		}
		return nil
	}
	if list, ok := val.([]any); ok {
		for _, x := range list {
			if err := add(x); err != nil {
				return err
			}
		}
		return nil
	}
	return add(val)
}

func scalar(n *yaml.Node, lineOffset int) (any, error) {
	switch n.ShortTag() {
	case "!!str", "!!timestamp", "!!binary":
		// Timestamps stay strings in their written form.
		return n.Value, nil
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, &Error{Line: n.Line + lineOffset - 1, Msg: err.Error()}
		}
		return b, nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return i, nil
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return n.Value, nil
		}
		return f, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, &Error{Line: n.Line + lineOffset - 1, Msg: err.Error()}
		}
		return f, nil
	}
	// Unknown explicit tags: keep the text.
	return n.Value, nil
}

// ErrNotMap is returned when a value that must be a mapping is not.
var ErrNotMap = errors.New("not a mapping")

// Node converts a Map value into a YAML node tree, keeping key order. Strings that YAML would
// read as another type are quoted, except timestamps, which are written plain so that a date
// read from a file is written back exactly as it was.
func Node(v any) *yaml.Node {
	switch x := v.(type) {
	case *content.Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range x.Keys() {
			n.Content = append(n.Content, strNode(k), Node(x.Value(k)))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			n.Content = append(n.Content, Node(e))
		}
		return n
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}
	case float64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: formatFloat(x)}
	case string:
		return strNode(x)
	}
	return Node(content.Normalize(v))
}

func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0" // keep it a float when read back
	}
	return s
}

var timestampRE = regexp.MustCompile(`^\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$`)

func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if timestampRE.MatchString(s) && isTimestamp(s) {
		n.Tag = "!!timestamp"
	}
	switch {
	case unclearSpaces(s):
		// Written plain or single-quoted, these reach other readers (and people) changed: yaml.v3
		// folds U+2028 like a line break and indents after it, and " 0" looks like 0. Double
		// quotes keep the edges visible and escape the separators (\L, \P, \N).
		n.Style = yaml.DoubleQuotedStyle
	case literalSafe(s):
		n.Style = yaml.LiteralStyle
	case strings.ContainsAny(s, "\n\r"):
		// yaml.v3 would pick a literal block on its own and lose leading blank lines.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// unclearSpaces reports whether s holds a character that YAML 1.1 takes for a line break
// (U+0085, U+2028, U+2029) or starts or ends with a Unicode space or invisible format character.
func unclearSpaces(s string) bool {
	if strings.ContainsAny(s, "\u0085\u2028\u2029") {
		return true
	}
	return s != "" && !plainEdges(s)
}

// isTimestamp checks that yaml.v3 itself reads s as a timestamp, so writing it plain is lossless.
func isTimestamp(s string) bool {
	// yaml.v3 tries a timestamp only for text that starts with four digits and '-'.
	if len(s) < 5 || !allDigits(s[:4]) || s[4] != '-' {
		return false
	}
	if isSimpleDate(s) {
		// Digits, '-', ':', 'T', '.', 'Z' and '+' only: yaml.v3 reads the text as one plain
		// scalar, a timestamp exactly when its parseTimestamp accepts it. Every submission
		// writes one or two such dates; asking yaml.v3 costs ~8 µs each.
		return yamlParsesTimestamp(s)
	}
	return isTimestampYAML(s)
}

// yamlTimestampFormats are yaml.v3's allowedTimestampFormats (resolve.go), tried in its order.
var yamlTimestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

func yamlParsesTimestamp(s string) bool {
	for _, f := range yamlTimestampFormats {
		if _, err := time.Parse(f, s); err == nil {
			return true
		}
	}
	return false
}

// isTimestampYAML asks yaml.v3 itself.
func isTimestampYAML(s string) bool {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(s), &n); err != nil || len(n.Content) != 1 {
		return false
	}
	return n.Content[0].ShortTag() == "!!timestamp" && n.Content[0].Value == s
}

// literalSafe reports whether s can be written as a literal block (readable multi-line text)
// and read back unchanged: block scalars cannot start with a blank line or indentation, and lines
// must not end in spaces.
func literalSafe(s string) bool {
	if !strings.Contains(s, "\n") || strings.ContainsAny(s, "\r") || !isPrintable(s) {
		return false
	}
	if s[0] == '\n' || s[0] == ' ' || s[0] == '\t' {
		return false
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
			return false
		}
	}
	return true
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' {
			return false
		}
		if r == 0x7f || r == 0xfeff {
			return false
		}
	}
	return true
}

// MarshalYAML serialises a value as a YAML document with two-space indentation. It writes
// nothing the reader would refuse: a value nested deeper than content.MaxNesting is a
// content.NestingTooDeep error before any YAML is built, and one whose YAML passes
// content.MaxDocumentBytes a content.DocumentTooLarge error as soon as the encoder gets there,
// so indentation cannot make it allocate more than that.
func MarshalYAML(v any) ([]byte, error) {
	const op = "frontmatter.MarshalYAML"
	if content.Nesting(v) > content.MaxNesting {
		return nil, content.NestingTooDeep(op)
	}
	if m, ok := v.(*content.Map); ok && m.Len() > 0 {
		if b, ok := appendFastYAML(make([]byte, 0, 512), m, 0); ok {
			if len(b) > content.MaxDocumentBytes {
				return nil, content.DocumentTooLarge(op)
			}
			return b, nil
		}
	}
	return marshalYAMLv3(v)
}

// marshalYAMLv3 is MarshalYAML through yaml.v3, for what appendFastYAML does not take.
func marshalYAMLv3(v any) ([]byte, error) {
	const op = "frontmatter.MarshalYAML"
	out := cappedBuffer{max: content.MaxDocumentBytes}
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	err := enc.Encode(Node(v))
	if err == nil {
		err = enc.Close()
	}
	if out.over {
		return nil, content.DocumentTooLarge(op)
	}
	if err != nil {
		return nil, fmt.Errorf("encode yaml: %w", err)
	}
	return out.buf.Bytes(), nil
}

// cappedBuffer is a buffer that refuses to grow past max bytes.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

var errCapped = errors.New("document too large")

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.over || c.buf.Len()+len(p) > c.max {
		c.over = true
		return 0, errCapped
	}
	return c.buf.Write(p)
}

// Format writes a Markdown document: "---\n" + front matter + "---\n\n" + body + "\n".
func Format(front *content.Map, body string) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("---\n")
	if front.Len() > 0 {
		y, err := MarshalYAML(front)
		if err != nil {
			return nil, err
		}
		buf.Write(y)
	}
	buf.WriteString("---\n")
	body = strings.TrimSpace(body)
	if body != "" {
		buf.WriteString("\n")
		buf.WriteString(body)
		buf.WriteString("\n")
	}
	return buf.Bytes(), nil
}
