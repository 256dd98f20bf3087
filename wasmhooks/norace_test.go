//go:build !race

package wasmhooks_test

import "time"

const (
	raceEnabled = false
	// callTimeout is the CallTimeout of tests that are not about time. It never runs out in a
	// passing test, so it can be generous enough for a loaded machine.
	callTimeout = time.Minute
	// shortTimeout is the limit of tests that wait for it to run out, burning a CPU meanwhile.
	shortTimeout = 250 * time.Millisecond
)
