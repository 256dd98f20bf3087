package load_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cms/local/bench/load"
)

// server counts what it answers: requests per path and new connections.
type server struct {
	ok, fail, conns atomic.Int64
	url             string
}

func newServer(t *testing.T) *server {
	t.Helper()
	s := &server{}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/fail") {
			s.fail.Add(1)
			http.Error(w, "no", http.StatusInternalServerError)
			return
		}
		s.ok.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true}`))
	}))
	ts.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)
	s.url = ts.URL
	return s
}

func TestRunCounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		conns       int
		duration    time.Duration
		maxRequests int64
		failEvery   uint64 // every n-th request of a worker goes to /fail; 0 = never
		wantTotal   int64  // exact total when bounded by count; 0 = not checked
	}{
		{name: "duration", conns: 4, duration: 200 * time.Millisecond},
		{name: "duration with failures", conns: 3, duration: 200 * time.Millisecond, failEvery: 3},
		{name: "count", conns: 4, maxRequests: 101, wantTotal: 101},
		{name: "count one conn", conns: 1, maxRequests: 17, failEvery: 2, wantTotal: 17},
		{name: "count before duration", conns: 2, duration: time.Minute, maxRequests: 50, wantTotal: 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			res, err := load.Run(t.Context(), load.Options{Conns: tt.conns, Duration: tt.duration, MaxRequests: tt.maxRequests},
				func(_ int, seq uint64) (*http.Request, error) {
					path := "/ok"
					if tt.failEvery > 0 && seq%tt.failEvery == tt.failEvery-1 {
						path = "/fail"
					}
					return http.NewRequest(http.MethodGet, s.url+path, nil)
				})
			if err != nil {
				t.Fatal(err)
			}
			if res.OK != s.ok.Load() || res.Errors != s.fail.Load() {
				t.Errorf("counted ok=%d errors=%d, server saw ok=%d fail=%d", res.OK, res.Errors, s.ok.Load(), s.fail.Load())
			}
			if res.OK == 0 {
				t.Error("no successful request")
			}
			if tt.failEvery > 0 && (res.Errors == 0 || res.Statuses[500] != res.Errors) {
				t.Errorf("errors = %d, statuses = %v: want the 500s counted", res.Errors, res.Statuses)
			}
			if tt.failEvery == 0 && res.Errors != 0 {
				t.Errorf("errors = %d (%s), want 0", res.Errors, res.FirstError)
			}
			if tt.wantTotal > 0 && res.Total() != tt.wantTotal {
				t.Errorf("total = %d, want %d", res.Total(), tt.wantTotal)
			}
			if got := int64(res.Latency.Count()); got != res.Total() {
				t.Errorf("latencies recorded = %d, want %d", got, res.Total())
			}
			if n := s.conns.Load(); n > int64(tt.conns) {
				t.Errorf("server saw %d connections for %d workers: keep-alive is not working", n, tt.conns)
			}
			if res.RPS() <= 0 || res.Latency.Quantile(0.5) > res.Latency.Quantile(0.99) {
				t.Errorf("rps %v, p50 %v, p99 %v", res.RPS(), res.Latency.Quantile(0.5), res.Latency.Quantile(0.99))
			}
		})
	}
}

func TestRunTransportErrors(t *testing.T) {
	t.Parallel()
	// A closed listener: every request fails to connect and is counted under status 0.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	res, err := load.Run(t.Context(), load.Options{Conns: 2, MaxRequests: 6}, func(int, uint64) (*http.Request, error) {
		return http.NewRequest(http.MethodGet, "http://"+addr+"/", nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK != 0 || res.Errors != 6 || res.Statuses[0] != 6 || res.FirstError == "" {
		t.Errorf("ok=%d errors=%d statuses=%v first=%q, want 6 transport errors", res.OK, res.Errors, res.Statuses, res.FirstError)
	}
}

func TestRunBadInput(t *testing.T) {
	t.Parallel()
	get := func(int, uint64) (*http.Request, error) {
		return http.NewRequest(http.MethodGet, "http://127.0.0.1:1/", nil)
	}
	if _, err := load.Run(t.Context(), load.Options{Conns: 1}, get); err == nil {
		t.Error("no bound: no error")
	}
	if _, err := load.Run(t.Context(), load.Options{MaxRequests: 1}, nil); err == nil {
		t.Error("nil request func: no error")
	}
	// A request function that fails counts as an error, not a crash.
	res, err := load.Run(t.Context(), load.Options{MaxRequests: 3}, func(int, uint64) (*http.Request, error) {
		return http.NewRequest(http.MethodGet, "://bad", nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Errors != 3 || !strings.Contains(res.FirstError, "build request") {
		t.Errorf("errors=%d first=%q", res.Errors, res.FirstError)
	}
}

func TestRunCancel(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	var once sync.Once
	res, err := load.Run(ctx, load.Options{Conns: 2, Duration: time.Minute}, func(_ int, seq uint64) (*http.Request, error) {
		if seq == 5 {
			once.Do(cancel)
		}
		return http.NewRequest(http.MethodGet, s.url+"/ok", nil)
	})
	if err == nil {
		t.Error("cancelled run: no error")
	}
	if res == nil || res.Total() == 0 {
		t.Errorf("cancelled run lost its counts: %+v", res)
	}
}

func TestHistogram(t *testing.T) {
	t.Parallel()
	var h load.Histogram
	if h.Quantile(0.5) != 0 || h.Mean() != 0 {
		t.Error("empty histogram is not zero")
	}
	// 1..10000 µs: quantiles within 1% of the exact values.
	for us := 1; us <= 10000; us++ {
		h.Record(time.Duration(us) * time.Microsecond)
	}
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 5000 * time.Microsecond}, {0.99, 9900 * time.Microsecond}, {0.001, 10 * time.Microsecond}, {1, 10000 * time.Microsecond}} {
		got := h.Quantile(tc.q)
		if diff := got - tc.want; diff < -tc.want/100 || diff > tc.want/100 {
			t.Errorf("Quantile(%v) = %v, want %v ±1%%", tc.q, got, tc.want)
		}
	}
	if h.Max() != 10*time.Millisecond || h.Count() != 10000 {
		t.Errorf("max %v count %d", h.Max(), h.Count())
	}
	var big load.Histogram
	big.Record(200 * time.Hour) // beyond the last bucket: clamped, not lost
	big.Record(-time.Second)
	big.Merge(&h)
	if big.Count() != 10002 || big.Quantile(1) != 200*time.Hour {
		t.Errorf("count %d, max quantile %v", big.Count(), big.Quantile(1))
	}
}

func BenchmarkHistogramRecord(b *testing.B) {
	var h load.Histogram
	for i := 0; b.Loop(); i++ {
		h.Record(time.Duration(i%100000) * time.Microsecond)
	}
}
