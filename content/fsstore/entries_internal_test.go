package fsstore

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"cms/content"
)

// Concurrent entry creates in a collection share the fsync of its folder (group commit), and
// none returns before a folder fsync that began after its file was linked has finished.
func TestCreateEntryGroupCommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "resources", "collections"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "resources", "collections", "blog.yaml"), []byte("title: Blog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Open(context.Background(), Options{Dir: dir, Watch: WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	create := func(i int) error {
		_, err := st.CreateEntry(&content.Entry{Collection: "blog", Slug: fmt.Sprintf("post-%d", i), Data: content.NewMap(0)})
		return err
	}
	if err := create(0); err != nil { // makes the folder
		t.Fatal(err)
	}
	ds := &st.dirSync
	var (
		mu      sync.Mutex
		batches []int
		release = make(chan struct{})
		first   = true
	)
	ds.mu.Lock()
	ds.flush = func(p string, members []syncMember) error {
		mu.Lock()
		block := first
		first = false
		mu.Unlock()
		if block {
			<-release // the first flush stays under way until the others have linked their files
		}
		mu.Lock()
		batches = append(batches, len(members))
		mu.Unlock()
		return flushBatch(p, members)
	}
	ds.mu.Unlock()
	const writers = 8
	folder := st.contentPath("collections", "blog")
	returned := make(chan int, writers)
	go func() {
		if err := create(1); err != nil {
			t.Error(err)
		}
		returned <- 1
	}()
	waitFor(t, ds, func() bool { g := ds.groups[folder]; return g != nil && g.running })
	for i := 2; i <= writers; i++ {
		go func() {
			if err := create(i); err != nil {
				t.Error(err)
			}
			returned <- i
		}()
	}
	waitFor(t, ds, func() bool { g := ds.groups[folder]; return g.next != nil && len(g.next.members) == writers-1 })
	select {
	case i := <-returned:
		t.Fatalf("create %d returned before its folder was flushed", i)
	default:
	}
	close(release)
	for range writers {
		<-returned
	}
	if len(batches) != 2 || batches[0] != 1 || batches[1] != writers-1 {
		t.Errorf("folder flush batch sizes = %v, want [1 %d]: the later creates share one fsync", batches, writers-1)
	}
	for i := 0; i <= writers; i++ {
		if _, err := st.Entry("blog", fmt.Sprintf("post-%d", i)); err != nil {
			t.Errorf("post-%d: %v", i, err)
		}
	}
	if left, _ := os.ReadDir(filepath.Join(dir, "content", "collections", "blog")); len(left) != writers+1 {
		t.Errorf("%d files in the collection's folder, want %d (no temp file left)", len(left), writers+1)
	}
}

// BenchmarkCreateEntryParallel creates fsync'd entries in one collection from 16 concurrent
// writers.
func BenchmarkCreateEntryParallel(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "resources", "collections"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "resources", "collections", "blog.yaml"), []byte("title: Blog\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	st, err := Open(context.Background(), Options{Dir: dir, Watch: WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var next atomic.Int64
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			e := &content.Entry{Collection: "blog", Slug: fmt.Sprintf("post-%d", next.Add(1)), Data: content.NewMap(0), Content: "Hello.\n"}
			if _, err := st.CreateEntry(e); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
