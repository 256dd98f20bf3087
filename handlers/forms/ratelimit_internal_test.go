package forms

import (
	"fmt"
	"testing"
	"time"

	"cms/handlers/web"
)

func TestLimiterWindows(t *testing.T) {
	t.Parallel()
	l := newLimiter(2, time.Minute, 100)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2 {
		if ok, _ := l.allow("k", t0.Add(time.Duration(i)*time.Second)); !ok {
			t.Fatalf("event %d refused", i)
		}
	}
	ok, retry := l.allow("k", t0.Add(20*time.Second))
	if ok || retry != 40*time.Second {
		t.Errorf("third event = %v, retry %v; want refused, 40s", ok, retry)
	}
	if ok, _ := l.allow("other", t0.Add(20*time.Second)); !ok {
		t.Errorf("another key was refused")
	}
	if ok, _ := l.allow("k", t0.Add(time.Minute)); !ok {
		t.Errorf("refused after the window ended")
	}
}

func TestLimiterStaysBounded(t *testing.T) {
	t.Parallel()
	l := newLimiter(1, time.Minute, 50)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 1000 {
		l.allow(fmt.Sprint("key", i), t0.Add(time.Duration(i)*time.Millisecond))
		if len(l.windows) > 50 {
			t.Fatalf("%d keys held, limit 50", len(l.windows))
		}
	}
	// The newest keys are kept, the oldest dropped.
	if _, ok := l.windows["key999"]; !ok {
		t.Errorf("the newest key was dropped")
	}
	if _, ok := l.windows["key0"]; ok {
		t.Errorf("the oldest key was kept")
	}
	// Ended windows are swept first.
	later := t0.Add(2 * time.Minute)
	l.allow("fresh", later)
	if len(l.windows) != 1 {
		t.Errorf("%d keys after every window ended, want 1", len(l.windows))
	}
}

func TestRateLimitedRetryAfter(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{0: "1", 500 * time.Millisecond: "1", time.Second: "1", 1500 * time.Millisecond: "2", time.Minute: "60"} {
		if got := rateLimited(d); got.(*web.Error).Header.Get("Retry-After") != want {
			t.Errorf("Retry-After for %v = %q, want %s", d, got.(*web.Error).Header.Get("Retry-After"), want)
		}
	}
}
