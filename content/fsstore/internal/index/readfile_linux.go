package index

import (
	"errors"
	"os"
	"path"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// dirReader reads entry files of one collection folder with plain system calls on the folder's
// descriptor. An os.File registers each file with the runtime poller and switches it to
// non-blocking mode and back, which made opening the files the largest cost of a cold start.
type dirReader struct {
	root *os.Root // the site, through which links are followed
	path string   // the folder in root
	dir  *os.File // the folder itself, whose descriptor the system calls are relative to
	fd   int
	// atime is set once opening without updating access times (O_NOATIME) was refused: only
	// the files' owner may. Reading a file written since its last read updates its access time
	// otherwise (relatime), an inode write per file that cost a tenth of a cold start on a
	// freshly written or checked-out site.
	atime atomic.Bool
}

func newDirReader(root *os.Root, dir string) (*dirReader, error) {
	f, err := root.Open(dir)
	if err != nil {
		return nil, err
	}
	sc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	fd := -1
	if err := sc.Control(func(d uintptr) { fd = int(d) }); err != nil {
		f.Close()
		return nil, err
	}
	return &dirReader{root: root, path: dir, dir: f, fd: fd}, nil
}

func (d *dirReader) close() { d.dir.Close() }

// read reads the regular file name (a valid slug plus ".md": no separator, so it cannot leave
// the folder) into *buf, growing it as needed, and returns the file's bytes, size and
// modification time. A symbolic link is followed through the site root, so it cannot leave the site.
func (d *dirReader) read(name string, buf *[]byte) (raw []byte, size, mtime int64, err error) {
	var fd int
	for {
		// O_NONBLOCK: opening a FIFO must not hang the build (it is refused below).
		flags := syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
		if !d.atime.Load() {
			flags |= syscall.O_NOATIME
		}
		fd, err = syscall.Openat(d.fd, name, flags, 0)
		if err == syscall.EPERM && flags&syscall.O_NOATIME != 0 {
			d.atime.Store(true) // not the owner: open as everyone may, from now on
			continue
		}
		if err != syscall.EINTR {
			break
		}
	}
	if errors.Is(err, syscall.ELOOP) {
		return readVia(d.root, path.Join(d.path, name), buf)
	}
	if err != nil {
		return nil, 0, 0, &os.PathError{Op: "openat", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, 0, 0, &os.PathError{Op: "fstat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, 0, 0, errNotFile
	}
	raw = grow(buf, st.Size)
	for n := 0; n < len(raw); {
		m, err := syscall.Read(fd, raw[n:])
		switch {
		case err == syscall.EINTR || err == syscall.EAGAIN:
			continue
		case err != nil:
			return nil, 0, 0, &os.PathError{Op: "read", Path: name, Err: err}
		case m == 0:
			return nil, 0, 0, &os.PathError{Op: "read", Path: name, Err: errShrunk}
		}
		n += m
	}
	return raw, st.Size, st.Mtim.Nano(), nil
}

// stamp returns the size and modification time of the regular file name as read would see
// them (a symbolic link is followed through the site root), without opening it; ok is false
// when it is missing or not a regular file.
func (d *dirReader) stamp(name string) (size, mtime int64, ok bool) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, 0, false
		}
		break
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return st.Size, st.Mtim.Nano(), true
	case unix.S_IFLNK:
		return stampVia(d.root, path.Join(d.path, name))
	}
	return 0, 0, false
}
