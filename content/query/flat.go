package query

import "cms/content"

// parseFlatFilter parses the usual shape of a filter, {"field": value, ...} with values that are
// strings without escapes or non-ASCII bytes, numbers, booleans or null, in one pass and without
// the JSON decoder's allocation per token (that cost more than answering a list query from the
// index). ok is false for anything else — nested values, escapes, a field that is not valid,
// more than MaxFilters fields, malformed JSON — which ParseFilter leaves to the decoder, so the
// two agree on every filter this accepts (FuzzFlatFilter) and errors read the same.
func parseFlatFilter(s string) (map[string]any, bool) {
	i := skipSpace(s, 0)
	if i == len(s) || s[i] != '{' {
		return nil, false
	}
	out := make(map[string]any, 4)
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return out, skipSpace(s, i+1) == len(s)
	}
	for {
		key, j, ok := plainString(s, i)
		if !ok || !ValidField(key) {
			return nil, false
		}
		i = skipSpace(s, j)
		if i == len(s) || s[i] != ':' {
			return nil, false
		}
		i = skipSpace(s, i+1)
		if i == len(s) {
			return nil, false
		}
		var v any
		switch c := s[i]; {
		case c == '"':
			v, i, ok = plainString(s, i)
		case c == 't' || c == 'f' || c == 'n':
			v, i, ok = literal(s, i)
		default:
			v, i, ok = number(s, i)
		}
		if !ok {
			return nil, false
		}
		out[key] = v
		if len(out) > MaxFilters {
			return nil, false
		}
		i = skipSpace(s, i)
		if i == len(s) {
			return nil, false
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			return out, skipSpace(s, i+1) == len(s)
		default:
			return nil, false
		}
	}
}

// skipSpace returns the index of the first byte at or after i that is not JSON whitespace.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// plainString reads a JSON string at s[i] made of printable ASCII without escapes, returning it
// and the index after its closing quote.
func plainString(s string, i int) (string, int, bool) {
	if i == len(s) || s[i] != '"' {
		return "", i, false
	}
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return "", i, false
		}
	}
	return "", i, false
}

// literal reads true, false or null at s[i].
func literal(s string, i int) (any, int, bool) {
	for _, l := range []struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(s)-i >= len(l.text) && s[i:i+len(l.text)] == l.text {
			return l.v, i + len(l.text), true
		}
	}
	return nil, i, false
}

// number reads a JSON number at s[i] (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?) as the
// decoder's path makes it: an int64 when integral and in range, else a float64.
func number(s string, i int) (any, int, bool) {
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	switch {
	case j < len(s) && s[j] == '0':
		j++
	case j < len(s) && s[j] >= '1' && s[j] <= '9':
		j = digitsFrom(s, j)
	default:
		return nil, i, false
	}
	if j < len(s) && s[j] == '.' {
		k := digitsFrom(s, j+1)
		if k == j+1 {
			return nil, i, false
		}
		j = k
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := digitsFrom(s, j)
		if k == j {
			return nil, i, false
		}
		j = k
	}
	v, err := content.NumberFromString(s[i:j])
	if err != nil {
		return nil, i, false
	}
	return v, j, true
}

func digitsFrom(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
