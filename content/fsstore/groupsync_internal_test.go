package fsstore

import (
	"errors"
	"os"
	"sync"
	"testing"
	"time"
)

// waitFor polls cond (under the syncer's lock) until it holds, failing after a generous deadline.
func waitFor(t *testing.T, ds *dirSyncer, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		ds.mu.Lock()
		ok := cond()
		ds.mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatal("timed out")
}

// Writers that arrive while a folder fsync is under way share the next one, and none returns
// before an fsync that began after it arrived has finished.
func TestDirSyncGroupCommit(t *testing.T) {
	t.Parallel()
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	var (
		mu      sync.Mutex
		flushes [][]syncMember
		release = make(chan struct{})
		first   = true
	)
	ds := &dirSyncer{flush: func(_ string, members []syncMember) error {
		mu.Lock()
		block := first
		first = false
		mu.Unlock()
		if block {
			<-release // the first flush stays under way until the others have arrived
		}
		mu.Lock()
		flushes = append(flushes, members)
		mu.Unlock()
		return nil
	}}
	const writers = 8
	returned := make(chan int, writers)
	go func() { _ = ds.sync("f", dir); returned <- 0 }()
	waitFor(t, ds, func() bool { g := ds.groups["f"]; return g != nil && g.running })
	for i := 1; i < writers; i++ {
		go func() { _ = ds.sync("f", dir); returned <- i }()
	}
	waitFor(t, ds, func() bool { g := ds.groups["f"]; return g.next != nil && len(g.next.members) == writers-1 })
	select {
	case i := <-returned:
		t.Fatalf("writer %d returned before any flush finished", i)
	default:
	}
	close(release)
	for range writers {
		<-returned
	}
	if len(flushes) != 2 || len(flushes[0]) != 1 || len(flushes[1]) != writers-1 {
		sizes := []int{}
		for _, f := range flushes {
			sizes = append(sizes, len(f))
		}
		t.Errorf("flush batch sizes = %v, want [1 %d]: the late writers share one fsync", sizes, writers-1)
	}
	if len(ds.groups) != 0 {
		t.Errorf("%d groups left after every writer returned", len(ds.groups))
	}
}

// A failed fsync fails every writer of its batch, and the next batch tries again.
func TestDirSyncGroupCommitError(t *testing.T) {
	t.Parallel()
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	boom := errors.New("disk on fire")
	release := make(chan struct{})
	var mu sync.Mutex
	calls := 0
	ds := &dirSyncer{flush: func(string, []syncMember) error {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		switch n {
		case 1:
			<-release
			return nil
		case 2:
			return boom
		}
		return nil
	}}
	errs := make(chan error, 4)
	go func() { errs <- ds.sync("f", dir) }()
	waitFor(t, ds, func() bool { g := ds.groups["f"]; return g != nil && g.running })
	for range 3 {
		go func() { errs <- ds.sync("f", dir) }()
	}
	waitFor(t, ds, func() bool { g := ds.groups["f"]; return g.next != nil && len(g.next.members) == 3 })
	close(release)
	failed := 0
	for range 4 {
		if err := <-errs; errors.Is(err, boom) {
			failed++
		} else if err != nil {
			t.Errorf("err = %v", err)
		}
	}
	if failed != 3 {
		t.Errorf("%d writers saw the failed fsync, want the 3 of its batch", failed)
	}
	if err := ds.sync("f", dir); err != nil {
		t.Errorf("next sync after a failure = %v, want it tried again and fine", err)
	}
}
