package content

import (
	"sort"
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
