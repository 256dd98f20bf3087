package content

import (
	"regexp"
	"sort"
)

func sortStrings(s []string) { sort.Strings(s) }

var handleRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// MaxHandleLen bounds handles and slugs; file names longer than this are refused.
const MaxHandleLen = 200

// ValidHandle reports whether s is a plain identifier usable as a file name: a letter or digit
// followed by letters, digits, '_' or '-'. Anything else (empty, "..", "a/b", "%2F") is refused
// before it can reach the file system.
func ValidHandle(s string) bool {
	return len(s) > 0 && len(s) <= MaxHandleLen && handleRE.MatchString(s)
}
