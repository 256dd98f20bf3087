package fsstore

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// journalSupported: the submission journal needs fdatasync, flock and syncfs.
const journalSupported = true

// fdatasync flushes f's data (and the size it needs) without its other metadata.
func fdatasync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		for {
			serr = unix.Fdatasync(int(fd))
			if !errors.Is(serr, unix.EINTR) {
				return
			}
		}
	}); err != nil {
		return err
	}
	return serr
}

// lockFile takes an exclusive lock (flock) on f, failing at once when another open file holds
// it: the segment of a live store.
func lockFile(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) { lerr = unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB) }); err != nil {
		return err
	}
	return lerr
}

// syncFileSystem makes everything written to the file system of f durable (syncfs).
func syncFileSystem(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Syncfs(int(fd)) }); err != nil {
		return err
	}
	return serr
}

// journalFileSystemOK reports whether the journal can work on the file system of the folder
// dir: not on NFS (EFS), where locks and syncfs are not to be relied on; submissions there are
// fsync'd one by one.
func journalFileSystemOK(dir *os.File) bool {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(dir.Fd()), &st); err != nil {
		return false
	}
	return st.Type != unix.NFS_SUPER_MAGIC
}
