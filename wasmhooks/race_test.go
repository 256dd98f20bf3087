//go:build race

package wasmhooks_test

import "time"

// Under the race detector wazero's compiler, itself instrumented, needs about 16 s for one Go
// module, so the tests run guests on wazero's interpreter instead (see UseInterpreter): what
// the race detector checks is the host's own concurrency, which is the same on both engines.
// Plain go test covers the compiler. Interpreted guests are slow, hence the longer limits;
// see norace_test.go for what they are for.
const (
	raceEnabled  = true
	callTimeout  = 2 * time.Minute
	shortTimeout = time.Second
)
