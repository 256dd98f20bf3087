package gitsync

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignores answers whether a path git does not track yet is ignored (.gitignore files on its
// way from the root, and .git/info/exclude), as `git add` would refuse it: a tracked file is
// committed whatever the ignore files say. Only the ignore files of the folders on the queued
// paths are read, once per commit.
type ignores struct {
	root, gitDir string
	byDir        map[string][]gitignore.Pattern
	skipped      map[string]bool // paths left out of the commit as ignored
}

func newIgnores(root, gitDir string) *ignores {
	return &ignores{root: root, gitDir: gitDir, byDir: map[string][]gitignore.Pattern{}, skipped: map[string]bool{}}
}

func (ig *ignores) patterns(dir string) []gitignore.Pattern {
	if ps, ok := ig.byDir[dir]; ok {
		return ps
	}
	var ps []gitignore.Pattern
	var domain []string
	file := filepath.Join(ig.root, filepath.FromSlash(dir), ".gitignore")
	if dir == "" {
		ps = readPatterns(filepath.Join(ig.gitDir, "info", "exclude"), nil)
		file = filepath.Join(ig.root, ".gitignore")
	} else {
		domain = strings.Split(dir, "/")
	}
	ps = append(ps, readPatterns(file, domain)...)
	ig.byDir[dir] = ps
	return ps
}

func readPatterns(file string, domain []string) []gitignore.Pattern {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// ignored reports whether repository-relative file p is ignored.
func (ig *ignores) ignored(p string) bool {
	segs := strings.Split(p, "/")
	var all []gitignore.Pattern
	for i := range segs { // the root's patterns first, the deepest folder's last: later ones win
		all = append(all, ig.patterns(strings.Join(segs[:i], "/"))...)
	}
	if len(all) == 0 {
		return false
	}
	m := gitignore.NewMatcher(all)
	for i := 1; i < len(segs); i++ { // a file in an ignored folder is ignored
		if m.Match(segs[:i], true) {
			return true
		}
	}
	return m.Match(segs, false)
}
