package fsstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"cms/content/internal/atomicfile"
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
	return linkFile(f, dir, name)
}

// linkFile links the unnamed file f into dir as name; done = false as for linkUnnamed.
func linkFile(f, dir *os.File, name string) (done bool, err error) {
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

// createGrouped writes data to an unnamed file in dir and hands it to the store's group commit,
// returning once it is durable in dir as name. It reports done = false, having changed nothing,
// where linkUnnamed would.
func (s *Store) createGrouped(dir *os.File, dirPath, name string, data []byte) (done bool, err error) {
	fd, err := unix.Openat(int(dir.Fd()), ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return false, nil
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return true, fmt.Errorf("write %s: %w", name, err)
	}
	s.newFilesOnce.Do(func() { s.newFiles = atomicfile.NewBatcher(commitNewFiles) })
	err = s.newFiles.Do(newFile{f: f, dir: dir, dirPath: dirPath, name: name})
	if errors.Is(err, errNoLink) {
		// No /proc to link through: nothing was linked, and the caller writes a named temp file.
		return false, nil
	}
	return true, err
}

var errNoLink = errors.New("cannot link an unnamed file")

// commitNewFiles is the group commit of new submission files: it makes the data of all of them
// durable while they are still unnamed, so that a crash never leaves a torn file under a
// submission's name, then links each into its folder and syncs each folder once. The data
// flush is each file's own fdatasync for a batch of one, and otherwise one syncfs per file
// system: every fsync costs the disk a cache flush (~0.3-0.7 ms on this project's VMs), and
// flushes that are not in flight together are not merged, so syncing a batch file by file
// costs a flush per file, while syncfs costs one. Its price is that it also writes the other
// dirty files of the file system. Since Linux 5.8 syncfs reports write-back errors.
func commitNewFiles(items []newFile, errs []error) {
	if len(items) == 1 {
		if err := unix.Fdatasync(int(items[0].f.Fd())); err != nil {
			errs[0] = fmt.Errorf("sync %s: %w", items[0].name, err)
		}
	} else {
		synced := map[uint64]error{} // device -> syncfs result
		for i, it := range items {
			var st unix.Stat_t
			if err := unix.Fstat(int(it.f.Fd()), &st); err != nil {
				errs[i] = fmt.Errorf("sync %s: %w", it.name, err)
				continue
			}
			err, ok := synced[st.Dev]
			if !ok {
				err = unix.Syncfs(int(it.f.Fd()))
				synced[st.Dev] = err
			}
			if err != nil {
				errs[i] = fmt.Errorf("sync %s: %w", it.name, err)
			}
		}
	}
	dirs := map[string]*os.File{}
	for i, it := range items {
		if errs[i] != nil {
			continue
		}
		done, err := linkFile(it.f, it.dir, it.name)
		switch {
		case !done:
			errs[i] = errNoLink
		case err != nil:
			errs[i] = err
		default:
			dirs[it.dirPath] = it.dir
		}
	}
	for p, d := range dirs {
		if err := d.Sync(); err != nil {
			for i, it := range items {
				if it.dirPath == p && errs[i] == nil {
					errs[i] = fmt.Errorf("sync folder %s: %w", p, err)
				}
			}
		}
	}
}
