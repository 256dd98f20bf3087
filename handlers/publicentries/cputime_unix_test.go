//go:build unix

package publicentries_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time of the whole process (garbage collection included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
