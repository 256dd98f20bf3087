package atomicfile_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

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
	if !atomicfile.IsTemp(".c.txt.tmp.0011") || atomicfile.IsTemp("c.txt") {
		t.Error("IsTemp does not recognise temp names")
	}
}
