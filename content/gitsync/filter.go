package gitsync

import (
	"path"
	"strings"
)

// Tracked is one tracked root (a site-relative folder) and the patterns, relative to it, of
// what is left out: '*' matches within one path segment, '**' any number of segments.
type Tracked struct {
	Root    string   `json:"root"`
	Exclude []string `json:"exclude"`
}

// DefaultTracked returns the default tracked roots: content without form submissions, and
// resources.
func DefaultTracked(contentDir, resourcesDir string) []Tracked {
	return []Tracked{{Root: contentDir, Exclude: []string{"forms/**"}}, {Root: resourcesDir}}
}

// filter decides which site-relative paths are committed.
type filter struct {
	tracked []Tracked
	never   []string // folders never committed, whatever the configuration says
}

// match reports whether site-relative path p is committed.
func (f *filter) match(p string) bool {
	if p == "" || p == "." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return false
	}
	for _, n := range f.never {
		if p == n || strings.HasPrefix(p, n+"/") {
			return false
		}
	}
	for _, t := range f.tracked {
		root := strings.TrimSuffix(t.Root, "/")
		var rel string
		switch {
		case root == "" || root == ".":
			rel = p
		case p == root:
			rel = ""
		case strings.HasPrefix(p, root+"/"):
			rel = p[len(root)+1:]
		default:
			continue
		}
		excluded := false
		for _, x := range t.Exclude {
			if rel != "" && globMatch(strings.Split(x, "/"), strings.Split(rel, "/")) {
				excluded = true
				break
			}
		}
		if !excluded {
			return true
		}
	}
	return false
}

// globMatch matches path segments against pattern segments; "**" spans any number of them.
func globMatch(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if globMatch(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
