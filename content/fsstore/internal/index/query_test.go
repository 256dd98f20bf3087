package index

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"cms/content"
	"cms/content/query"
)

// The index answers list queries from postings and sorted orders; these tests compare it with
// the straightforward scan it replaced: test every entry, sort the matches, cut the page.

func reference(entries []*content.Entry, coll *content.Collection, q query.Query) ([]string, int) {
	var m []*content.Entry
	for _, e := range entries {
		if (q.Status == "" || e.Status == q.Status) && query.Match(e, q.Filter) {
			m = append(m, e)
		}
	}
	keys := q.Sort
	if len(keys) == 0 {
		keys = query.DefaultOrder(coll)
	} else {
		keys = append(slices.Clone(keys), query.SortKey{Field: "slug"})
	}
	query.Sort(m, keys)
	return slugs(query.Page(m, q.Offset, q.Limit)), len(m)
}

func slugs(es []*content.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Slug
	}
	return out
}

// Values chosen for ties, case-insensitive order, mixed types, lists and missing fields. Dates of
// one field share one format: query.Compare orders dates chronologically and other strings
// lexically, which only agree (and make one total order) within a format.
var (
	titles  = []any{"apple", "Apple", "APPLE", "banana", "Banana split", "cherry", "", "zeta", "Éclair", "10 things", "2 things"}
	dates   = []any{"2020-01-01T00:00:00Z", "2020-01-01T00:00:00Z", "2021-06-15T12:30:00Z", "2019-12-31T23:59:59Z", "2024-02-29T08:00:00Z"}
	days    = []any{"2020-01-01", "2020-01-02", "2019-05-05", "soon", "Later", "2020-01-01"}
	cats    = []any{"a", "b", "c", "A", nil}
	ratings = []any{int64(3), 3.0, int64(1), 2.5, int64(-1), 0.0, "5", "3", true, false, nil}
	tagSets = [][]any{{"x"}, {"x", "y"}, {"y", "z"}, {}, {"x", int64(1)}, {[]any{"x"}}}
	authors = []string{"", "bob", "alice"}
)

func randomEntry(r *rand.Rand, slug string) *content.Entry {
	pick := func(vs []any) any { return vs[r.IntN(len(vs))] }
	e := &content.Entry{Collection: "posts", Slug: slug, Data: content.NewMap(4)}
	e.Title = pick(titles).(string)
	e.Status = content.StatusPublished
	if r.IntN(3) == 0 {
		e.Status = "draft"
	}
	e.Author = authors[r.IntN(len(authors))]
	if r.IntN(6) > 0 {
		e.CreatedAt = pick(dates).(string)
	}
	if r.IntN(6) > 0 {
		e.UpdatedAt = pick(dates).(string)
	}
	// Each custom field is missing from some entries.
	set := func(k string, v any) {
		if r.IntN(5) > 0 {
			e.Data.Set(k, v)
		}
	}
	set("category", pick(cats))
	set("featured", r.IntN(2) == 0)
	set("rating", pick(ratings))
	set("tags", tagSets[r.IntN(len(tagSets))])
	set("day", pick(days))
	set("order", int64(r.IntN(5)))
	return e
}

func testIndex(t testing.TB, r *rand.Rand, n int) (*Index, *collIndex) {
	s := New(Config{})
	ix := &collIndex{handle: "posts", entries: map[string]*indexed{}}
	for i := range n {
		slug := fmt.Sprintf("e%03d", i)
		ix.entries[slug] = &indexed{e: randomEntry(r, slug)}
	}
	return s, ix
}

func allEntries(ix *collIndex) []*content.Entry {
	var out []*content.Entry
	for _, it := range ix.entries {
		out = append(out, it.e)
	}
	return out
}

var testColls = []*content.Collection{
	{Handle: "posts", Dated: true},
	{Handle: "posts", Sortable: true},
	{Handle: "posts", SortDirection: "desc"},
	{Handle: "posts"},
}

var testFilters = []string{
	``, `{"category":"a"}`, `{"category":"A"}`, `{"category":null}`, `{"featured":true}`,
	`{"rating":3}`, `{"rating":3.0}`, `{"rating":"5"}`, `{"rating":true}`, `{"rating":-0}`, `{"tags":"x"}`,
	`{"tags":1}`, `{"tags":["x","y"]}`, `{"category":"a","featured":false}`,
	`{"category":"b","featured":true,"tags":"y"}`, `{"author":"bob"}`, `{"title":"Apple"}`,
	`{"title":""}`, `{"nope":"x"}`, `{"status":"draft"}`, `{"slug":"e007"}`, `{"createdAt":"2020-01-01T00:00:00Z"}`,
	// Operators: ranges over dates, numbers and strings (answered from orders), $in (postings),
	// and the rest tested entry by entry.
	`{"createdAt":{"$gte":"2020-01-01"}}`, `{"createdAt":{"$gt":"2020-01-01T00:00:00Z","$lt":"2024-01-01"}}`,
	`{"createdAt":{"$lte":"2020-01-01T00:00:00Z"}}`, `{"day":{"$gte":"2020-01-01","$lte":"2020-01-01"}}`,
	`{"day":{"$lt":"Later"}}`, `{"rating":{"$gt":1}}`, `{"rating":{"$gte":-1,"$lt":3}}`, `{"rating":{"$lte":2.5}}`,
	`{"rating":{"$gt":"3"}}`, `{"title":{"$gte":"b"}}`, `{"title":{"$lt":"Banana split"}}`, `{"order":{"$gte":2,"$lte":1}}`,
	`{"rating":{"$gt":1,"$lt":"z"}}`, `{"rating":{"$gt":1,"$gte":2}}`,
	`{"category":{"$in":["a","b"]}}`, `{"rating":{"$in":[3,"5",true]}}`, `{"tags":{"$in":["x"]}}`, `{"category":{"$in":[]}}`,
	`{"category":{"$in":["a",null]}}`, `{"category":{"$nin":["a","b"]}}`, `{"category":{"$ne":"a"}}`, `{"category":{"$ne":null}}`,
	`{"tags":{"$contains":"x"}}`, `{"tags":{"$contains":1}}`, `{"category":{"$exists":true}}`, `{"rating":{"$exists":false}}`,
	`{"category":"a","createdAt":{"$gte":"2020-01-01"}}`, `{"featured":true,"rating":{"$gte":1},"day":{"$lt":"2020-01-02"}}`,
	`{"rating":{"$ne":3,"$gt":0}}`, `{"createdAt":{"$gte":"2020-01-01"},"tags":{"$contains":"y"},"category":{"$in":["a","b"]}}`,
}

var testSorts = []string{
	"", "title", "-title", "createdAt", "-createdAt", "updatedAt", "-updatedAt", "rating", "-rating",
	"category", "-category", "featured", "day", "-day", "tags", "author", "slug", "-slug", "order",
	"category,-rating", "-featured,title,createdAt", "nope",
}

func TestQueryMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	_, ix := testIndex(t, r, 150)
	all := allEntries(ix)
	pages := [][2]int{{0, 0}, {0, 1}, {0, 10}, {3, 10}, {40, 100}, {149, 1}, {150, 10}, {1000, 10}, {7, 0}}
	n := 0
	for _, coll := range testColls {
		for _, status := range []string{"", content.StatusPublished, "draft"} {
			for _, f := range testFilters {
				filter, err := query.ParseFilter(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, so := range testSorts {
					keys, err := query.ParseSort(so)
					if err != nil {
						t.Fatal(err)
					}
					if ix.d != nil && len(ix.d.orders) >= maxOrders-6 {
						// So every sort and range is served by an order (ranges of the filters
						// above need at most 5 more).
						checkOrders(t, ix)
						ix.d.orders = map[string]*order{}
					}
					for _, pg := range pages {
						q := query.Query{Status: status, Filter: filter, Sort: keys, Offset: pg[0], Limit: pg[1]}
						checkQuery(t, ix, all, coll, q)
						n++
					}
				}
			}
		}
	}
	t.Logf("%d queries", n)
}

func checkQuery(t *testing.T, ix *collIndex, all []*content.Entry, coll *content.Collection, q query.Query) {
	t.Helper()
	want, wantTotal := reference(all, coll, q)
	got, total, scanned := ix.query(coll, q)
	if total != wantTotal || !slices.Equal(slugs(got), want) {
		f, _ := json.Marshal(q.Filter)
		t.Fatalf("coll %+v status %q filter %s sort %v offset %d limit %d:\n got %d %v\nwant %d %v",
			*coll, q.Status, f, q.Sort, q.Offset, q.Limit, total, slugs(got), wantTotal, want)
	}
	if got == nil {
		t.Fatalf("nil page for %+v", q)
	}
	// A query is scanned only when it has a filter that must be tested entry by entry (null, a
	// list, an operator other than a plain range or $in of values) and none the index narrows by.
	source, tested := q.Status != "", false
	for _, v := range q.Filter {
		if _, ok := valueKey(v); ok {
			source = true
			continue
		}
		c, isCond := v.(query.Cond)
		if !isCond {
			tested = true
			continue
		}
		if _, _, _, _, isRange := c.Range(); isRange {
			source = true
			continue
		}
		for _, op := range c {
			switch op.Name {
			case query.OpContains:
				source = true
			case query.OpIn:
				if !slices.Contains(op.Value.([]any), nil) {
					source = true
				}
			}
		}
		tested = true
	}
	needsScan := tested && !source
	if p, _ := makePlan(coll, q); !needsScan && ix.d.orders[p.okey] == nil {
		needsScan = len(ix.d.orders) >= maxOrders // kept orders are bounded
	}
	if scanned != needsScan {
		t.Fatalf("filter %v: scanned = %v, want %v", q.Filter, scanned, needsScan)
	}
}

// runEdits applies random creates, updates and deletes to a collection whose postings and
// orders are already built, querying between edits and comparing with the scan. fromSnapshot
// first reloads the collection through the snapshot, as a process started from it has it: its
// entries' custom fields encoded until used, its orders seeded rather than sorted.
func runEdits(t *testing.T, seed uint64, ops []byte, fromSnapshot bool) {
	r := rand.New(rand.NewPCG(seed, 7))
	s, ix := testIndex(t, r, 40)
	filters := make([]map[string]any, len(testFilters))
	for i, f := range testFilters {
		filters[i], _ = query.ParseFilter(f)
	}
	sorts := make([][]query.SortKey, 0, len(testSorts))
	for _, so := range testSorts[:12] { // within maxOrders, so every sort keeps its order
		keys, _ := query.ParseSort(so)
		sorts = append(sorts, keys)
	}
	randomQuery := func() query.Query {
		q := query.Query{Filter: filters[r.IntN(len(filters))], Sort: sorts[r.IntN(len(sorts))],
			Offset: r.IntN(50), Limit: r.IntN(12)}
		if r.IntN(3) == 0 {
			q.Status = content.StatusPublished
		}
		return q
	}
	coll := testColls[0]
	for _, keys := range sorts {
		for _, f := range filters {
			ix.query(coll, query.Query{Filter: f, Sort: keys, Limit: 1})
		}
	}
	// ref holds every entry as it was made (the reference decodes nothing of the index's).
	ref := map[string]*content.Entry{}
	for slug, it := range ix.entries {
		ref[slug] = it.e
	}
	if fromSnapshot {
		ix = reloaded(t, ix, coll)
		// Writes first, before any query decodes the entries: the orders are taken over and
		// moved among entries whose custom fields are still encoded.
		ops = append([]byte{0, 1, 1, 0, 1}, ops...)
	}
	next := 1000
	for _, op := range ops {
		slug := fmt.Sprintf("e%03d", r.IntN(45))
		ix.mu.Lock()
		switch op % 4 {
		case 0:
			slug = fmt.Sprintf("n%04d", next)
			next++
			ref[slug] = randomEntry(r, slug)
			ix.set(s, slug, &indexed{e: ref[slug]})
		case 1:
			if ix.entries[slug] != nil {
				ref[slug] = randomEntry(r, slug)
				ix.set(s, slug, &indexed{e: ref[slug]})
			}
		case 2:
			if ix.entries[slug] != nil {
				delete(ref, slug)
				ix.set(s, slug, nil)
			}
		}
		ix.mu.Unlock()
		checkQuery(t, ix, slices.Collect(maps.Values(ref)), coll, randomQuery())
	}
	if ix.d != nil {
		for _, it := range ix.entries {
			it.decode() // checkOrders reads every entry's fields
		}
		checkOrders(t, ix)
	}
}

// reloaded returns ix as a process started from its snapshot has it (snapshot.go's load): its
// entries in coll's default order with their custom fields encoded, and the orders it had.
func reloaded(t *testing.T, ix *collIndex, coll *content.Collection) *collIndex {
	t.Helper()
	okey := orderKey(query.DefaultOrder(coll))
	var items []*indexed
	for _, e := range ix.defaultOrder(coll) {
		items = append(items, ix.entries[e.Slug])
	}
	ix.mu.RLock()
	orders := ix.snapshotOrders(items, okey)
	ix.mu.RUnlock()
	if len(orders) == 0 {
		t.Fatal("no orders to keep")
	}
	raw, err := encodeSnapshot(1, []snapColl{{handle: ix.handle, order: orderSignature(coll), items: items, orders: orders}})
	if err != nil {
		t.Fatal(err)
	}
	_, colls, err := decodeSnapshot(raw)
	if err != nil {
		t.Fatal(err)
	}
	sc := colls[0]
	out := &collIndex{handle: ix.handle, entries: map[string]*indexed{}, sortedKey: okey, snapOrders: map[string][]uint32{}}
	for _, it := range sc.items {
		out.entries[it.e.Slug] = it
		out.sorted = append(out.sorted, it.e)
	}
	for _, o := range sc.orders {
		out.snapOrders[o.key] = o.pos
	}
	return out
}

// checkOrders checks that every order, those queries asked for and the reverses built with
// them, holds every entry once, in order.
func checkOrders(t *testing.T, ix *collIndex) {
	t.Helper()
	for key, o := range ix.d.orders {
		ents := make([]*content.Entry, len(o.ids))
		for i, id := range o.ids {
			ents[i] = ix.d.slots[id].e
		}
		if len(ents) != len(ix.entries) {
			t.Fatalf("order %s has %d entries, the collection %d", key, len(ents), len(ix.entries))
		}
		want := slices.Clone(ents)
		query.Sort(want, o.keys)
		if !slices.Equal(slugs(ents), slugs(want)) {
			t.Fatalf("order %s drifted:\n got %v\nwant %v", key, slugs(ents), slugs(want))
		}
	}
}

func TestQueryEditsMatchScan(t *testing.T) {
	ops := make([]byte, 600)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range ops {
		ops[i] = byte(r.IntN(256))
	}
	runEdits(t, 5, ops, false)
	runEdits(t, 6, ops, true)
}

func FuzzQueryEdits(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3, 0, 0, 1, 1, 2, 2})
	f.Add(uint64(2), []byte{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0})
	f.Fuzz(func(t *testing.T, seed uint64, ops []byte) {
		if len(ops) > 200 {
			ops = ops[:200]
		}
		runEdits(t, seed, ops, seed%2 == 0)
	})
}

// TestRangeScan checks the range scan over sorted orders (which range filters will use) against
// testing every entry with query.Compare.
func TestRangeScan(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	_, ix := testIndex(t, r, 120)
	ix.d = newDerived(ix.entries)
	bounds := []any{nil, int64(1), 2.5, "3", "Apple", "b", "2020-01-01", "2020-06-01T00:00:00Z", true, false}
	for _, field := range []string{"rating", "title", "day", "createdAt", "category", "featured"} {
		for _, desc := range []bool{false, true} {
			keys := []query.SortKey{{Field: field, Desc: desc}, {Field: "slug"}}
			o := ix.d.buildOrder(keys)
			for _, lo := range bounds {
				for _, hi := range bounds {
					var got []string
					o.rangeScan(ix.d, lo, hi, func(e *content.Entry) bool {
						got = append(got, e.Slug)
						return true
					})
					var in []*content.Entry
					for _, e := range allEntries(ix) {
						v, ok := e.Field(field)
						if !ok || v == nil || (lo != nil && query.Compare(v, lo) < 0) || (hi != nil && query.Compare(v, hi) > 0) {
							continue
						}
						in = append(in, e)
					}
					query.Sort(in, keys)
					if want := slugs(in); !slices.Equal(got, want) {
						t.Fatalf("%s desc=%v [%v, %v]:\n got %v\nwant %v", field, desc, lo, hi, got, want)
					}
				}
			}
		}
	}
}

// TestQueryConcurrentEdits runs queries while entries change (for -race): queries build orders
// and postings under the read lock's upgrade while edits maintain them.
func TestQueryConcurrentEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	s, ix := testIndex(t, r, 60)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := rand.New(rand.NewPCG(13, 14))
		for i := range 300 {
			slug := fmt.Sprintf("e%03d", r.IntN(70))
			it := &indexed{e: randomEntry(r, slug)}
			if i%5 == 0 {
				it = nil
			}
			ix.mu.Lock()
			ix.set(s, slug, it)
			ix.mu.Unlock()
		}
	}()
	filter, _ := query.ParseFilter(`{"category":"a"}`)
	for i := 0; ; i++ {
		select {
		case <-done:
			return
		default:
		}
		keys, _ := query.ParseSort(testSorts[i%8])
		out, total, _ := ix.query(testColls[0], query.Query{Filter: filter, Sort: keys, Limit: 5})
		if len(out) > total || len(out) > 5 {
			t.Fatalf("page of %d of %d", len(out), total)
		}
	}
}

// TestDefaultOrderFromQueries checks that the snapshot's default order, taken from the order
// queries keep up to date, matches a sort after edits.
func TestDefaultOrderFromQueries(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	s, ix := testIndex(t, r, 50)
	for _, coll := range testColls {
		ix.query(coll, query.Query{Limit: 1})
		ix.mu.Lock()
		ix.set(s, "e007", &indexed{e: randomEntry(r, "e007")})
		ix.set(s, "e100", &indexed{e: randomEntry(r, "e100")})
		ix.set(s, "e003", nil)
		ix.mu.Unlock()
		got := ix.defaultOrder(coll)
		want := allEntries(ix)
		query.Sort(want, query.DefaultOrder(coll))
		if !slices.Equal(slugs(got), slugs(want)) {
			t.Fatalf("%+v: default order\n got %v\nwant %v", *coll, slugs(got), slugs(want))
		}
	}
}

// TestReverseOrderComesWithSort: sorting by a field builds the order of the other direction
// too, so the first query sorting the other way finds it ready (and it is right).
func TestReverseOrderComesWithSort(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	_, ix := testIndex(t, r, 80)
	all := allEntries(ix)
	coll := testColls[0]
	for _, so := range []string{"rating", "-title", "day"} {
		keys, _ := query.ParseSort(so)
		checkQuery(t, ix, all, coll, query.Query{Sort: keys, Limit: 5})
		flipped := slices.Clone(keys)
		flipped[0].Desc = !flipped[0].Desc
		p, _ := makePlan(coll, query.Query{Sort: flipped})
		ix.mu.RLock()
		ready := ix.ready(&p)
		ix.mu.RUnlock()
		if !ready {
			t.Fatalf("after sorting by %q the order %s is not built", so, p.okey)
		}
		checkQuery(t, ix, all, coll, query.Query{Sort: flipped, Offset: 3, Limit: 20})
	}
	checkOrders(t, ix)
}

// TestBothDirectionsAtOnce: queries sorting one field both ways arrive together on a collection
// with no orders yet; the one sort that builds both serves them all (for -race: waiters on the
// reverse wait for that sort).
func TestBothDirectionsAtOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	_, ix := testIndex(t, r, 200)
	all := allEntries(ix)
	coll := testColls[0]
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			so := []string{"rating", "-rating", "title", "-title"}[i%4]
			keys, _ := query.ParseSort(so)
			q := query.Query{Sort: keys, Offset: i, Limit: 7}
			want, wantTotal := reference(all, coll, q)
			got, total, _ := ix.query(coll, q)
			if total != wantTotal || !slices.Equal(slugs(got), want) {
				errs <- fmt.Sprintf("sort %s offset %d: got %v, want %v", so, i, slugs(got), want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	checkOrders(t, ix)
}
