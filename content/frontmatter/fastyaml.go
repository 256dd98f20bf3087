package frontmatter

import (
	"strconv"
	"strings"

	"cms/content"
)

// appendFastYAML appends m as MarshalYAML's yaml.v3 path writes it (Node, two-space indent),
// without building a node tree and running the emitter, which cost a form submission more than
// everything else it does in user space. It takes only what it is sure of — mappings of plain
// keys to null, booleans, int64, float64, simple one-line ASCII strings, lists of those and
// nested such mappings — and reports false for anything else, which then goes through yaml.v3.
// TestFastYAMLMatchesYAML and FuzzFastYAMLMatchesYAML hold the two paths to the same bytes.
func appendFastYAML(dst []byte, m *content.Map, indent int) ([]byte, bool) {
	for _, k := range m.Keys() {
		if len(dst) > content.MaxDocumentBytes {
			return dst, false // yaml.v3's capped writer refuses it without building it all
		}
		v := m.Value(k)
		key, plain := fastString(k)
		if !plain || len(k) >= 128 { // yaml.v3 writes longer keys as complex ("? ") keys
			return dst, false
		}
		dst = appendIndent(dst, indent)
		dst = append(dst, key...)
		dst = append(dst, ':')
		var ok bool
		switch x := v.(type) {
		case *content.Map:
			if x.Len() == 0 {
				dst = append(dst, " {}\n"...)
				continue
			}
			dst = append(dst, '\n')
			dst, ok = appendFastYAML(dst, x, indent+2)
		case []any:
			if len(x) == 0 {
				dst = append(dst, " []\n"...)
				continue
			}
			dst = append(dst, '\n')
			for _, e := range x {
				dst = appendIndent(dst, indent+2)
				dst = append(dst, '-', ' ')
				if dst, ok = appendFastScalar(dst, e); !ok {
					break
				}
			}
		default:
			dst = append(dst, ' ')
			dst, ok = appendFastScalar(dst, v)
		}
		if !ok {
			return dst, false
		}
	}
	return dst, true
}

func appendIndent(dst []byte, n int) []byte {
	for range n {
		dst = append(dst, ' ')
	}
	return dst
}

// appendFastScalar appends a scalar value and its line break.
func appendFastScalar(dst []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		dst = append(dst, "null"...)
	case bool:
		dst = strconv.AppendBool(dst, x)
	case int64:
		dst = strconv.AppendInt(dst, x, 10)
	case float64:
		dst = append(dst, formatFloat(x)...)
	case string:
		s, _ := fastString(x)
		if s == "" {
			return dst, false
		}
		dst = append(dst, s...)
	default:
		return dst, false
	}
	return append(dst, '\n'), true
}

// fastString returns how strNode and yaml.v3 write s: s itself when plain, or s in double quotes
// when it would read as another type and needs no escapes; "" when it cannot tell.
func fastString(s string) (out string, plain bool) {
	if s == "" {
		return `""`, false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return "", false // line breaks, tabs, controls, and Unicode (spaces at the edges, U+2028)
		}
	}
	if s[len(s)-1] == ' ' || s[len(s)-1] == ':' || strings.Contains(s, ": ") || strings.Contains(s, " #") {
		return "", false // not plain, or the end of a key
	}
	c := s[0]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		// A letter is no indicator, and yaml.v3 resolves such text to a string unless it is one
		// of these words.
		switch s {
		case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
			return `"` + s + `"`, false
		}
		return s, true
	case c >= '0' && c <= '9' || c == '+':
		if len(s) >= 5 && allDigits(s[:4]) && s[4] == '-' {
			// Possibly a timestamp, which strNode writes plain when yaml.v3 reads it as one.
			if isTimestamp(s) {
				return s, true
			}
			return "", false
		}
		if c != '+' && allDigits(s) {
			return `"` + s + `"`, false // an int or a float to yaml.v3: quoted
		}
		if !maybeYAMLNumber(s) {
			return s, true // yaml.v3 reads it as a string: written plain
		}
	}
	return "", false
}

// maybeYAMLNumber reports whether yaml.v3 might read s (not a timestamp) as an int or a float:
// its resolve tries strconv.ParseInt and ParseUint (base 0), ParseFloat and the 0b and 0o
// prefixes on s without underscores. False means it reads s as a string.
func maybeYAMLNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if !numberByte(s[i]) {
			return false
		}
		if (s[i] == '-' || s[i] == '+') && i > 0 && !strings.ContainsRune("eEpP_", rune(s[i-1])) {
			return false // a sign only starts a number or follows an exponent's letter (a UUID's dashes)
		}
	}
	plain := strings.ReplaceAll(s, "_", "")
	if strings.HasPrefix(plain, "0b") || strings.HasPrefix(plain, "-0b") || strings.HasPrefix(plain, "0o") || strings.HasPrefix(plain, "-0o") {
		return true
	}
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	_, err := strconv.ParseFloat(plain, 64)
	return err == nil
}

// numberByte reports whether c can occur in what yaml.v3 reads as an int or a float
// (strconv.ParseInt/ParseUint with base prefixes, ParseFloat with inf/nan and hex, underscores).
func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || c == '+' || c == '-'
}
