package fsstore_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
)

// leftover is the temp file a write of users/alice.yaml killed before its rename leaves.
const leftover = "users/.alice.yaml.tmp.0011223344556677"

// syncBuffer is a log sink the store's goroutines may write to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A writable store removes, when it opens, the temp files killed writes left, and says so.
func TestOpenSweepsLeftoverTempFiles(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- users/alice.yaml --\nid: alice\n-- "+leftover+" --\nid: alice\npassword_hash: scrypt:secret\n")
	var logs syncBuffer
	// The store's clock says the file is an hour old.
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, NoSync: true,
		Log: slog.New(slog.NewTextHandler(&logs, nil)), Now: func() time.Time { return time.Now().Add(time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	deadline := time.Now().Add(30 * time.Second) // generous: the sweep runs in the background
	for !strings.Contains(logs.String(), "removed temp files") {
		if time.Now().After(deadline) {
			t.Fatalf("no sweep was logged; log:\n%s", logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(dir, leftover)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the leftover temp file is still there: %v", err)
	}
	if !strings.Contains(logs.String(), "files=1") {
		t.Errorf("the log does not say how many files were removed:\n%s", logs.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "users/alice.yaml")); err != nil {
		t.Errorf("the user file was removed: %v", err)
	}
}

// SweepTemp takes temp files older than TempMaxAge from every folder the store writes, and
// leaves younger ones (a write may be in progress), other files and other folders alone.
func TestSweepTempFoldersAndAge(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	old, young := now.Add(-6*time.Minute), now.Add(-4*time.Minute)
	files := map[string]time.Time{
		"content/collections/blog/.post.md.tmp.0011223344556677": old,
		"content/globals/.site.yaml.tmp.0011223344556677":        old,
		"resources/roles/.editor.yaml.tmp.0011223344556677":      old,
		leftover: old,
		"public/assets/img/.photo.jpg.tmp.0011223344556677": old,
		".cms/.index.snapshot.tmp.0011223344556677":         old,
		"state/sessions/.abcd.json.tmp.0011223344556677":    old,
		"users/.bob.yaml.tmp.0011223344556677":              young,
		"storage/.report.json.tmp.0011223344556677":         old, // not a folder the store writes
		"content/collections/blog/.notes.tmp.md":            old, // not a temp file name
		"content/collections/blog/post.md":                  old,
		"users/alice.yaml":                                  old,
	}
	dir := t.TempDir()
	for name, mtime := range files {
		contenttest.AddFiles(t, dir, "-- "+name+" --\nx\n")
		if err := os.Chtimes(filepath.Join(dir, name), mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	open := func(readOnly bool) *fsstore.Store {
		st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, ReadOnly: readOnly, Watch: fsstore.WatchNone, NoSync: true,
			Log: slog.New(slog.DiscardHandler), Now: func() time.Time { return now }, TempMaxAge: 5 * time.Minute,
			SweepDirs: []string{"state/sessions"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	if _, err := open(true).SweepTemp(t.Context()); content.KindOf(err) != content.Forbidden {
		t.Errorf("a read-only store swept: %v", err)
	}
	n, err := open(false).SweepTemp(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for name, mtime := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		gone := errors.Is(err, fs.ErrNotExist)
		wantGone := mtime == old && strings.Contains(name, ".tmp.0011") && !strings.HasPrefix(name, "storage/")
		if wantGone {
			want++
		}
		// The open-time sweep of the writable store may have taken them first; either way they go.
		if gone != wantGone {
			t.Errorf("%s: removed = %v, want %v", name, gone, wantGone)
		}
	}
	if n > want {
		t.Errorf("SweepTemp reports %d removed, more than the %d there were", n, want)
	}
}
