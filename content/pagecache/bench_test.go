package pagecache

import (
	"fmt"
	"testing"
)

// BenchmarkPurgeOneEntry purges one entry's pages from a cache of 100,000 pages: each entry page
// reads its entry and the navigation; every 100th page also lists a collection (20 list pages
// per collection), so a purge drops 21 pages.
func BenchmarkPurgeOneEntry(b *testing.B) {
	c := newMemCache(b, Options{})
	const pages = 100_000
	put := func(i int) {
		rec := NewRecorder()
		rec.Entry(fmt.Sprintf("c%d", i%50), fmt.Sprintf("e%d", i))
		rec.Navigation("main")
		if i%100 == 0 {
			rec.List(fmt.Sprintf("c%d", (i/100)%50)) // 20 list pages per collection
		}
		if _, err := c.Put(fmt.Sprintf("default|/p%d", i), c.Begin(), 200, htmlHeader(), []byte("<p>short</p>"), rec); err != nil {
			b.Fatal(err)
		}
	}
	for i := range pages {
		put(i)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		n := 1 + (i*7919)%(pages-1) // not a list page: its page + its collection's 20 list pages
		if n%100 == 0 {
			n++
		}
		urls := c.Purge(Change{Kind: ChangeEntry, Collection: fmt.Sprintf("c%d", n%50), Slug: fmt.Sprintf("e%d", n)})
		b.StopTimer()
		if len(urls) == 0 {
			b.Fatalf("purged nothing")
		}
		for _, u := range urls {
			var k int
			fmt.Sscanf(u, "/p%d", &k)
			put(k)
		}
		b.StartTimer()
	}
}

// BenchmarkMemoryBound stores pages of 100,000 distinct URLs into a 16 MiB memory driver, over
// and over: it must stay within its budget and keep its index the same size as its pages.
func BenchmarkMemoryBound(b *testing.B) {
	d := NewMemory(16 << 20)
	c := newMemCache(b, Options{Driver: d})
	body := make([]byte, 2048)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	rec := NewRecorder()
	rec.Navigation("main")
	for i := 0; b.Loop(); i++ {
		key := fmt.Sprintf("default|/u%d", i%100_000)
		if _, ok := c.Get(key); ok {
			continue
		}
		p := &Page{Key: key, Body: body, Deps: []Dep{{Kind: DepNavigation, Name: "main"}}, ETag: `"x"`}
		c.mu.Lock()
		_ = d.Put(p)
		c.idx.add(key, p.Deps)
		c.mu.Unlock()
	}
	n, bytes, max := d.Stats()
	if bytes > max {
		b.Fatalf("%d bytes over a budget of %d", bytes, max)
	}
	c.mu.Lock()
	idx := len(c.idx.byKey)
	c.mu.Unlock()
	if idx != n {
		b.Fatalf("index %d keys, driver %d pages", idx, n)
	}
	b.ReportMetric(float64(n), "pages")
	b.ReportMetric(float64(bytes)/(1<<20), "MiB")
}
