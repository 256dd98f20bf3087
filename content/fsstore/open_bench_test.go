package fsstore_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"cms/content/fsstore"
	"cms/content/sitegen"
)

// BenchmarkOpen measures a cold start on a generated site: opening the store and indexing every
// entry from the files (files), and from the index snapshot a first run left (snapshot).
// The store watches, as a server does, so the snapshot is written at Close, outside the timing.
// Run with -benchtime=Nx; each size generates its site once.
func BenchmarkOpen10k(b *testing.B)  { benchOpen(b, 10000) }
func BenchmarkOpen100k(b *testing.B) { benchOpen(b, 100000) }

func benchOpen(b *testing.B, n int) {
	site := filepath.Join(b.TempDir(), "site-"+strconv.Itoa(n))
	if err := sitegen.Generate(site, n, sitegen.Options{}); err != nil {
		b.Fatal(err)
	}
	open := func(b *testing.B) *fsstore.Store {
		st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: site, Snapshot: true, NoSync: true, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			b.Fatal(err)
		}
		return st
	}
	b.Run("files", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			if err := os.RemoveAll(filepath.Join(site, ".cms")); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			st := open(b)
			b.StopTimer()
			st.Close()
			b.StartTimer()
		}
	})
	b.Run("snapshot", func(b *testing.B) {
		open(b).Close() // leaves a snapshot
		for b.Loop() {
			st := open(b)
			b.StopTimer()
			st.Close()
			b.StartTimer()
		}
	})
}
