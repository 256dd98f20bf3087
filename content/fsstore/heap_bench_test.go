package fsstore_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"cms/content/fsstore"
	"cms/content/query"
	"cms/content/sitegen"
)

// BenchmarkIndexHeap reports the heap objects and bytes the entry index of a generated site of
// 10,000 entries keeps (after a query built what queries build lazily): every garbage
// collection marks all of them, so they set the cost of collecting under load. Built from the
// files (files) and from the index snapshot (snapshot). Run with -benchtime=1x.
func BenchmarkIndexHeap(b *testing.B) {
	const n = 10000
	site := filepath.Join(b.TempDir(), "site")
	if err := sitegen.Generate(site, n, sitegen.Options{}); err != nil {
		b.Fatal(err)
	}
	measure := func(b *testing.B) {
		for b.Loop() {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: site, Snapshot: true, NoSync: true, Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			q := query.Query{Status: "published", Filter: map[string]any{"category": "releases"}, Sort: []query.SortKey{{Field: "rating"}}, Limit: 10}
			if _, _, err := st.Entries("posts", q); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(int64(after.HeapObjects)-int64(before.HeapObjects))/n, "objects/entry")
			b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, "bytes/entry")
			runtime.KeepAlive(st)
			st.Close()
		}
	}
	b.Run("files", func(b *testing.B) {
		if err := os.RemoveAll(filepath.Join(site, ".cms")); err != nil {
			b.Fatal(err)
		}
		measure(b)
	})
	b.Run("snapshot", measure) // files left the snapshot at Close
}
