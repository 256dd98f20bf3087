//go:build unix

package index

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, waiting for it. On NFS (EFS) Linux maps flock
// to a POSIX lock that the server enforces across clients.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
