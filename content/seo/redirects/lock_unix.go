//go:build unix

package redirects

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, waiting for it (on NFS, EFS, Linux maps it to
// a POSIX lock the server enforces across clients).
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
