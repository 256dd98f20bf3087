package fsstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"cms/content/contenttest"
	"cms/content/fsstore"
)

// A cold start reports how many entry files it has read through the context's progress
// callback, every fsstore.ProgressEvery files across collections.
func TestIndexProgress(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/a.yaml --
title: A
-- resources/collections/b.yaml --
title: B
`)
	n := fsstore.ProgressEvery + fsstore.ProgressEvery/2
	for i := range n {
		c := "a"
		if i%3 == 0 {
			c = "b"
		}
		p := filepath.Join(dir, "content", "collections", c, fmt.Sprintf("e%d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\ntitle: E\n---\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var got []int
	ctx := fsstore.WithProgress(context.Background(), func(indexed int) {
		mu.Lock()
		got = append(got, indexed)
		mu.Unlock()
	})
	st, err := fsstore.Open(ctx, fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if want := []int{fsstore.ProgressEvery}; !slices.Equal(got, want) {
		t.Errorf("progress reports = %v, want %v", got, want)
	}
}
