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
	dfd := int(dir.Fd())
	fd, err := unix.Openat(dfd, ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return false, nil
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return true, fmt.Errorf("write %s: %w", name, err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			return true, fmt.Errorf("sync %s: %w", name, err)
		}
	}
	// Linking an O_TMPFILE file by descriptor (AT_EMPTY_PATH) needs a capability Lambda does not
	// grant; its /proc path needs none.
	err = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), dfd, name, unix.AT_SYMLINK_FOLLOW)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EEXIST):
		return true, fmt.Errorf("create %s: %w", name, fs.ErrExist)
	}
	return false, nil
}
