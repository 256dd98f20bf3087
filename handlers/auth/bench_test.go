//go:build unix

package auth_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/handlers/auth"
	"cms/handlers/auth/authtest"
)

func benchEnv(b *testing.B) (*authtest.Env, http.Handler) {
	env := authtest.New(b, contenttest.WriteSite(b, site))
	env.AddUser(b, "alice", "admin")
	h := env.Handler(b, func(d *auth.Deps) {
		d.Limits = auth.Limits{PerEmail: 1 << 30, PerAddress: 1 << 30, PerAccount: 1 << 30}
	})
	return env, h
}

func benchLogin(b *testing.B, email, password string, want int) {
	_, h := benchEnv(b)
	body := `{"email":"` + email + `","password":"` + password + `"}`
	b.ReportAllocs()
	cpu0 := cpuTime()
	n := 0
	for b.Loop() {
		r := httptest.NewRequest("POST", "/api/auth/login", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != want {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
		n++
	}
	// CPU time per login is steadier than wall time on a shared machine.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(n), "cpu-ms/op")
}

// cpuTime is the CPU time the process has used (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLogin measures a login end to end; scrypt (N=16384, r=8, p=1) dominates. The two
// failure cases must cost the same as each other.
func BenchmarkLogin(b *testing.B) {
	b.Run("success", func(b *testing.B) { benchLogin(b, "alice@example.com", authtest.Password, 200) })
	b.Run("wrong-password", func(b *testing.B) { benchLogin(b, "alice@example.com", "wrong password", 401) })
	b.Run("unknown-email", func(b *testing.B) { benchLogin(b, "nobody@example.com", "wrong password", 401) })
}

// BenchmarkAuthenticate measures identifying the caller of a request with a cached session:
// no scrypt and no file read.
func BenchmarkAuthenticate(b *testing.B) {
	env, _ := benchEnv(b)
	tok := env.Token(b, "alice")
	r := httptest.NewRequest("GET", "/api/users/me", nil)
	r.Header.Set("Authorization", "Bearer "+tok)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := env.Auth.Authenticate(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateEndpoint compares GET /api/auth/validate (authenticated, JSON answer) with a
// trivial handler in the same run: the cost of authentication per request.
func BenchmarkValidateEndpoint(b *testing.B) {
	env, h := benchEnv(b)
	tok := env.Token(b, "alice")
	trivial := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"trivial", trivial}, {"validate", h}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest("GET", "/api/auth/validate", nil)
				r.Header.Set("Authorization", "Bearer "+tok)
				w := httptest.NewRecorder()
				c.h.ServeHTTP(w, r)
				if w.Code != 200 {
					b.Fatal(w.Code)
				}
			}
		})
	}
}
