//go:build !unix

package assetfiles_test

import "time"

// cpuTime is not measured here; the benchmarks then report a CPU time of 0.
func cpuTime() time.Duration { return 0 }
