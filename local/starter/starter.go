// Package starter embeds the starter site that `make dev` copies into a working folder, and
// copies it.
package starter

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

//go:embed all:site
var site embed.FS

// FS returns the starter site's files.
func FS() fs.FS {
	sub, err := fs.Sub(site, "site")
	if err != nil {
		// fs.Sub only fails on an invalid path, and "site" is a constant.
		return site
	}
	return sub
}

// CopyTo writes the starter site into dir, which must not exist or be empty. Placeholder files
// (.gitkeep) keep their folders but are not copied.
func CopyTo(dir string) error {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	src := FS()
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(p, ".gitkeep") {
			return nil
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
