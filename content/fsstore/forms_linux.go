package fsstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// linkUnnamed writes data to an unnamed file in the folder dir (O_TMPFILE), syncs it when sync
// is set, and links it in as name. It reports done = false, having changed nothing, when the file
// system cannot do this (no O_TMPFILE, as on NFS; no /proc to link through), so that the caller
// falls back to a named temp file. An existing name is an error wrapping fs.ErrExist.
func linkUnnamed(dir *os.File, name string, data []byte, sync bool) (done bool, err error) {
	f, err := openUnnamed(dir, data)
	if f == nil {
		return err != nil, err
	}
	defer f.Close()
	if sync {
		if err := f.Sync(); err != nil {
			return true, fmt.Errorf("sync %s: %w", name, err)
		}
	}
	return linkUnnamedFile(f, dir, name)
}

// openUnnamed writes data to a new unnamed file in the folder dir (O_TMPFILE), for
// linkUnnamedFile to name. It returns nil and no error when the file system cannot make one.
func openUnnamed(dir *os.File, data []byte) (*os.File, error) {
	fd, err := unix.Openat(int(dir.Fd()), ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, nil
	}
	f := os.NewFile(uintptr(fd), "unnamed")
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, fmt.Errorf("write: %w", err)
	}
	return f, nil
}

// linkUnnamedFile links the unnamed file f into the folder dir as name. It reports done = false,
// having changed nothing, when this cannot be done here. An existing name is an error wrapping
// fs.ErrExist.
func linkUnnamedFile(f, dir *os.File, name string) (done bool, err error) {
	// Linking an O_TMPFILE file by descriptor (AT_EMPTY_PATH) needs a capability Lambda does not
	// grant; its /proc path needs none.
	err = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(int(f.Fd())), int(dir.Fd()), name, unix.AT_SYMLINK_FOLLOW)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EEXIST):
		return true, fmt.Errorf("create %s: %w", name, fs.ErrExist)
	}
	return false, nil
}
