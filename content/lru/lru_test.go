package lru_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"cms/content/lru"
)

type op struct {
	do   string // "put", "get", "del"
	key  string
	cost int64
}

// Each case runs its operations on a fresh cache of 1000 bytes and names the keys left, and for
// every get whether it hit.
func TestCache(t *testing.T) {
	t.Parallel()
	const budget = 1000
	c := func(cost int64) int64 { return cost - lru.Overhead } // a value costing this in all
	tests := []struct {
		name     string
		ops      []op
		wantKeys []string
		wantHits []bool
	}{
		{"a value put is got", []op{{"put", "a", c(100)}, {"get", "a", 0}, {"get", "b", 0}}, []string{"a"}, []bool{true, false}},
		{"the least recently put goes first", []op{{"put", "a", c(240)}, {"put", "b", c(240)}, {"put", "c", c(240)}, {"put", "d", c(240)}, {"put", "e", c(240)}},
			[]string{"b", "c", "d", "e"}, nil},
		{"a get makes a value recent", []op{{"put", "a", c(240)}, {"put", "b", c(240)}, {"put", "c", c(240)}, {"put", "d", c(240)}, {"get", "a", 0}, {"put", "e", c(240)}},
			[]string{"a", "c", "d", "e"}, []bool{true}},
		{"a value evicts as many as it needs", []op{{"put", "a", c(100)}, {"put", "b", c(100)}, {"put", "c", c(250)}, {"put", "d", c(250)}, {"put", "e", c(250)}, {"put", "f", c(200)}},
			[]string{"c", "d", "e", "f"}, nil},
		{"replacing a value counts it once", []op{{"put", "a", c(250)}, {"put", "a", c(250)}, {"put", "a", c(250)}, {"put", "b", c(250)}, {"put", "c", c(250)}, {"put", "d", c(250)}},
			[]string{"a", "b", "c", "d"}, nil},
		{"more than a quarter of the budget is not kept", []op{{"put", "a", c(100)}, {"put", "big", c(251)}, {"get", "big", 0}}, []string{"a"}, []bool{false}},
		{"nor is its older value", []op{{"put", "a", c(100)}, {"put", "a", c(251)}, {"get", "a", 0}}, nil, []bool{false}},
		{"exactly a quarter is kept", []op{{"put", "a", c(250)}, {"get", "a", 0}}, []string{"a"}, []bool{true}},
		{"delete", []op{{"put", "a", c(100)}, {"put", "b", c(100)}, {"del", "a", 0}, {"get", "a", 0}, {"del", "zz", 0}}, []string{"b"}, []bool{false}},
		{"a negative cost counts as none", []op{{"put", "a", -5000}, {"get", "a", 0}}, []string{"a"}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cache := lru.New[string, int](budget)
			var hits []bool
			for i, o := range tt.ops {
				switch o.do {
				case "put":
					cache.Put(o.key, i, o.cost)
				case "get":
					_, ok := cache.Get(o.key)
					hits = append(hits, ok)
				case "del":
					cache.Delete(o.key)
				}
			}
			if !slices.Equal(hits, tt.wantHits) {
				t.Errorf("hits = %v, want %v", hits, tt.wantHits)
			}
			var keys []string
			for _, k := range []string{"a", "b", "c", "d", "e", "f", "big"} {
				if _, ok := cache.Get(k); ok {
					keys = append(keys, k)
				}
			}
			if !slices.Equal(keys, tt.wantKeys) || cache.Len() != len(tt.wantKeys) {
				t.Errorf("keys = %v (Len %d), want %v", keys, cache.Len(), tt.wantKeys)
			}
			if cache.Bytes() > budget {
				t.Errorf("Bytes = %d, over the budget", cache.Bytes())
			}
		})
	}
}

func TestDisabled(t *testing.T) {
	t.Parallel()
	for _, budget := range []int64{0, -1} {
		c := lru.New[string, string](budget)
		c.Put("a", "x", 1)
		if _, ok := c.Get("a"); ok || c.Enabled() || c.Len() != 0 || c.Bytes() != 0 {
			t.Errorf("a cache of %d bytes kept something", budget)
		}
		c.Delete("a")
	}
}

// Whatever the operations, the cache stays within its budget, counts its bytes right and
// returns the last value put under a key it still holds.
func TestRandomOperations(t *testing.T) {
	t.Parallel()
	const budget = 10_000
	c := lru.New[int, int](budget)
	rng := rand.New(rand.NewPCG(1, 2))
	last := map[int]int{}
	costs := map[int]int64{}
	for i := range 20_000 {
		k := rng.IntN(200)
		switch rng.IntN(3) {
		case 0, 1:
			cost := rng.Int64N(budget / 3)
			c.Put(k, i, cost)
			last[k], costs[k] = i, cost+lru.Overhead
		case 2:
			c.Delete(k)
		}
		if c.Bytes() > budget {
			t.Fatalf("after %d operations: %d bytes, over the budget", i, c.Bytes())
		}
	}
	var sum int64
	for k := range 200 {
		if v, ok := c.Get(k); ok {
			if v != last[k] {
				t.Errorf("key %d = %d, want the last put, %d", k, v, last[k])
			}
			sum += costs[k]
		}
	}
	if sum != c.Bytes() {
		t.Errorf("Bytes = %d, the values held cost %d", c.Bytes(), sum)
	}
}

// Run with -race: the cache is shared by every request.
func TestConcurrent(t *testing.T) {
	t.Parallel()
	c := lru.New[string, int](4096)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				k := fmt.Sprint((g*7 + i) % 50)
				c.Put(k, i, int64(i%100))
				c.Get(k)
				if i%10 == 0 {
					c.Delete(k)
				}
			}
		})
	}
	wg.Wait()
	if c.Bytes() > 4096 {
		t.Errorf("Bytes = %d, over the budget", c.Bytes())
	}
}

// Stats count every lookup once: a hit, a miss, or a stale value (a miss, and dropped).
func TestStats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		do   func(c *lru.Cache[string, int])
		want lru.Stats
	}{
		{"empty", func(c *lru.Cache[string, int]) {}, lru.Stats{MaxBytes: 1000}},
		{"hits and misses", func(c *lru.Cache[string, int]) {
			c.Put("a", 1, 36)
			c.Get("a")
			c.Get("a")
			c.Get("b")
		}, lru.Stats{Entries: 1, Bytes: 100, MaxBytes: 1000, Hits: 2, Misses: 1}},
		{"a stale value is a miss and is dropped", func(c *lru.Cache[string, int]) {
			c.Put("a", 1, 36)
			c.Put("b", 2, 36)
			c.GetValid("a", func(v int) bool { return v == 2 })
			c.GetValid("b", func(v int) bool { return v == 2 })
		}, lru.Stats{Entries: 1, Bytes: 100, MaxBytes: 1000, Hits: 1, Misses: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := lru.New[string, int](1000)
			tt.do(c)
			if got := c.Stats(); got != tt.want {
				t.Errorf("Stats() = %+v, want %+v", got, tt.want)
			}
		})
	}
	if r := (lru.Stats{Hits: 3, Misses: 1}).HitRatio(); r != 0.75 {
		t.Errorf("HitRatio = %v, want 0.75", r)
	}
	if got := lru.New[string, int](0).Stats(); got != (lru.Stats{}) {
		t.Errorf("a disabled cache reports %+v", got)
	}
}

// A registry reports its caches by name, sorted, summing caches that share one.
func TestRegistry(t *testing.T) {
	t.Parallel()
	var r lru.Registry
	a, b, b2 := lru.New[string, int](1000), lru.New[string, int](500), lru.New[string, int](500)
	r.Register("b", b)
	r.Register("a", a)
	r.Register("b", b2)
	a.Get("x")
	b.Put("x", 1, 36)
	b2.Get("y")
	got := r.Stats()
	want := []lru.Named{
		{Name: "a", Stats: lru.Stats{MaxBytes: 1000, Misses: 1}},
		{Name: "b", Stats: lru.Stats{Entries: 1, Bytes: 100, MaxBytes: 1000, Misses: 1}},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
	var nilReg *lru.Registry
	nilReg.Register("a", a)
	if nilReg.Stats() != nil {
		t.Error("a nil registry reports caches")
	}
}

// A cache that can shrink its values shrinks the least recently used one before it drops any,
// and drops one only when every value it holds is shrunk (or cannot be): then the least
// recently used of them.
func TestShrink(t *testing.T) {
	t.Parallel()
	type val struct {
		cost  int64
		small bool
	}
	halve := func(v val) (val, int64, bool) {
		if v.cost < 0 { // cannot shrink
			return v, 0, false
		}
		return val{cost: v.cost / 2, small: true}, v.cost / 2, true
	}
	const budget = 1000
	c := lru.New[string, val](budget)
	c.SetShrink(halve)
	put := func(k string) { c.Put(k, val{cost: 186}, 186) } // 250 with the overhead
	check := func(when string, want map[string]bool) {      // key -> shrunk; absent keys: dropped
		t.Helper()
		for _, k := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			v, ok := c.Get(k)
			small, kept := want[k]
			if ok != kept || ok && v.small != small {
				t.Errorf("%s, %s: kept %v, small %v; want kept %v, small %v", when, k, ok, v.small, kept, small)
			}
		}
		if c.Bytes() > budget {
			t.Errorf("%s: %d bytes held, budget %d", when, c.Bytes(), budget)
		}
	}
	// Five values of 250 in 1000 bytes: the three put first shrink (to 93 + 64) and stay.
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		put(k)
	}
	if c.Len() != 5 || c.Bytes() != 2*250+3*157 {
		t.Fatalf("after five puts: %d values, %d bytes; want 5 and %d", c.Len(), c.Bytes(), 2*250+3*157)
	}
	check("after five puts", map[string]bool{"a": true, "b": true, "c": true, "d": false, "e": false})
	if n := c.Stats().Shrunk; n != 3 {
		t.Errorf("after five puts, Stats().Shrunk = %d, want 3", n)
	}
	// The check read a to e in turn. A sixth value shrinks d, e and itself rather than drop a
	// shrunk value: six kept, all small.
	put("f")
	check("after f", map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true, "f": true})
	// Now every value is small: a seventh drops the least recently used, a.
	put("g")
	check("after g", map[string]bool{"b": true, "c": true, "d": true, "e": true, "f": true, "g": true})
	if n := c.Stats().Shrunk; n != 6 {
		t.Errorf("after g, Stats().Shrunk = %d, want 6 (a, shrunk, dropped)", n)
	}

	// A value that cannot shrink goes, once the others are shrunk, as the least recently used.
	d := lru.New[string, val](budget)
	d.SetShrink(halve)
	for _, k := range []string{"x", "y", "z", "w", "v"} {
		d.Put(k, val{cost: -1}, 186)
	}
	if _, ok := d.Get("x"); ok || d.Len() != 4 {
		t.Errorf("a value that cannot shrink: x kept %v, %d values; want dropped, 4", ok, d.Len())
	}
}

// In a pool, a cache above its own budget shrinks its values before it loses any.
func TestShrinkInPool(t *testing.T) {
	t.Parallel()
	p := lru.NewPool()
	a := lru.New[int, []byte](1000)
	b := lru.New[int, []byte](1000)
	a.JoinPool(p)
	b.JoinPool(p)
	a.SetShrink(func(v []byte) ([]byte, int64, bool) { return v[:len(v)/2], int64(len(v) / 2), true })
	for i := range 8 { // 8 × 250: a borrows what b leaves unused
		a.Put(i, make([]byte, 186), 186)
	}
	for i := range 3 { // b claims its own; a shrinks all eight (saving 93 each), then drops one
		b.Put(i, make([]byte, 186), 186)
	}
	if a.Len() != 7 || b.Len() != 3 {
		t.Errorf("a holds %d values, b %d; want 7 (5 if a could not shrink) and 3", a.Len(), b.Len())
	}
	if _, ok := a.Get(0); ok {
		t.Error("a kept its first value, shrunk and then the least recently used")
	}
	if p.Bytes() > p.MaxBytes() {
		t.Errorf("pool holds %d of %d", p.Bytes(), p.MaxBytes())
	}
}
