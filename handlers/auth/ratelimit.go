package auth

import (
	"container/list"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"cms/handlers/web"
)

// Defaults of [Limits].
const (
	DefaultPerEmail   = 5
	DefaultPerAddress = 20
	DefaultWindow     = 15 * time.Minute
	DefaultMaxKeys    = 10000
	maxKeyLen         = 320 // longest email address; longer keys are cut so memory stays bounded
)

// limiter counts failed logins per email and per client address in a sliding window. An attempt
// reserves a slot before the password is checked, so parallel guesses cannot slip past the limit;
// a successful attempt gives its slot back and clears the email's failures.
type limiter struct {
	mu      sync.Mutex
	window  time.Duration
	email   *counter
	address *counter
}

// counter tracks attempt times per key, evicting the least recently used key beyond max.
type counter struct {
	limit int
	max   int
	keys  map[string]*list.Element
	lru   *list.List // front = most recently used; values are *attempts
}

type attempts struct {
	key   string
	times []time.Time // oldest first, at most limit long
}

func newLimiter(l Limits) *limiter {
	if l.PerEmail <= 0 {
		l.PerEmail = DefaultPerEmail
	}
	if l.PerAddress <= 0 {
		l.PerAddress = DefaultPerAddress
	}
	if l.Window <= 0 {
		l.Window = DefaultWindow
	}
	if l.MaxKeys <= 0 {
		l.MaxKeys = DefaultMaxKeys
	}
	return &limiter{window: l.Window, email: newCounter(l.PerEmail, l.MaxKeys), address: newCounter(l.PerAddress, l.MaxKeys)}
}

func newCounter(limit, max int) *counter {
	return &counter{limit: limit, max: max, keys: map[string]*list.Element{}, lru: list.New()}
}

func cut(k string) string {
	if len(k) > maxKeyLen {
		return k[:maxKeyLen]
	}
	return k
}

// get returns the live attempts of key (pruned to the window), or nil.
func (c *counter) get(key string, now time.Time, window time.Duration) *attempts {
	e, ok := c.keys[key]
	if !ok {
		return nil
	}
	a := e.Value.(*attempts)
	i := 0
	for i < len(a.times) && now.Sub(a.times[i]) >= window {
		i++
	}
	a.times = a.times[i:]
	if len(a.times) == 0 {
		c.lru.Remove(e)
		delete(c.keys, key)
		return nil
	}
	return a
}

// wait returns how long until key drops below its limit, or 0 when it is below.
func (c *counter) wait(key string, now time.Time, window time.Duration) time.Duration {
	a := c.get(key, now, window)
	if a == nil || len(a.times) < c.limit {
		return 0
	}
	return a.times[len(a.times)-c.limit].Add(window).Sub(now)
}

func (c *counter) add(key string, t time.Time) {
	if e, ok := c.keys[key]; ok {
		a := e.Value.(*attempts)
		a.times = append(a.times, t)
		if len(a.times) > c.limit {
			a.times = a.times[len(a.times)-c.limit:]
		}
		c.lru.MoveToFront(e)
		return
	}
	if len(c.keys) >= c.max {
		if old := c.lru.Back(); old != nil {
			c.lru.Remove(old)
			delete(c.keys, old.Value.(*attempts).key)
		}
	}
	c.keys[key] = c.lru.PushFront(&attempts{key: key, times: []time.Time{t}})
}

// drop removes one attempt made at t from key.
func (c *counter) drop(key string, t time.Time) {
	e, ok := c.keys[key]
	if !ok {
		return
	}
	a := e.Value.(*attempts)
	for i := len(a.times) - 1; i >= 0; i-- {
		if a.times[i].Equal(t) {
			a.times = append(a.times[:i], a.times[i+1:]...)
			break
		}
	}
	if len(a.times) == 0 {
		c.lru.Remove(e)
		delete(c.keys, key)
	}
}

func (c *counter) reset(key string) {
	if e, ok := c.keys[key]; ok {
		c.lru.Remove(e)
		delete(c.keys, key)
	}
}

// ticket is one reserved attempt.
type ticket struct {
	email, address string
	at             time.Time
}

// begin reserves an attempt, or returns a 429 error when either key is over its limit.
func (l *limiter) begin(email, address string, now time.Time) (ticket, error) {
	email, address = cut(email), cut(address)
	l.mu.Lock()
	defer l.mu.Unlock()
	wait := max(l.email.wait(email, now, l.window), l.address.wait(address, now, l.window))
	if wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		if secs < 1 {
			secs = 1
		}
		return ticket{}, &web.Error{Status: http.StatusTooManyRequests, Code: "RATE_LIMITED",
			Message: "Too many login attempts. Try again shortly.",
			Header:  http.Header{"Retry-After": {strconv.Itoa(secs)}}}
	}
	l.email.add(email, now)
	l.address.add(address, now)
	return ticket{email: email, address: address, at: now}, nil
}

// succeeded clears the email's failures and gives the address its slot back.
func (l *limiter) succeeded(t ticket) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.email.reset(t.email)
	l.address.drop(t.address, t.at)
}

// cancel gives back a reservation for an attempt that neither failed nor succeeded (an
// internal error).
func (l *limiter) cancel(t ticket) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.email.drop(t.email, t.at)
	l.address.drop(t.address, t.at)
}
