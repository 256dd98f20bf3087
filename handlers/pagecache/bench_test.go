package pagecache_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"cms/content/pagecache"
	hpc "cms/handlers/pagecache"
)

// discard is a ResponseWriter that keeps nothing, so the benchmarks measure the handlers.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(int)             {}
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }

var page = []byte("<!doctype html><title>Post</title>" + strings.Repeat("<p>lorem ipsum dolor sit amet</p>", 60))

// trivial is the fastest page handler there is: a fixed page, nothing looked up.
var trivial = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(page)
})

// BenchmarkHit compares a cache hit on a 10,000-page site with the trivial handler in the same
// run (issue 15: a hit must reach 0.8 × the trivial handler's rate).
func BenchmarkHit(b *testing.B) {
	c, err := pagecache.New(pagecache.Options{Driver: pagecache.NewMemory(1 << 30)})
	if err != nil {
		b.Fatal(err)
	}
	h := hpc.Wrap(trivial, hpc.Config{Cache: c, Rules: &pagecache.Rules{Reserved: []string{"/api", "/cp"}},
		Site: func(*http.Request) (string, bool) { return "default", true }})
	const pages = 10_000
	reqs := make([]*http.Request, pages)
	for i := range reqs {
		reqs[i] = httptest.NewRequest("GET", fmt.Sprintf("/blog/post-%d", i), nil)
		reqs[i].Header.Set("Accept", "text/html,*/*;q=0.8")
		reqs[i].Header.Set("Accept-Encoding", "gzip, br")
		h.ServeHTTP(httptest.NewRecorder(), reqs[i])
	}
	if n := c.Stats().Entries; n != pages {
		b.Fatalf("%d pages stored", n)
	}
	run := func(b *testing.B, h http.Handler) {
		runtime.GC() // the setup's garbage is not the loop's
		w := &discard{h: http.Header{}}
		for i := 0; b.Loop(); i++ {
			clear(w.h)
			h.ServeHTTP(w, reqs[(i*7919)%pages])
		}
	}
	b.Run("trivial", func(b *testing.B) { run(b, trivial) })
	b.Run("hit", func(b *testing.B) { run(b, h) })
	// Through a real server and client (keep-alive, two at a time), as a site serves them.
	serve := func(b *testing.B, h http.Handler) {
		srv := httptest.NewServer(h)
		defer srv.Close()
		client := srv.Client()
		client.Transport.(*http.Transport).MaxIdleConnsPerHost = 4
		runtime.GC()
		var next atomic.Int64
		b.SetParallelism(1)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				i := next.Add(1)
				req, _ := http.NewRequest("GET", srv.URL+fmt.Sprintf("/blog/post-%d", (i*7919)%pages), nil)
				req.Header.Set("Accept-Encoding", "gzip, br")
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	b.Run("server/trivial", func(b *testing.B) { serve(b, trivial) })
	b.Run("server/hit", func(b *testing.B) { serve(b, h) })
}
