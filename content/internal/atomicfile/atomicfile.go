// Package atomicfile writes files inside an [os.Root] so that a crash leaves either the old or the
// new content, never a torn file: write a temp file in the target folder, fsync it, rename it over
// the target, fsync the folder. The temp file must live in the same folder because a rename across
// mounts fails (on Lambda /tmp and the EFS mount differ).
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// TempMarker is part of every temp file name, so scanners can skip (and report) leftovers.
const TempMarker = ".tmp."

// IsTemp reports whether a file name is one of our temp files.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, TempMarker)
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
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(dir, "."+base+TempMarker+hex.EncodeToString(rnd[:]))
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
