package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/sessions"
	"cms/handlers/auth"
	"cms/handlers/auth/authtest"
	"cms/handlers/web/webtest"
)

// postFrom sends a login from a given client address.
func postFrom(h http.Handler, addr, email, password string) *httptest.ResponseRecorder {
	b, _ := json.Marshal(map[string]string{"email": email, "password": password})
	r := httptest.NewRequest("POST", "/api/auth/login", bytes.NewReader(b))
	r.Header.Set("Content-Type", "application/json")
	r.RemoteAddr = addr
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// plainCredentials accepts authtest.Password for any existing user without scrypt. The rate-limit
// tests use it because they test the limiter, which runs before the driver; the real driver's
// cost and answers are tested in auth_test.go and content/sessions.
type plainCredentials struct{ users sessions.UserLookup }

func (c plainCredentials) Validate(_ context.Context, email, password string) (*content.User, error) {
	u, err := c.users.UserByEmail(email)
	if err != nil || password != authtest.Password {
		return nil, content.Unauthenticatedf("test", "Invalid credentials")
	}
	return u, nil
}

// sleeps records the waits of the login backoff and advances the test clock instead of sleeping.
type sleeps struct {
	mu    sync.Mutex
	clock *authtest.Clock
	waits []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	s.clock.Advance(d)
	return nil
}

// take returns the waits recorded since the last call.
func (s *sleeps) take() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.waits
	s.waits = nil
	return w
}

// limited configures the limits, the scrypt-free driver and a recording sleep.
func limited(env *authtest.Env, l auth.Limits) func(*auth.Deps) {
	return func(d *auth.Deps) {
		d.Limits = l
		d.Credentials = plainCredentials{users: env.Store}
		d.Sleep = (&sleeps{clock: env.Clock}).sleep
	}
}

func want429(t *testing.T, w *httptest.ResponseRecorder, retry string) {
	t.Helper()
	if w.Code != 429 {
		t.Fatalf("status = %d, want 429: %s", w.Code, w.Body)
	}
	if e := webtest.DecodeError(t, w); e.Error.Code != "RATE_LIMITED" || e.Error.Message != "Too many login attempts. Try again shortly." {
		t.Errorf("error = %+v", e.Error)
	}
	if got := w.Header().Get("Retry-After"); got != retry {
		t.Errorf("Retry-After = %q, want %q", got, retry)
	}
}

// An attacker failing for the admin's email from one address is refused from that address only;
// the admin, from another, logs in.
func TestLockoutIsNotAWeapon(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, limited(env, auth.Limits{})) // the defaults: 5 failures in 15 minutes
	for i := range 5 {
		if w := postFrom(h, "203.0.113.66:4000", "alice@example.com", "guess"); w.Code != 401 {
			t.Fatalf("guess %d: status %d", i, w.Code)
		}
		env.Clock.Advance(time.Minute)
	}
	want429(t, postFrom(h, "203.0.113.66:4001", "alice@example.com", authtest.Password), "600")
	if w := postFrom(h, "198.51.100.7:5000", "ALICE@example.com", authtest.Password); w.Code != 200 {
		t.Fatalf("the admin from another address: status %d: %s", w.Code, w.Body)
	}
	// Addresses of one IPv6 /64 count as one client.
	for i := range 5 {
		addr := "[2001:db8:66:1::" + string(rune('a'+i)) + "]:1"
		if w := postFrom(h, addr, "alice@example.com", "guess"); w.Code != 401 {
			t.Fatalf("IPv6 guess %d: status %d", i, w.Code)
		}
	}
	want429(t, postFrom(h, "[2001:db8:66:1::ffff]:1", "alice@example.com", authtest.Password), "900")
	if w := postFrom(h, "[2001:db8:66:2::1]:1", "alice@example.com", authtest.Password); w.Code != 200 {
		t.Errorf("the next /64: status %d", w.Code)
	}
}

// Many addresses failing for one email slow its logins down, but the right password from a new
// address still gets in; the wait is observed on the injected clock.
func TestDistributedGuessesSlowDownButNeverLockOut(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	s := &sleeps{clock: env.Clock}
	h := env.Handler(t, func(d *auth.Deps) {
		limited(env, auth.Limits{PerEmail: 5, PerAddress: 20, PerAccount: 10, Backoff: time.Second})(d)
		d.Sleep = s.sleep
	})
	for i := range 60 {
		addr := "198.18." + itoa(i/4) + "." + itoa(i%4) + ":1"
		if w := postFrom(h, addr, "alice@example.com", "guess"); w.Code != 401 {
			t.Fatalf("guess %d from %s: status %d: %s", i, addr, w.Code, w.Body)
		}
	}
	waits := s.take()
	if len(waits) != 50 {
		t.Errorf("%d of 60 guesses waited, want the 50 after the 10th failure", len(waits))
	}
	for i, d := range waits {
		if want := time.Second << min(i/10, 3); d != want {
			t.Fatalf("wait %d = %v, want %v (doubling every 10 failures, at most 8s)", i, d, want)
		}
	}
	start := env.Clock.Now()
	if w := postFrom(h, "192.0.2.200:1", "alice@example.com", authtest.Password); w.Code != 200 {
		t.Fatalf("right password from a new address: status %d: %s", w.Code, w.Body)
	}
	if waited := env.Clock.Now().Sub(start); waited != 8*time.Second {
		t.Errorf("the login waited %v, want the 8s backoff", waited)
	}
	// Other emails are not slowed down.
	if w := postFrom(h, "192.0.2.200:1", "bob@example.com", authtest.Password); w.Code != 200 || len(s.take()) != 1 {
		t.Errorf("bob: status %d, or he waited", w.Code)
	}
	// Once the failures leave the window, nobody waits.
	env.Clock.Advance(auth.DefaultWindow)
	if w := postFrom(h, "192.0.2.201:1", "alice@example.com", authtest.Password); w.Code != 200 || len(s.take()) != 0 {
		t.Errorf("after the window: status %d, or it waited", w.Code)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestRateLimit(t *testing.T) {
	t.Parallel()
	limits := auth.Limits{PerEmail: 2, PerAddress: 2, Window: time.Minute}
	t.Run("per email and address", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		h := env.Handler(t, limited(env, auth.Limits{PerEmail: 2, PerAddress: 20, Window: time.Minute}))
		for i := range 2 {
			if w := postFrom(h, "10.0.0.1:1", "alice@example.com", "bad guess"); w.Code != 401 {
				t.Fatalf("failure %d: status %d", i, w.Code)
			}
			env.Clock.Advance(10 * time.Second)
		}
		// Blocked from that address, the right password too, until the first failure is a minute old.
		want429(t, postFrom(h, "10.0.0.1:2", "ALICE@example.com", authtest.Password), "40")
		env.Clock.Advance(39*time.Second + 500*time.Millisecond)
		want429(t, postFrom(h, "10.0.0.1:2", "alice@example.com", authtest.Password), "1")
		// Other emails from that address, and that email from other addresses, are unaffected.
		if w := postFrom(h, "10.0.0.1:1", "bob@example.com", authtest.Password); w.Code != 200 {
			t.Errorf("other email: status %d", w.Code)
		}
		if w := postFrom(h, "10.0.0.2:1", "alice@example.com", authtest.Password); w.Code != 200 {
			t.Errorf("other address: status %d", w.Code)
		}
		env.Clock.Advance(time.Second)
		if w := postFrom(h, "10.0.0.1:2", "alice@example.com", authtest.Password); w.Code != 200 {
			t.Errorf("after the window: status %d: %s", w.Code, w.Body)
		}
	})
	t.Run("success resets the count of its address", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		h := env.Handler(t, limited(env, auth.Limits{PerEmail: 2, PerAddress: 20, Window: time.Minute}))
		postFrom(h, "10.0.0.1:1", "alice@example.com", "bad guess")
		if w := postFrom(h, "10.0.0.1:1", "alice@example.com", authtest.Password); w.Code != 200 {
			t.Fatalf("status %d", w.Code)
		}
		for i := range 2 {
			if w := postFrom(h, "10.0.0.1:1", "alice@example.com", "bad guess"); w.Code != 401 {
				t.Errorf("failure %d after a success: status %d", i, w.Code)
			}
		}
		want429(t, postFrom(h, "10.0.0.1:1", "alice@example.com", "bad guess"), "60")
	})
	t.Run("successes use up nothing", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		h := env.Handler(t, limited(env, limits))
		for i := range 10 {
			if w := postFrom(h, "10.0.0.1:1", "alice@example.com", authtest.Password); w.Code != 200 {
				t.Fatalf("login %d: status %d", i, w.Code)
			}
		}
	})
	t.Run("per address", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		h := env.Handler(t, limited(env, limits))
		for _, email := range []string{"a@example.com", "b@example.com"} {
			if w := postFrom(h, "192.0.2.7:5000", email, "guess"); w.Code != 401 {
				t.Fatalf("status %d", w.Code)
			}
		}
		want429(t, postFrom(h, "192.0.2.7:5001", "alice@example.com", authtest.Password), "60")
		// X-Forwarded-For is not trusted to pick another bucket.
		b, _ := json.Marshal(map[string]string{"email": "alice@example.com", "password": authtest.Password})
		r := httptest.NewRequest("POST", "/api/auth/login", bytes.NewReader(b))
		r.RemoteAddr = "192.0.2.7:5002"
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Forwarded-For", "203.0.113.9")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		want429(t, w, "60")
		if w := postFrom(h, "192.0.2.8:5000", "alice@example.com", authtest.Password); w.Code != 200 {
			t.Errorf("other address: status %d", w.Code)
		}
	})
	t.Run("validation errors do not count", func(t *testing.T) {
		t.Parallel()
		env := newEnv(t)
		h := env.Handler(t, limited(env, limits))
		for range 5 {
			if w := postFrom(h, "10.0.0.1:1", "alice@example.com", ""); w.Code != 422 {
				t.Fatalf("status %d", w.Code)
			}
		}
		if w := postFrom(h, "10.0.0.1:1", "alice@example.com", authtest.Password); w.Code != 200 {
			t.Errorf("status %d", w.Code)
		}
	})
}

// Parallel guesses from one address cannot exceed its limit: attempts for one email check their
// password one at a time and the count is read when each one's turn comes.
func TestRateLimitParallel(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, limited(env, auth.Limits{PerEmail: 3, PerAddress: 100, Window: time.Hour}))
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			w := postFrom(h, "10.0.0.9:1", "alice@example.com", "bad guess")
			mu.Lock()
			codes[w.Code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if codes[401] != 3 || codes[429] != 9 {
		t.Errorf("status counts = %v, want 3×401 and 9×429", codes)
	}
	if w := postFrom(h, "10.0.0.10:1", "alice@example.com", authtest.Password); w.Code != 200 {
		t.Errorf("another address: status %d", w.Code)
	}
}
