//go:build unix

package forms_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used, for benchmarks to report the
// CPU a request costs: unlike wall time, it does not grow when other processes take the cores.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
