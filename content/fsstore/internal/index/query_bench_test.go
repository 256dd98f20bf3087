package index

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/entryfile"
	"cms/content/query"
	"cms/content/sitegen"
)

// benchColl returns a collection index of n generated posts (as `make bench` serves them),
// built once per size and shared by the benchmarks.
func benchColl(tb testing.TB, n int) *collIndex {
	benchMu.Lock()
	defer benchMu.Unlock()
	if ix := benchColls[n]; ix != nil {
		return ix
	}
	opts := sitegen.Options{BodyBytes: 1}
	ix := &collIndex{handle: "posts", entries: make(map[string]*indexed, n)}
	for i := range n {
		slug := sitegen.Slug(i, opts)
		e, err := entryfile.ParseMeta("posts", slug, sitegen.EntryFile(i, opts))
		if err != nil {
			tb.Fatal(err)
		}
		ix.entries[slug] = &indexed{e: e}
	}
	benchColls[n] = ix
	return ix
}

var (
	benchMu    sync.Mutex
	benchColls = map[int]*collIndex{}
)

var benchPosts = &content.Collection{Handle: "posts", Dated: true}

// BenchmarkQueryUncached runs the queries of the bench's list-uncached scenario (category ×
// featured × sort × offset 0..99, ten entries a page, published only) in turn.
func BenchmarkQueryUncached(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ix := benchColl(b, n)
			qs := benchQueries()
			for _, q := range qs {
				ix.query(benchPosts, q) // build what is built lazily
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				ix.query(benchPosts, qs[(i*7919)%len(qs)])
			}
		})
	}
}

func benchQueries() []query.Query {
	var qs []query.Query
	for _, c := range sitegen.Categories() {
		for _, f := range []any{nil, true, false} {
			for _, s := range []string{"-rating", "rating", "title", "-title", "-createdAt", "createdAt"} {
				for off := range 100 {
					filter := map[string]any{"category": c}
					if f != nil {
						filter["featured"] = f
					}
					keys, _ := query.ParseSort(s)
					qs = append(qs, query.Query{Status: content.StatusPublished, Filter: filter, Sort: keys, Offset: off, Limit: 10})
				}
			}
		}
	}
	return qs
}

// BenchmarkQueryEdit measures what a write costs the query structures of a 100,000-entry
// collection with the bench's orders and postings built: the entry leaves and re-enters each.
func BenchmarkQueryEdit(b *testing.B) {
	ix := benchColl(b, 100_000)
	for _, q := range benchQueries() {
		ix.query(benchPosts, q)
	}
	s := New(Config{})
	opts := sitegen.Options{BodyBytes: 1}
	// Entry i takes the values of entry i+1 (so it moves in every order), parsed beforehand.
	repl := make([]*content.Entry, 1000)
	for i := range repl {
		n := i * 97
		e, err := entryfile.ParseMeta("posts", sitegen.Slug(n, opts), sitegen.EntryFile(n+1, opts))
		if err != nil {
			b.Fatal(err)
		}
		e.Slug = sitegen.Slug(n, opts)
		repl[i] = e
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e := repl[i%len(repl)]
		if i >= len(repl) { // alternate between the two versions
			e = ix.entries[e.Slug].e
			cp := *e
			e = &cp
		}
		ix.mu.Lock()
		ix.set(s, e.Slug, &indexed{e: e})
		ix.mu.Unlock()
	}
}

// BenchmarkRangeFilter100k answers a date range over 100,000 posts from the sorted order of
// createdAt (published only, ten a page), with bounds that move every query so no two are
// alike: one month of eleven years (~750 posts), one year (~9,000), and everything after a date
// (a tail of varying size). Sorted by date (the range's own order) and by rating (another).
//
//	go test -run XXX -bench RangeFilter100k -benchtime 2000x ./content/fsstore/internal/index/
func BenchmarkRangeFilter100k(b *testing.B) {
	ix := benchColl(b, 100_000)
	base := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	day := func(i int) string { return base.AddDate(0, 0, i%4000).Format("2006-01-02") }
	for _, width := range []struct {
		name string
		days int // 0 = open-ended
	}{{"month", 30}, {"year", 365}, {"after", 0}} {
		for _, sort := range []string{"-createdAt", "-rating"} {
			b.Run(width.name+"/sort="+sort, func(b *testing.B) {
				keys, _ := query.ParseSort(sort)
				q := func(i int) query.Query {
					c := query.Cond{{Name: query.OpGte, Value: day(i * 37)}}
					if width.days > 0 {
						c = append(c, query.Op{Name: query.OpLt, Value: day(i*37 + width.days)})
					}
					return query.Query{Status: content.StatusPublished, Filter: map[string]any{"createdAt": c}, Sort: keys, Limit: 10}
				}
				ix.query(benchPosts, q(0)) // builds the orders and postings once
				total := 0
				for i := 0; b.Loop(); i++ {
					_, n, scanned := ix.query(benchPosts, q(i))
					if scanned {
						b.Fatal("scanned")
					}
					total += n
				}
				b.ReportMetric(float64(total)/float64(b.N), "matches/op")
			})
		}
	}
}

// BenchmarkBuildOrder100k sorts 100,000 posts by the bench's sort keys, as the first query of
// each sort does (then writes keep the order up to date).
func BenchmarkBuildOrder100k(b *testing.B) {
	ix := benchColl(b, 100_000)
	d := newDerived(ix.entries)
	for _, so := range []string{"-rating", "title", "-createdAt"} {
		keys, _ := query.ParseSort(so)
		keys = append(keys, query.SortKey{Field: "slug"})
		b.Run("sort="+so, func(b *testing.B) {
			c0 := processCPU()
			for b.Loop() {
				d.buildOrder(keys)
			}
			b.ReportMetric(float64(processCPU()-c0)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}
