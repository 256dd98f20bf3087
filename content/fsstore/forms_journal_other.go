//go:build !linux

package fsstore

import (
	"errors"
	"os"
)

// journalSupported: elsewhere than Linux submissions are fsync'd one by one (no syncfs).
const journalSupported = false

func fdatasync(f *os.File) error        { return f.Sync() }
func lockFile(*os.File) error           { return errors.ErrUnsupported }
func syncFileSystem(*os.File) error     { return errors.ErrUnsupported }
func journalFileSystemOK(*os.File) bool { return false }
