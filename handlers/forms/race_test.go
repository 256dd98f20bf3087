//go:build race

package forms_test

// raceEnabled skips the test that compiles a Go guest: under the race detector wazero's
// compiler needs about 16 s for one.
const raceEnabled = true
