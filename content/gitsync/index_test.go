package gitsync

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// FuzzPatchIndex: an index file of any bytes is patched or refused, never a panic (git sync runs
// in the server's process).
func FuzzPatchIndex(f *testing.F) {
	dir := f.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt", "sub/b.txt"}, {"update-index", "--index-version", "3"}} {
		if args[0] == "add" {
			_ = os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644)
			_ = os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
			_ = os.WriteFile(filepath.Join(dir, "sub/b.txt"), []byte("b"), 0o644)
		}
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			f.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, ".git/index"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add(raw[:40])
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01"))
	fi, _ := os.Stat(filepath.Join(dir, "a.txt"))
	edits := []indexEdit{
		{c: change{path: "a.txt", hash: plumbing.NewHash("2e65efe2a145dda7ee51d1741299f848e5bf752e"), mode: filemode.Regular, info: fi}, inHead: false},
		{c: change{path: "c.txt", hash: plumbing.ZeroHash, mode: filemode.Regular}},
		{c: change{path: "sub", del: true}, inHead: true},
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, _ = patchIndex(raw, edits, dir)
	})
}

func TestIndexEntryLayout(t *testing.T) {
	b := indexEntry(change{path: "content/x.md", mode: filemode.Regular})
	if len(b)%8 != 0 || len(b) < 62+len("content/x.md")+1 {
		t.Errorf("entry of %d bytes", len(b))
	}
}
