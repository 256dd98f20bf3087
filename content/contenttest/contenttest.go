// Package contenttest helps tests build sites on disk: small inline sites in a txtar-like format,
// copies of the shared fixture sites, and a store opened on them.
package contenttest

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/fsstore"
)

// WriteSite writes files into a new temporary folder and returns it. The format is txtar-like:
//
//	-- resources/collections/blog.yaml --
//	title: Blog
//	-- content/collections/blog/hello.md --
//	---
//	title: Hello
//	---
func WriteSite(t testing.TB, archive string) string {
	t.Helper()
	dir := t.TempDir()
	AddFiles(t, dir, archive)
	return dir
}

// AddFiles writes txtar-like files into dir.
func AddFiles(t testing.TB, dir, archive string) {
	t.Helper()
	var name string
	var body strings.Builder
	flush := func() {
		if name == "" {
			return
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(archive, "\n") {
		trimmed := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			flush()
			name = strings.TrimSpace(trimmed[3 : len(trimmed)-3])
			continue
		}
		if name != "" {
			body.WriteString(line)
		}
	}
	flush()
}

// FixturesDir returns $CMS_FIXTURES, skipping the test when it is unset (a clone without
// ../shared has no fixtures; CI sets it).
func FixturesDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("CMS_FIXTURES")
	if dir == "" {
		t.Skip("CMS_FIXTURES is not set: skipping a test that needs the shared fixture sites (.ci/run sets it to ../shared/fixtures)")
	}
	return dir
}

// CopyFixture copies the named fixture site into a temporary folder (tests never write to the
// fixtures) and returns the copy.
func CopyFixture(t testing.TB, name string) string {
	t.Helper()
	src := filepath.Join(FixturesDir(t), name)
	dst := t.TempDir()
	if err := CopyDir(dst, src); err != nil {
		t.Fatalf("copy fixture %s: %v", name, err)
	}
	return dst
}

// CopyDir copies a folder tree, making copies writable.
func CopyDir(dst, src string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// OpenStore opens a store on dir without file watching or fsync, closed when the test ends.
func OpenStore(t testing.TB, dir string) *fsstore.Store {
	t.Helper()
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, NoSync: true, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
