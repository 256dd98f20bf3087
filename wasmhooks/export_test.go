package wasmhooks

import (
	"context"
	"time"
)

// DecodeResponse exposes the parser of guest output to the fuzz test.
var DecodeResponse = decodeResponse

// UseInterpreter makes h run guests on wazero's interpreter instead of its compiler. It must be
// called before h is first used. Tests use it under the race detector, where compiling a Go
// module takes about ten times longer than interpreting it; see race_test.go.
func UseInterpreter(h *Host) { h.interpret = true }

// MaxModules is the number of compiled modules a Host keeps.
const MaxModules = maxModules

// SetTimer makes h bound compiles, instantiations and calls with timer, not context.WithTimeout,
// so that a test decides when a time limit runs out. It must be called before h is first used.
func SetTimer(h *Host, timer func(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc)) {
	h.timeout = timer
}

// Prescan runs the checks that come before compiling, with the default limits.
func Prescan(wasm []byte) error {
	if err := checkBytes(wasm, DefaultLimits().MaxModuleBytes); err != nil {
		return err
	}
	_, err := prescan(wasm, DefaultLimits().MemoryLimitPages)
	return err
}
