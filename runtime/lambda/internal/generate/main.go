// Command generate writes the files lambdagen derives from runtime/groups.All: a Lambda main per
// group and infra/template.yaml. It removes generated mains of groups that no longer exist.
// Run it with go generate ./runtime/lambda.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"cms/runtime/groups"
	"cms/runtime/lambda/lambdagen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	files, err := lambdagen.Files(groups.All())
	if err != nil {
		return err
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, content) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", rel)
	}
	stale, err := lambdagen.StaleMains(os.DirFS(root), files)
	if err != nil {
		return err
	}
	for _, rel := range stale {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.Remove(p); err != nil {
			return err
		}
		_ = os.Remove(filepath.Dir(p)) // only if now empty
		fmt.Println("removed", rel)
	}
	return nil
}

// moduleRoot finds the folder of go.mod from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}
