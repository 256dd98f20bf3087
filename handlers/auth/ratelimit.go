package auth

import (
	"container/list"
	"context"
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
	DefaultPerAccount = 20
	DefaultBackoff    = time.Second
	DefaultWindow     = 15 * time.Minute
	DefaultMaxKeys    = 10000
	maxKeyLen         = 320 // longest email address; longer keys are cut so memory stays bounded

	// maxBackoffDoublings bounds the account backoff at Backoff×8.
	maxBackoffDoublings = 3
	// checksPerAddress bounds password checks running at once for one client address, so
	// parallel guesses at many accounts cannot overshoot PerAddress by more than this.
	checksPerAddress = 4
	// maxPendingPerAddress bounds the attempts of one client address that wait or run; more
	// are refused with 429. It is the only bound on the per-account queues.
	maxPendingPerAddress = 128
)

// limiter decides when a login attempt may check its password. Only failures count, so a correct
// password never uses up a limit and attempts in flight reserve nothing:
//
//   - PerEmail failures for one email from one client address, or PerAddress failures from one
//     address for any emails, refuse further attempts from that address with 429 until the
//     oldest failure leaves the window. Failures from other addresses do not lock anyone out.
//   - Attempts for one email check their password one at a time, in arrival order, attempts from
//     addresses without failures for that email first; the counts are re-read when an attempt's
//     turn comes, so parallel guesses cannot slip past them.
//   - Once an email has PerAccount failures in the window, from any addresses, each attempt for it
//     waits until Backoff after the last failure (doubling per further PerAccount failures, up to
//     8×). That bounds the guessing rate of many addresses together without refusing anyone.
type limiter struct {
	perAccount int
	backoff    time.Duration
	window     time.Duration
	now        func() time.Time
	sleep      func(context.Context, time.Duration) error

	mu      sync.Mutex
	pair    *counter // failures per email and address
	address *counter // failures per address
	account *counter // failures per email, from any address
	pending map[string]int
	emails  map[string]*gate // one check at a time per email
	addrs   map[string]*gate // checksPerAddress checks at a time per address
}

// counter tracks failure times per key, evicting the least recently used key beyond max.
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

func newLimiter(l Limits, now func() time.Time, sleep func(context.Context, time.Duration) error) *limiter {
	if l.PerEmail <= 0 {
		l.PerEmail = DefaultPerEmail
	}
	if l.PerAddress <= 0 {
		l.PerAddress = DefaultPerAddress
	}
	if l.PerAccount <= 0 {
		l.PerAccount = DefaultPerAccount
	}
	if l.Backoff <= 0 {
		l.Backoff = DefaultBackoff
	}
	if l.Window <= 0 {
		l.Window = DefaultWindow
	}
	if l.MaxKeys <= 0 {
		l.MaxKeys = DefaultMaxKeys
	}
	// The account counter keeps enough failures to tell every backoff step apart.
	accountLimit := l.PerAccount * (maxBackoffDoublings + 1)
	if accountLimit/(maxBackoffDoublings+1) != l.PerAccount { // overflow: a limit so high it never applies
		accountLimit = math.MaxInt
	}
	return &limiter{
		perAccount: l.PerAccount, backoff: l.Backoff, window: l.Window, now: now, sleep: sleep,
		pair: newCounter(l.PerEmail, l.MaxKeys), address: newCounter(l.PerAddress, l.MaxKeys),
		account: newCounter(accountLimit, l.MaxKeys),
		pending: map[string]int{}, emails: map[string]*gate{}, addrs: map[string]*gate{},
	}
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

func (c *counter) reset(key string) {
	if e, ok := c.keys[key]; ok {
		c.lru.Remove(e)
		delete(c.keys, key)
	}
}

// gate is a semaphore whose waiters are served in order, those of queue 0 before those of
// queue 1. A gate exists only while it is held or waited for.
type gate struct {
	size, free int
	queues     [2][]*waiter
}

type waiter struct {
	ready   chan struct{}
	granted bool
}

// acquire takes a slot of the gate named key, waiting in queue prio if none is free. l.mu must
// be held; it is released while waiting and held again on return.
func (l *limiter) acquire(ctx context.Context, gates map[string]*gate, key string, size, prio int) error {
	g := gates[key]
	if g == nil {
		g = &gate{size: size, free: size}
		gates[key] = g
	}
	if g.free > 0 {
		g.free--
		return nil
	}
	w := &waiter{ready: make(chan struct{})}
	g.queues[prio] = append(g.queues[prio], w)
	l.mu.Unlock()
	select {
	case <-w.ready:
		l.mu.Lock()
		return nil
	case <-ctx.Done():
		l.mu.Lock()
		if w.granted { // granted just as the client left: pass the slot on
			l.release(gates, key)
		} else {
			q := g.queues[prio]
			for i := range q {
				if q[i] == w {
					g.queues[prio] = append(q[:i:i], q[i+1:]...)
					break
				}
			}
		}
		return ctx.Err()
	}
}

// release hands the slot to the next waiter, or frees it. l.mu must be held.
func (l *limiter) release(gates map[string]*gate, key string) {
	g := gates[key]
	for p := range g.queues {
		if q := g.queues[p]; len(q) > 0 {
			w := q[0]
			q[0] = nil
			g.queues[p] = q[1:]
			w.granted = true
			close(w.ready)
			return
		}
	}
	if g.free++; g.free == g.size {
		delete(gates, key)
	}
}

// ticket is an attempt allowed to check its password; pass it to done.
type ticket struct {
	email, address, pair string
}

// outcome is what a password check found.
type outcome int

const (
	aborted   outcome = iota // neither: an internal error or the client went away
	failed                   // wrong password or unknown email
	succeeded                // correct password
)

func rateLimited(wait time.Duration) error {
	secs := max(int(math.Ceil(wait.Seconds())), 1)
	return &web.Error{Status: http.StatusTooManyRequests, Code: "RATE_LIMITED",
		Message: "Too many login attempts. Try again shortly.",
		Header:  http.Header{"Retry-After": {strconv.Itoa(secs)}}}
}

// refusal returns the 429 for an address over one of its limits, or nil. l.mu must be held.
func (l *limiter) refusal(t ticket, now time.Time) error {
	if wait := max(l.pair.wait(t.pair, now, l.window), l.address.wait(t.address, now, l.window)); wait > 0 {
		return rateLimited(wait)
	}
	return nil
}

// accountWait returns how long an attempt for email must still wait under the account backoff.
func (l *limiter) accountWait(email string, now time.Time) time.Duration {
	a := l.account.get(email, now, l.window)
	if a == nil || len(a.times) < l.perAccount {
		return 0
	}
	steps := min((len(a.times)-l.perAccount)/l.perAccount, maxBackoffDoublings)
	return a.times[len(a.times)-1].Add(l.backoff << steps).Sub(now)
}

// begin waits for the attempt's turn and returns its ticket, or a 429 when the address is over a
// limit, or the context's error when the client goes away.
func (l *limiter) begin(ctx context.Context, email, address string) (ticket, error) {
	email, address = cut(email), cut(address)
	t := ticket{email: email, address: address, pair: email + "\x00" + address}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.refusal(t, l.now()); err != nil {
		return ticket{}, err
	}
	if l.pending[address] >= maxPendingPerAddress {
		return ticket{}, rateLimited(time.Second)
	}
	l.pending[address]++
	prio := 0
	if l.pair.get(t.pair, l.now(), l.window) != nil {
		prio = 1 // this address has failed for this email: others go first
	}
	if err := l.acquire(ctx, l.emails, email, 1, prio); err != nil {
		l.unpend(address)
		return ticket{}, err
	}
	for {
		wait := l.accountWait(email, l.now())
		if wait <= 0 {
			break
		}
		l.mu.Unlock()
		err := l.sleep(ctx, wait)
		l.mu.Lock()
		if err != nil {
			l.release(l.emails, email)
			l.unpend(address)
			return ticket{}, err
		}
	}
	if err := l.acquire(ctx, l.addrs, address, checksPerAddress, 0); err != nil {
		l.release(l.emails, email)
		l.unpend(address)
		return ticket{}, err
	}
	// Failures may have been counted while this attempt waited.
	if err := l.refusal(t, l.now()); err != nil {
		l.finish(t)
		return ticket{}, err
	}
	return t, nil
}

// done records the outcome of a check and lets the next attempt go.
func (l *limiter) done(t ticket, o outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch now := l.now(); o {
	case failed:
		l.pair.add(t.pair, now)
		l.address.add(t.address, now)
		l.account.add(t.email, now)
	case succeeded:
		l.pair.reset(t.pair) // the failures of this address were typos
	}
	l.finish(t)
}

func (l *limiter) finish(t ticket) {
	l.release(l.addrs, t.address)
	l.release(l.emails, t.email)
	l.unpend(t.address)
}

func (l *limiter) unpend(address string) {
	if l.pending[address]--; l.pending[address] <= 0 {
		delete(l.pending, address)
	}
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
