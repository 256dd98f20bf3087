package wasmhooks

// DecodeResponse exposes the parser of guest output to the fuzz test.
var DecodeResponse = decodeResponse

// UseInterpreter makes h run guests on wazero's interpreter instead of its compiler. It must be
// called before h is first used. Tests use it under the race detector, where compiling a Go
// module takes about ten times longer than interpreting it; see race_test.go.
func UseInterpreter(h *Host) { h.interpret = true }

// MaxModules is the number of compiled modules a Host keeps.
const MaxModules = maxModules
