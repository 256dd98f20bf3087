package atomicfile

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// Every Do returns after a commit that covered its item, never before: the commit marks items
// durable only at its end, and each caller checks its own mark on return.
func TestBatcherAcknowledgesAfterCommit(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	durable := map[int]bool{}
	commits, committed := 0, 0
	b := NewBatcher(func(items []int, errs []error) {
		mu.Lock()
		defer mu.Unlock()
		commits++
		for i, it := range items {
			if durable[it] {
				errs[i] = fmt.Errorf("item %d committed twice", it)
			}
			if it%7 == 3 {
				errs[i] = errors.New("refused")
				continue
			}
			durable[it] = true
			committed++
		}
	})
	const callers, each = 32, 200
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for i := range each {
				it := c*each + i
				err := b.Do(it)
				mu.Lock()
				ok := durable[it]
				mu.Unlock()
				switch {
				case it%7 == 3 && (err == nil || err.Error() != "refused"):
					t.Errorf("item %d: err = %v, want its own error", it, err)
				case it%7 != 3 && (err != nil || !ok):
					t.Errorf("item %d acknowledged (err %v) before a commit made it durable", it, err)
				}
			}
		})
	}
	wg.Wait()
	want := 0
	for it := range callers * each {
		if it%7 != 3 {
			want++
		}
	}
	if committed != want {
		t.Errorf("%d items committed, want %d", committed, want)
	}
	t.Logf("%d items in %d commits", callers*each, commits)
}

// Callers that arrive while a commit runs share the next one.
func TestBatcherSharesACommit(t *testing.T) {
	t.Parallel()
	gate := make(chan struct{})
	var sizes []int
	b := NewBatcher(func(items []int, errs []error) {
		if len(sizes) == 0 {
			<-gate // the first commit holds until the others have queued
		}
		sizes = append(sizes, len(items))
	})
	var wg sync.WaitGroup
	wg.Go(func() { _ = b.Do(0) })
	waitQueued := func(n int) {
		for {
			b.mu.Lock()
			q, leading := len(b.queue), b.leading
			b.mu.Unlock()
			if leading && q == n {
				return
			}
			runtime.Gosched()
		}
	}
	waitQueued(0) // the first caller leads, its item taken
	const later = 10
	for i := range later {
		wg.Go(func() { _ = b.Do(i + 1) })
	}
	waitQueued(later)
	close(gate)
	wg.Wait()
	if fmt.Sprint(sizes) != fmt.Sprint([]int{1, later}) {
		t.Errorf("commit sizes %v, want [1 %d]", sizes, later)
	}
}
