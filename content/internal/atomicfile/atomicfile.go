// Package atomicfile writes files inside an [os.Root] so that a crash leaves either the old or the
// new content, never a torn file: write a temp file in the target folder, fsync it, rename it over
// the target, fsync the folder. The temp file must live in the same folder because a rename across
// mounts fails (on Lambda /tmp and the EFS mount differ).
package atomicfile

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"
)

// TempMarker is part of every temp file name, so scanners can skip (and report) leftovers.
const TempMarker = ".tmp."

// tempSuffixLen is the length of the random hex suffix after TempMarker.
const tempSuffixLen = 16

// tempName names the temp file for the file base: "." + base + ".tmp." + 16 hex digits.
func tempName(base string) string {
	var rnd [tempSuffixLen / 2]byte
	_, _ = rand.Read(rnd[:])
	return "." + base + TempMarker + hex.EncodeToString(rnd[:])
}

// IsTemp reports whether a file name is exactly one of our temp file names (see tempName), so
// that sweeping leftovers never takes a file someone merely named with ".tmp." in it.
func IsTemp(name string) bool {
	stem, suffix, ok := cutLast(name, TempMarker)
	if !ok || len(stem) < 2 || stem[0] != '.' || len(suffix) != tempSuffixLen {
		return false
	}
	for i := 0; i < len(suffix); i++ {
		if c := suffix[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// SweepTemp removes the temp files (IsTemp) under dir, a slash-separated folder of root, last
// modified before cutoff: leftovers of writes a crash or kill interrupted, which may hold
// anything the files they were meant to replace hold. Symbolic links are not followed. It returns
// how many were removed; a missing dir is not an error, an unreadable folder below it is skipped.
func SweepTemp(ctx context.Context, root *os.Root, dir string, cutoff time.Time) (int, error) {
	n, err := sweepDir(ctx, root, dir, cutoff, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return n, nil
	}
	return n, err
}

// maxSweepDepth bounds the folders SweepTemp descends into.
const maxSweepDepth = 32

func sweepDir(ctx context.Context, root *os.Root, dir string, cutoff time.Time, depth int) (int, error) {
	f, err := root.Open(dir)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	for {
		// In batches, unsorted: collection folders hold 100,000 entries.
		ents, err := f.ReadDir(1024)
		for _, e := range ents {
			if cerr := ctx.Err(); cerr != nil {
				return n, cerr
			}
			p := path.Join(dir, e.Name())
			switch {
			case e.IsDir():
				if depth < maxSweepDepth {
					m, err := sweepDir(ctx, root, p, cutoff, depth+1)
					n += m
					if ctx.Err() != nil {
						return n, err
					}
				}
			case e.Type().IsRegular() && IsTemp(e.Name()):
				if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) && root.Remove(p) == nil {
					n++
				}
			}
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// Options tune a write.
type Options struct {
	Perm      fs.FileMode // default 0o644
	Exclusive bool        // fail with fs.ErrExist if the target exists (create-only)
	NoSync    bool        // skip fsyncs (tests and benchmarks only)
}

// Write atomically replaces name (slash-separated, relative to root) with data, creating parent
// folders as needed.
func Write(root *os.Root, name string, data []byte, o Options) error {
	return WriteFrom(root, name, func(w io.Writer) error { _, err := w.Write(data); return err }, o)
}

// WriteFrom is Write with the content produced by fill.
func WriteFrom(root *os.Root, name string, fill func(io.Writer) error, o Options) (err error) {
	if o.Perm == 0 {
		o.Perm = 0o644
	}
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	if err := root.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create folder %s: %w", dir, err)
	}
	if o.Exclusive {
		if _, err := root.Lstat(name); err == nil {
			return fmt.Errorf("create %s: %w", name, fs.ErrExist)
		}
	}
	tmp := path.Join(dir, tempName(base))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, o.Perm)
	if err != nil {
		return fmt.Errorf("create temp file for %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = root.Remove(tmp)
		}
	}()
	if err = fill(f); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if !o.NoSync {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("sync %s: %w", name, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", name, err)
	}
	if o.Exclusive {
		// Link fails if the target appeared meanwhile, so two creators never overwrite each other.
		if err = root.Link(tmp, name); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("create %s: %w", name, fs.ErrExist)
			}
			return fmt.Errorf("link %s: %w", name, err)
		}
		_ = root.Remove(tmp)
	} else if err = root.Rename(tmp, name); err != nil {
		return fmt.Errorf("rename into %s: %w", name, err)
	}
	if !o.NoSync {
		if err := SyncDir(root, dir); err != nil {
			return err
		}
	}
	return nil
}

// SyncDir fsyncs a folder so a rename or removal inside it is durable.
func SyncDir(root *os.Root, dir string) error {
	d, err := root.Open(dir)
	if err != nil {
		return fmt.Errorf("open folder %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
}

// Remove deletes name and makes the removal durable.
func Remove(root *os.Root, name string, o Options) error {
	if err := root.Remove(name); err != nil {
		return err
	}
	if o.NoSync {
		return nil
	}
	dir := path.Dir(name)
	return SyncDir(root, dir)
}
