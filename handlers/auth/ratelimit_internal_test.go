package auth

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"cms/handlers/web"
)

// testLimiter has a fixed clock and a sleep that must not be called unless a test sets one.
func testLimiter(t *testing.T, l Limits) *limiter {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	return newLimiter(l, func() time.Time { return now }, func(context.Context, time.Duration) error {
		t.Error("unexpected backoff")
		return nil
	})
}

// eventually waits until cond holds under the limiter's lock; the deadline only ends a test that
// would otherwise hang.
func eventually(t *testing.T, l *limiter, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		l.mu.Lock()
		ok := cond()
		l.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func queued(l *limiter, gates map[string]*gate, key string, prio int) int {
	if g := gates[key]; g != nil {
		return len(g.queues[prio])
	}
	return 0
}

type result struct {
	t   ticket
	err error
}

func beginAsync(ctx context.Context, l *limiter, email, addr string) chan result {
	ch := make(chan result, 1)
	go func() {
		t, err := l.begin(ctx, email, addr)
		ch <- result{t, err}
	}()
	return ch
}

// idle reports whether the limiter holds no gate and counts no pending attempt.
func idle(l *limiter) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.emails) == 0 && len(l.addrs) == 0 && len(l.pending) == 0
}

// An address that has failed for an email waits behind addresses that have not.
func TestFreshAddressesGoFirst(t *testing.T) {
	t.Parallel()
	l := testLimiter(t, Limits{})
	ctx := t.Context()
	t0, err := l.begin(ctx, "alice", "attacker")
	if err != nil {
		t.Fatal(err)
	}
	l.done(t0, failed)
	holder, err := l.begin(ctx, "alice", "other")
	if err != nil {
		t.Fatal(err)
	}
	stale := beginAsync(ctx, l, "alice", "attacker")
	eventually(t, l, "the failed address queues", func() bool { return queued(l, l.emails, "alice", 1) == 1 })
	fresh := beginAsync(ctx, l, "alice", "admin")
	eventually(t, l, "the new address queues", func() bool { return queued(l, l.emails, "alice", 0) == 1 })
	l.done(holder, failed)
	r := <-fresh
	if r.err != nil || r.t.address != "admin" {
		t.Fatalf("first after the holder: %+v", r)
	}
	select {
	case r := <-stale:
		t.Fatalf("the failed address went while the new one checks: %+v", r)
	default:
	}
	l.done(r.t, succeeded)
	r = <-stale
	if r.err != nil {
		t.Fatal(r.err)
	}
	l.done(r.t, failed)
	if !idle(l) {
		t.Error("gates left behind")
	}
}

// A client that goes away while it waits leaves the queue; the next one still gets its turn.
func TestWaiterGoesAway(t *testing.T) {
	t.Parallel()
	l := testLimiter(t, Limits{})
	holder, err := l.begin(t.Context(), "alice", "a")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	gone := beginAsync(ctx, l, "alice", "b")
	next := beginAsync(t.Context(), l, "alice", "c")
	eventually(t, l, "both queue", func() bool { return queued(l, l.emails, "alice", 0) == 2 })
	cancel()
	if r := <-gone; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("gone: %+v", r)
	}
	l.done(holder, aborted)
	r := <-next
	if r.err != nil {
		t.Fatal(r.err)
	}
	l.done(r.t, aborted)
	if !idle(l) {
		t.Error("gates left behind")
	}
}

// At most checksPerAddress checks of one address run at once; the next one waits, not refused.
func TestChecksPerAddress(t *testing.T) {
	t.Parallel()
	l := testLimiter(t, Limits{})
	var held []ticket
	for i := range checksPerAddress {
		tk, err := l.begin(t.Context(), "user"+strconv.Itoa(i), "nat")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, tk)
	}
	extra := beginAsync(t.Context(), l, "another", "nat")
	eventually(t, l, "the extra check waits", func() bool { return queued(l, l.addrs, "nat", 0) == 1 })
	l.done(held[0], succeeded)
	r := <-extra
	if r.err != nil {
		t.Fatal(r.err)
	}
	for _, tk := range append(held[1:], r.t) {
		l.done(tk, succeeded)
	}
	if !idle(l) {
		t.Error("gates left behind")
	}
}

// One address cannot queue without bound.
func TestPendingPerAddressBound(t *testing.T) {
	t.Parallel()
	l := testLimiter(t, Limits{})
	holder, err := l.begin(t.Context(), "alice", "flood")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var waiting []chan result
	for range maxPendingPerAddress - 1 {
		waiting = append(waiting, beginAsync(ctx, l, "alice", "flood"))
	}
	eventually(t, l, "the queue fills", func() bool { return l.pending["flood"] == maxPendingPerAddress })
	_, err = l.begin(t.Context(), "bob", "flood")
	if we, ok := errors.AsType[*web.Error](err); !ok || we.Status != http.StatusTooManyRequests || we.Header.Get("Retry-After") != "1" {
		t.Fatalf("over the bound: %v", err)
	}
	if tk, err := l.begin(t.Context(), "bob", "elsewhere"); err != nil {
		t.Fatalf("another address: %v", err)
	} else {
		l.done(tk, succeeded)
	}
	cancel()
	for _, ch := range waiting {
		if r := <-ch; r.err == nil {
			l.done(r.t, aborted) // granted before the cancel was seen
		}
	}
	l.done(holder, aborted)
	if !idle(l) {
		t.Error("gates left behind")
	}
}

// A client that goes away during the backoff gives its turn back.
func TestBackoffCancelled(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	var slept []time.Duration
	l := newLimiter(Limits{PerAccount: 1, Backoff: 3 * time.Second}, func() time.Time { return now },
		func(ctx context.Context, d time.Duration) error {
			slept = append(slept, d)
			return context.Canceled
		})
	tk, err := l.begin(t.Context(), "alice", "a")
	if err != nil {
		t.Fatal(err)
	}
	l.done(tk, failed)
	if _, err := l.begin(t.Context(), "alice", "b"); !errors.Is(err, context.Canceled) || len(slept) != 1 || slept[0] != 3*time.Second {
		t.Fatalf("begin = %v after sleeps %v", err, slept)
	}
	if !idle(l) {
		t.Error("gates left behind")
	}
}
