package fsstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestNewFileWriters checks both ways writeNewFile creates a file: each writes the bytes, leaves
// no temp file behind, and refuses to replace an existing file.
func TestNewFileWriters(t *testing.T) {
	t.Parallel()
	writers := map[string]func(root *os.Root, dir *os.File, name string, data []byte) error{
		"named temp": func(root *os.Root, _ *os.File, name string, data []byte) error {
			return writeViaTemp(root, name, data, true)
		},
		"unnamed temp": func(_ *os.Root, dir *os.File, name string, data []byte) error {
			done, err := linkUnnamed(dir, name, data, true)
			if !done {
				if runtime.GOOS == "linux" {
					t.Logf("O_TMPFILE unavailable here: %v", err)
				}
				t.Skip("no O_TMPFILE on this file system")
			}
			return err
		},
	}
	for name, write := range writers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			d, err := root.Open(".")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if err := write(root, d, "a.yaml", []byte("first")); err != nil {
				t.Fatal(err)
			}
			err = write(root, d, "a.yaml", []byte("second"))
			if !errors.Is(err, fs.ErrExist) {
				t.Errorf("second write: err = %v, want fs.ErrExist", err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "a.yaml")); string(b) != "first" {
				t.Errorf("file = %q, want the first write kept", b)
			}
			ents, _ := os.ReadDir(dir)
			if len(ents) != 1 {
				t.Errorf("folder holds %d entries, want only a.yaml", len(ents))
			}
		})
	}
}
