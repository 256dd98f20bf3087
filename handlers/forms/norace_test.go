//go:build !race

package forms_test

const raceEnabled = false
