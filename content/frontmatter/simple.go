package frontmatter

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"cms/content"
)

// parseSimple parses the YAML most front matter is made of — top-level "key: value" lines whose
// values are plain or simply quoted scalars, flow lists of plain scalars, or block lists of plain
// scalars — without building a yaml.v3 node tree, which is several times slower and dominates
// start-up on large sites. Anything else (nesting, block scalars, anchors, tags, comments after
// values, escapes, U+2028/U+2029, Unicode spaces at the edges of plain scalars) returns ok=false
// and goes through yaml.v3. White space is YAML's (space and tab), not Go's Unicode notion. The two paths are checked against
// each other by FuzzSimpleMatchesYAML: whenever this accepts a document it must produce exactly
// what yaml.v3 produces. String values are boxed through shared (see Interner; nil for none).
func parseSimple(src []byte, shared *Interner) (*content.Map, bool) {
	if !yamlPrintable(src) || loneCR(src) {
		return nil, false // a lone CR is a line break to YAML
	}
	m := content.NewMap(8)
	// One string for the document: keys and values are substrings of it, not one allocation each.
	lines := strings.Split(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSuffix(lines[i], "\r")
		if trimBlanks(line) == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' || strings.HasPrefix(line, "...") {
			return nil, false
		}
		colon := strings.IndexByte(line, ':')
		if colon <= 0 {
			return nil, false
		}
		key := line[:colon]
		if !simpleKey(key) {
			return nil, false
		}
		if _, dup := m.Get(key); dup {
			return nil, false // yaml.v3 reports duplicate keys; let it
		}
		in := shared.forKey(key)
		rest := line[colon+1:]
		if rest != "" && rest[0] != ' ' {
			return nil, false
		}
		val := trimBlanks(rest)
		if val == "" {
			// Either null or a block list of plain scalars on the following lines.
			var items []any
			j := i + 1
			indent := -1
			for ; j < len(lines); j++ {
				l := strings.TrimSuffix(lines[j], "\r")
				if trimBlanks(l) == "" {
					break
				}
				trimmed := strings.TrimLeft(l, " ")
				ind := len(l) - len(trimmed)
				if !strings.HasPrefix(trimmed, "- ") {
					if strings.HasPrefix(trimmed, "-") || ind > 0 {
						return nil, false
					}
					break
				}
				if indent == -1 {
					indent = ind
				} else if ind != indent {
					return nil, false
				}
				v, ok := simpleScalar(trimBlanks(trimmed[2:]), in)
				if !ok {
					return nil, false
				}
				items = append(items, v)
			}
			if items == nil {
				m.Set(key, nil)
				continue
			}
			m.Set(key, items)
			i = j - 1
			continue
		}
		if val[0] == '[' {
			items, ok := simpleFlowList(val, in)
			if !ok {
				return nil, false
			}
			m.Set(key, items)
			continue
		}
		v, ok := simpleScalar(val, in)
		if !ok {
			return nil, false
		}
		m.Set(key, v)
	}
	return m, true
}

// loneCR reports whether src holds a carriage return that does not end a CRLF line break.
func loneCR(src []byte) bool {
	for i := bytes.IndexByte(src, '\r'); i >= 0; i = bytes.IndexByte(src, '\r') {
		if i+1 == len(src) || src[i+1] != '\n' {
			return true
		}
		src = src[i+2:]
	}
	return false
}

// trimBlanks trims what YAML counts as white space around a scalar: spaces and tabs only.
// strings.TrimSpace would also trim Unicode spaces (no-break space, U+3000, …) that belong to
// the value, so a title " 0" read back as the number 0.
func trimBlanks(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	return s[i:j]
}

// simpleKey reports whether k is a plain identifier key of at most 128 bytes (YAML limits
// implicit keys to 1024 characters; we stay well below).
func simpleKey(k string) bool {
	if len(k) == 0 || len(k) > 128 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case (c >= '0' && c <= '9' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

func simpleFlowList(val string, in *Interner) ([]any, bool) {
	if !strings.HasSuffix(val, "]") {
		return nil, false
	}
	inner := trimBlanks(val[1 : len(val)-1])
	out := []any{}
	if inner == "" {
		return out, true
	}
	for _, part := range strings.Split(inner, ",") {
		p := trimBlanks(part)
		if p == "" || strings.ContainsAny(p, "[]{}'\"") {
			return nil, false
		}
		v, ok := simpleScalar(p, in)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// simpleScalar resolves a plain or simply quoted scalar the way yaml.v3 does, or reports that it
// cannot be sure. Strings are boxed through in (nil: a box each).
func simpleScalar(s string, in *Interner) (any, bool) {
	if s == "" {
		return nil, false
	}
	switch s[0] {
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return nil, false
		}
		inner := s[1 : len(s)-1]
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return nil, false
		}
		return in.String(strings.ReplaceAll(inner, "''", "'")), true
	case '"':
		if len(s) < 2 || s[len(s)-1] != '"' {
			return nil, false
		}
		inner := s[1 : len(s)-1]
		if strings.ContainsAny(inner, "\"\\") {
			return nil, false
		}
		return in.String(inner), true
	}
	if strings.IndexByte(s, '#') >= 0 || strings.IndexByte(s, '\t') >= 0 || strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || !plainEdges(s) {
		return nil, false
	}
	c := s[0]
	switch {
	case c >= '0' && c <= '9' || c == '-':
		if isSimpleInt(s) {
			n, err := strconv.ParseInt(s, 10, 64)
			return n, err == nil
		}
		if isSimpleFloat(s) {
			f, err := strconv.ParseFloat(s, 64)
			return f, err == nil
		}
		if isSimpleDate(s) {
			return in.String(s), true // a timestamp: kept as written
		}
		return nil, false
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || c == '/' || c == '_' || c == '(' || c == '$':
	default:
		return nil, false
	}
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	case "null", "Null", "NULL":
		return nil, true
	}
	return in.String(s), true
}

// plainEdges reports whether a plain scalar starts and ends with characters whose meaning is
// beyond doubt: not a Unicode space or invisible format character, which readers and writers
// of YAML do not agree on (yaml.v3 keeps them, Go's TrimSpace drops them). Such values are rare
// and go through yaml.v3.
func plainEdges(s string) bool {
	if s[0] >= utf8.RuneSelf {
		if r, _ := utf8.DecodeRuneInString(s); unsureSpace(r) {
			return false
		}
	}
	if s[len(s)-1] >= utf8.RuneSelf {
		if r, _ := utf8.DecodeLastRuneInString(s); unsureSpace(r) {
			return false
		}
	}
	return true
}

func unsureSpace(r rune) bool {
	return unicode.IsSpace(r) || unicode.In(r, unicode.Z, unicode.Cf)
}

// yamlPrintable reports whether src is valid UTF-8 made only of characters YAML accepts, and
// none that yaml.v3 takes for line breaks in places where YAML 1.2 does not (U+2028, U+2029;
// U+0085 is refused with the C1 controls): the fast path splits lines on '\n' only.
func yamlPrintable(src []byte) bool {
	for i := 0; i < len(src); {
		// Eight bytes at a time while they are all in 0x20..0x7e, as most front matter is: a
		// byte at a time this check took half again as long.
		if len(src)-i >= 8 && plainASCII8(binary.LittleEndian.Uint64(src[i:])) {
			i += 8
			continue
		}
		if c := src[i]; c < utf8.RuneSelf {
			if !yamlRuneOK(rune(c)) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if !yamlRuneOK(r) {
			return false
		}
		i += size
	}
	return true
}

// yamlRuneOK reports whether yamlPrintable accepts r (utf8.RuneError stands for invalid UTF-8).
func yamlRuneOK(r rune) bool {
	if r < utf8.RuneSelf {
		return (r >= 0x20 || r == '\n' || r == '\r') && r != 0x7f
	}
	return !(r == utf8.RuneError || r == 0x85 || (r >= 0x80 && r < 0xA0) || (r >= 0xD800 && r < 0xE000) || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF || r == 0x2028 || r == 0x2029)
}

// plainASCII8 reports whether every byte of w is in 0x20..0x7e. When none has its high bit
// set, adding 0x60 to each sets bit 7 exactly for those from 0x20 up, and adding 1 exactly for
// 0x7f, with no carry from one byte into the next.
func plainASCII8(w uint64) bool {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	return w&high == 0 && (w+0x60*ones)&high == high && (w+ones)&high == 0
}

// isSimpleInt matches -?(0|[1-9][0-9]{0,17}) without a regexp (this runs for every number of
// every entry at start-up).
func isSimpleInt(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isSimpleFloat matches -?(0|[1-9][0-9]{0,14})\.[0-9]{1,15}.
func isSimpleFloat(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	intPart, frac, ok := strings.Cut(s, ".")
	if !ok || len(intPart) == 0 || len(intPart) > 15 || (intPart[0] == '0' && len(intPart) > 1) || len(frac) == 0 || len(frac) > 15 {
		return false
	}
	return allDigits(intPart) && allDigits(frac)
}

// isSimpleDate matches YYYY-MM-DD, optionally followed by Thh:mm:ss, fractional seconds of up to
// nine digits, and Z or an offset ±hh:mm.
func isSimpleDate(s string) bool {
	if len(s) < 10 || !allDigits(s[0:4]) || s[4] != '-' || !allDigits(s[5:7]) || s[7] != '-' || !allDigits(s[8:10]) {
		return false
	}
	s = s[10:]
	if s == "" {
		return true
	}
	if len(s) < 9 || s[0] != 'T' || !allDigits(s[1:3]) || s[3] != ':' || !allDigits(s[4:6]) || s[6] != ':' || !allDigits(s[7:9]) {
		return false
	}
	s = s[9:]
	if strings.HasPrefix(s, ".") {
		n := 1
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 1 || n > 10 {
			return false
		}
		s = s[n:]
	}
	switch {
	case s == "" || s == "Z":
		return true
	case len(s) == 6 && (s[0] == '+' || s[0] == '-') && allDigits(s[1:3]) && s[3] == ':' && allDigits(s[4:6]):
		return true
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
