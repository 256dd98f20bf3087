package content

import (
	"sort"
	"strings"
)

func sortStrings(s []string) { sort.Strings(s) }

// MaxHandleLen bounds handles and slugs; file names longer than this are refused.
const MaxHandleLen = 200

// ValidHandle reports whether s is a plain identifier usable as a file name: a letter or digit
// followed by letters, digits, '_' or '-'. Anything else (empty, "..", "a/b", "%2F") is refused
// before it can reach the file system.
func ValidHandle(s string) bool {
	if len(s) == 0 || len(s) > MaxHandleLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case (c == '_' || c == '-') && i > 0:
		default:
			return false
		}
	}
	return true
}

// IsName reports whether s is 1 to max bytes: an ASCII letter or digit (lower case only with
// lower), then letters, digits (likewise) or bytes of more. It checks what a pattern such as
// ^[a-z0-9][a-z0-9-]{0,63}$ does without a regular expression: a counted repetition compiles
// into a program as long as its count, at every start of the process.
func IsName(s string, max int, lower bool, more string) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', !lower && c >= 'A' && c <= 'Z':
		case i > 0 && c < 0x80 && strings.IndexByte(more, c) >= 0:
		default:
			return false
		}
	}
	return true
}
