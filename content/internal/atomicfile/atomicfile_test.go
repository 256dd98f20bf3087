package atomicfile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cms/content/internal/atomicfile"
)

func TestWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := atomicfile.Write(root, "a/b/c.txt", []byte("one"), atomicfile.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(root, "a/b/c.txt", []byte("two"), atomicfile.Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "a/b/c.txt"))
	if string(got) != "two" {
		t.Errorf("content = %q", got)
	}
	err = atomicfile.Write(root, "a/b/c.txt", []byte("three"), atomicfile.Options{Exclusive: true})
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("exclusive write over an existing file: %v", err)
	}
	// A failing fill leaves the old content and no temp file.
	err = atomicfile.WriteFrom(root, "a/b/c.txt", func(w io.Writer) error {
		_, _ = w.Write([]byte("partial"))
		return errors.New("disk full")
	}, atomicfile.Options{})
	if err == nil {
		t.Fatal("a failing fill reported success")
	}
	got, _ = os.ReadFile(filepath.Join(dir, "a/b/c.txt"))
	ents, _ := os.ReadDir(filepath.Join(dir, "a/b"))
	if string(got) != "two" || len(ents) != 1 {
		t.Errorf("after a failed write: content %q, %d files", got, len(ents))
	}
	// Paths that leave the root are refused by os.Root.
	if err := atomicfile.Write(root, "../escape.txt", []byte("x"), atomicfile.Options{}); err == nil {
		t.Error("a write outside the root succeeded")
	}
	if err := atomicfile.Remove(root, "a/b/c.txt", atomicfile.Options{}); err != nil {
		t.Fatal(err)
	}
}

// IsTemp recognises exactly the names the writer gives its temp files, and nothing else.
func TestIsTemp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var seen []string
	err = atomicfile.WriteFrom(root, "a/users.yaml", func(w io.Writer) error {
		ents, err := os.ReadDir(filepath.Join(dir, "a"))
		for _, e := range ents {
			seen = append(seen, e.Name())
		}
		return err
	}, atomicfile.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || !atomicfile.IsTemp(seen[0]) {
		t.Errorf("the writer's temp file %v is not recognised", seen)
	}
	for _, name := range []string{
		"c.txt", ".c.txt", ".c.txt.tmp.0011", "c.txt.tmp.0011223344556677", ".tmp.0011223344556677",
		".c.txt.tmp.00112233445566GG", ".c.txt.tmp.00112233445566778", ".notes.tmp.md", ".c.txt.tmp.0011223344556677.bak",
	} {
		if atomicfile.IsTemp(name) {
			t.Errorf("IsTemp(%q) = true", name)
		}
	}
	if !atomicfile.IsTemp(".c.tmp.txt.tmp.0011223344556677") {
		t.Error("a temp file of a name holding .tmp. is not recognised")
	}
}

// SweepTemp removes temp files older than the cutoff in every folder below, and nothing else.
func TestSweepTemp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	cutoff := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	files := map[string]time.Time{
		"users/.alice.yaml.tmp.0011223344556677":    cutoff.Add(-time.Hour), // stale: removed
		"users/deep/.bob.yaml.tmp.8899aabbccddeeff": cutoff.Add(-time.Second),
		"users/.carol.yaml.tmp.0123456789abcdef":    cutoff.Add(time.Second), // may be a write in progress
		"users/alice.yaml":                          cutoff.Add(-time.Hour),
		"users/.notes.tmp.0011223344556677.txt":     cutoff.Add(-time.Hour),
		"elsewhere/.x.yaml.tmp.0011223344556677":    cutoff.Add(-time.Hour), // not under the swept folder
	}
	for name, mtime := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("password_hash: x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	// A link named like a temp file is not a file the writer made.
	if err := os.Symlink("alice.yaml", filepath.Join(dir, "users/.link.yaml.tmp.0011223344556677")); err != nil {
		t.Fatal(err)
	}
	n, err := atomicfile.SweepTemp(t.Context(), root, "users", cutoff)
	if err != nil || n != 2 {
		t.Errorf("SweepTemp = %d, %v; want 2", n, err)
	}
	for name := range files {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
		removed := errors.Is(err, fs.ErrNotExist)
		want := name == "users/.alice.yaml.tmp.0011223344556677" || name == "users/deep/.bob.yaml.tmp.8899aabbccddeeff"
		if removed != want {
			t.Errorf("%s: removed = %v, want %v", name, removed, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "users/.link.yaml.tmp.0011223344556677")); err != nil {
		t.Errorf("a symbolic link was removed: %v", err)
	}
	if n, err := atomicfile.SweepTemp(t.Context(), root, "missing", cutoff); n != 0 || err != nil {
		t.Errorf("missing folder: %d, %v", n, err)
	}
}
