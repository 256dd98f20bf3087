package index

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content/entryfile"
	"cms/content/frontmatter"
	"cms/content/search"
	"cms/content/sitegen"
)

// The search figures of issue 12: 100,000 generated posts of about 2 KB each (sitegen's, as
// `make bench` serves them: a vocabulary of ~400 words, so every word is in a large share of the
// posts, which is the hard case for a search). Building the corpus takes a while; it is built
// once per process.
//
//	go test -run XXX -bench 'Search100k|SearchSnapshotLoad100k' -benchtime 5x ./content/fsstore/internal/index/

var (
	search100kOnce sync.Once
	search100k     *collIndex
	searchWords    []string // words of the bodies, for queries
	search100kHeap uint64   // heap growth of building the search index
)

func searchCorpus(tb testing.TB) *collIndex {
	search100kOnce.Do(func() {
		const n = 100_000
		opts := sitegen.Options{BodyBytes: 2048}
		ix := &collIndex{handle: "posts", entries: make(map[string]*indexed, n)}
		texts := make([]string, n)
		var wg sync.WaitGroup
		var mu sync.Mutex
		workers := runtime.GOMAXPROCS(0)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < n; i += workers {
					raw := sitegen.EntryFile(i, opts)
					e, err := entryfile.ParseMeta("posts", sitegen.Slug(i, opts), raw)
					if err != nil {
						panic(err)
					}
					_, body, _, _ := frontmatter.Split(raw)
					texts[i] = search.PlainText(string(body))
					mu.Lock()
					ix.entries[e.Slug] = &indexed{e: e}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		si := search.New()
		for i := range n {
			e := ix.entries[sitegen.Slug(i, opts)].e
			si.Add(e.Slug, e.Version, e.Title, texts[i], e.Published())
		}
		runtime.GC()
		runtime.ReadMemStats(&after) // texts still held, so the growth is the index's
		search100kHeap = after.HeapAlloc - before.HeapAlloc
		searchWords = strings.Fields(texts[0] + " " + texts[1])
		ix.search = si
		search100k = ix
	})
	return search100k
}

// BenchmarkSearch100k runs 500 one- to three-word public searches per iteration (the last word a
// prefix in a third of them), ten hits a page, and reports the latency percentiles of single
// searches and the index's memory (estimated, and measured as heap growth while building).
func BenchmarkSearch100k(b *testing.B) {
	ix := searchCorpus(b)
	r := rand.New(rand.NewPCG(1, 2))
	var qs []string
	for range 500 {
		n := 1 + r.IntN(3)
		i := r.IntN(len(searchWords) - n)
		ws := slices.Clone(searchWords[i : i+n])
		q := strings.Join(ws, " ")
		if r.IntN(3) == 0 && len(ws[n-1]) > 3 {
			q = q[:len(q)-len(ws[n-1])+3] // a prefix of the last word
		}
		qs = append(qs, strings.ToLower(strings.Trim(q, ".,")))
	}
	var lat, cpu []time.Duration
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	for b.Loop() {
		for _, q := range qs {
			start, c0 := time.Now(), threadCPU()
			ix.mu.RLock()
			ix.search.Search(search.Query{Text: q, PublicOnly: true, Limit: 10})
			ix.mu.RUnlock()
			lat = append(lat, time.Since(start))
			cpu = append(cpu, threadCPU()-c0)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	slices.Sort(cpu)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	// CPU time of the searching thread: what the search costs without the waits for a core.
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds()), "p50-cpu-µs")
	b.ReportMetric(float64(cpu[len(cpu)*99/100].Microseconds()), "p99-cpu-µs")
	b.ReportMetric(float64(ix.search.MemoryBytes())/(1<<20), "index-MiB")
	b.ReportMetric(float64(search100kHeap)/(1<<20), "heap-MiB")
}

// BenchmarkSearchSnapshotLoad100k is the first search's extra cost in a process started from the
// snapshot: reading .cms/search.snapshot and decoding the collection's full-text index. (Start-up
// itself does not read that file, so it is as fast as before.)
func BenchmarkSearchSnapshotLoad100k(b *testing.B) {
	ix := searchCorpus(b)
	enc := ix.search.Encode(nil)
	raw := binary.AppendUvarint(make([]byte, snapHeaderSize), 1)
	raw = binary.AppendUvarint(raw, uint64(len("posts")))
	raw = append(raw, "posts"...)
	raw = binary.AppendUvarint(raw, uint64(len(enc)))
	raw = append(raw, enc...)
	payload := raw[snapHeaderSize:]
	copy(raw, searchMagic)
	binary.LittleEndian.PutUint32(raw[8:], searchVersion)
	binary.LittleEndian.PutUint32(raw[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(raw[24:], uint64(len(payload)))
	p := filepath.Join(b.TempDir(), "search.snapshot")
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(raw))/(1<<20), "file-MiB")
	for b.Loop() {
		raw, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		secs, err := decodeSearchSnapshot(raw)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := search.Decode(secs["posts"]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(raw))/(1<<20), "file-MiB")
}
