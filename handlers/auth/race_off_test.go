//go:build !race

package auth_test

// raceEnabled is set under the race detector, which slows scrypt about eightfold.
const raceEnabled = false
