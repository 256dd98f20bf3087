package serve_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/runtime/serve"
)

// syncBuffer is a bytes.Buffer safe for the flush timer and the test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Lines written concurrently all arrive, whole and each once, by themselves after the interval
// and at the latest on Close; lines after Close go straight through.
func TestLogBuffer(t *testing.T) {
	t.Parallel()
	var out syncBuffer
	lb := serve.NewLogBuffer(&out, 256, time.Millisecond)
	fmt.Fprintf(lb, "before batching\n")
	if out.String() != "before batching\n" {
		t.Fatalf("a line before Batch waited: %q", out.String())
	}
	out.mu.Lock()
	out.b.Reset()
	out.mu.Unlock()
	lb.Batch()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				fmt.Fprintf(lb, "line %d-%d\n", g, i)
			}
		}()
	}
	wg.Wait()
	// The timer flushes without Close (generous deadline; only the outcome is asserted).
	deadline := time.Now().Add(time.Minute)
	for strings.Count(out.String(), "\n") < 400 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := strings.Count(out.String(), "\n"); n != 400 {
		t.Errorf("%d of 400 lines written before Close", n)
	}
	if err := lb.Close(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(lb, "after close\n")
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l] {
			t.Errorf("line %q twice", l)
		}
		seen[l] = true
	}
	for g := range 4 {
		for i := range 100 {
			if !seen[fmt.Sprintf("line %d-%d", g, i)] {
				t.Errorf("line %d-%d lost or torn", g, i)
			}
		}
	}
	if len(lines) != 401 || lines[400] != "after close" {
		t.Errorf("%d lines, last %q", len(lines), lines[len(lines)-1])
	}
}
