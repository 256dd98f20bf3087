// Package load is a small HTTP load generator for benchmarks: a fixed number of keep-alive
// connections, each sending requests back to back for a fixed time (or count), counting
// successes (2xx) and errors and recording latencies in a bounded histogram.
//
// It uses net/http's client with a Transport sized to the number of connections, so every
// worker keeps one connection open. The client costs CPU on the same machine as the server:
// compare figures measured in the same run, never absolute numbers across machines.
package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a run.
type Options struct {
	Conns       int           // concurrent connections (workers); 0 = 1
	Duration    time.Duration // how long to send requests; 0 = until MaxRequests
	MaxRequests int64         // stop after this many requests in total; 0 = no limit
	Timeout     time.Duration // per request; 0 = 10s
	// Client, when set, is used instead of one built by [NewClient] (tests; a cookie jar).
	Client *http.Client
}

// NewRequest returns the next request for a worker; seq counts that worker's requests from 0.
// It is called from the worker's goroutine, concurrently with other workers.
type NewRequest func(worker int, seq uint64) (*http.Request, error)

// Result is the outcome of a run.
type Result struct {
	OK        int64         // responses with a 2xx status
	Errors    int64         // transport errors and non-2xx responses
	Statuses  map[int]int64 // responses by status (transport errors under 0)
	Elapsed   time.Duration // from the first request to the end of the last
	Latency   Histogram     // latencies of every completed request (OK or not)
	BytesRead int64         // response body bytes
	// FirstError describes the first failure, for the report.
	FirstError string
}

// RPS returns successful requests per second.
func (r *Result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.OK) / r.Elapsed.Seconds()
}

// Total returns every request sent.
func (r *Result) Total() int64 { return r.OK + r.Errors }

// NewClient returns a client for conns connections to one host: keep-alive, as many idle
// connections as workers (the default of 2 per host would make most requests open a new
// connection), no proxy, no compression, HTTP/1.1.
func NewClient(conns int, timeout time.Duration) *http.Client {
	if conns < 1 {
		conns = 1
	}
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		MaxConnsPerHost:     conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &http.Client{Transport: tr, Timeout: timeout}
}

// Run sends requests from opts.Conns workers until opts.Duration has passed or
// opts.MaxRequests were sent, whichever comes first, or ctx ends. Requests in flight when the
// time is up are allowed to finish and are counted. Run needs at least one bound.
func Run(ctx context.Context, opts Options, next NewRequest) (*Result, error) {
	if opts.Duration <= 0 && opts.MaxRequests <= 0 {
		return nil, errors.New("load: need a Duration or MaxRequests")
	}
	if next == nil {
		return nil, errors.New("load: no request function")
	}
	conns := max(opts.Conns, 1)
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	client := opts.Client
	if client == nil {
		client = NewClient(conns, timeout)
		defer client.CloseIdleConnections()
	}

	var sent atomic.Int64
	var firstErr sync.Once
	res := &Result{Statuses: map[int]int64{}}
	workers := make([]worker, conns)
	start := time.Now()
	deadline := start.Add(opts.Duration)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			wk := &workers[w]
			wk.statuses = map[int]int64{}
			for seq := uint64(0); ; seq++ {
				if ctx.Err() != nil || (opts.Duration > 0 && !time.Now().Before(deadline)) {
					return
				}
				if opts.MaxRequests > 0 && sent.Add(1) > opts.MaxRequests {
					return
				}
				status, n, lat, err := do(ctx, client, next, w, seq)
				wk.lat.Record(lat)
				wk.bytes += n
				wk.statuses[status]++
				if err == nil && status >= 200 && status < 300 {
					wk.ok++
					continue
				}
				wk.errors++
				firstErr.Do(func() {
					if err != nil {
						res.FirstError = err.Error()
					} else {
						res.FirstError = fmt.Sprintf("status %d", status)
					}
				})
			}
		})
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	for i := range workers {
		wk := &workers[i]
		res.OK += wk.ok
		res.Errors += wk.errors
		res.BytesRead += wk.bytes
		res.Latency.Merge(&wk.lat)
		for s, c := range wk.statuses {
			res.Statuses[s] += c
		}
	}
	return res, ctx.Err()
}

type worker struct {
	ok, errors, bytes int64
	statuses          map[int]int64
	lat               Histogram
}

// do sends one request and reads the whole body (so the connection is reused). status is 0 on
// a transport error.
func do(ctx context.Context, c *http.Client, next NewRequest, w int, seq uint64) (status int, n int64, lat time.Duration, err error) {
	req, err := next(w, seq)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("build request: %w", err)
	}
	req = req.WithContext(ctx)
	t0 := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return 0, 0, time.Since(t0), err
	}
	n, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	lat = time.Since(t0)
	if err != nil {
		return resp.StatusCode, n, lat, fmt.Errorf("read body: %w", err)
	}
	return resp.StatusCode, n, lat, nil
}
