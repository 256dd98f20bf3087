package forms

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"cms/handlers/web"
)

// limiter allows n events per window per key, in fixed windows that start at a key's first
// event. It holds at most maxKeys keys: when full it first drops windows that have ended, at most
// once a second, and otherwise the window that started first.
type limiter struct {
	n       int
	window  time.Duration
	maxKeys int

	mu        sync.Mutex
	windows   map[string]*window
	lastSweep time.Time
}

type window struct {
	start time.Time
	count int
}

func newLimiter(n int, per time.Duration, maxKeys int) *limiter {
	return &limiter{n: n, window: per, maxKeys: maxKeys, windows: make(map[string]*window)}
}

// allow records an event for key at now. When the key is over its limit it returns false and the
// time until its window ends.
func (l *limiter) allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	w, ok := l.windows[key]
	if ok && now.Sub(w.start) >= l.window {
		w.start, w.count = now, 0
	}
	if !ok {
		if len(l.windows) >= l.maxKeys {
			l.makeRoom(now)
		}
		w = &window{start: now}
		l.windows[key] = w
	}
	if w.count >= l.n {
		return false, w.start.Add(l.window).Sub(now)
	}
	w.count++
	return true, 0
}

// makeRoom drops ended windows, or else the oldest one, so that one key can be added.
func (l *limiter) makeRoom(now time.Time) {
	if now.Sub(l.lastSweep) >= time.Second {
		l.lastSweep = now
		for k, w := range l.windows {
			if now.Sub(w.start) >= l.window {
				delete(l.windows, k)
			}
		}
	}
	for len(l.windows) >= l.maxKeys {
		var oldest string
		var start time.Time
		for k, w := range l.windows {
			if oldest == "" || w.start.Before(start) {
				oldest, start = k, w.start
			}
		}
		delete(l.windows, oldest)
	}
}

// rateLimited is the 429 for a client over the limit.
func rateLimited(retry time.Duration) error {
	secs := int((retry + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	return &web.Error{Status: http.StatusTooManyRequests, Code: "RATE_LIMITED",
		Message: "Too many form submissions. Try again shortly.",
		Header:  http.Header{"Retry-After": {strconv.Itoa(secs)}}}
}
