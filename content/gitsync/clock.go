package gitsync

import "time"

// Clock is the time source of the debounce and retry timers; tests inject a manual one.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d and returns a function that cancels it.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}
