package lru_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"cms/content/lru"
)

// fill puts n values of cost each (Overhead included) under keys prefix0..prefix(n-1).
func fill(c *lru.Cache[string, int], prefix string, n int, cost int64) {
	for i := range n {
		c.Put(fmt.Sprint(prefix, i), i, cost-lru.Overhead)
	}
}

func held(c *lru.Cache[string, int], prefix string, n int) int {
	k := 0
	for i := range n {
		if _, ok := c.Get(fmt.Sprint(prefix, i)); ok {
			k++
		}
	}
	return k
}

// A cache in a pool fills the room the others leave unused; when they need their budgets
// back, it gives back its least recently used values, and the pool never holds more than the
// sum of the budgets.
func TestPoolLends(t *testing.T) {
	t.Parallel()
	p := lru.NewPool()
	a, b := lru.New[string, int](1000), lru.New[string, int](1000)
	a.JoinPool(p)
	b.JoinPool(p)
	if p.MaxBytes() != 2000 {
		t.Fatalf("pool total %d, want 2000", p.MaxBytes())
	}
	// b is idle: a holds its 20 values of 100 bytes, twice its own budget.
	fill(a, "a", 20, 100)
	if a.Bytes() != 2000 || held(a, "a", 20) != 20 || p.Bytes() != 2000 {
		t.Fatalf("a holds %d bytes, %d values; pool %d", a.Bytes(), held(a, "a", 20), p.Bytes())
	}
	// A 21st value evicts a's least recently used (a0, not read since a1..a19 were).
	a.Get("a0")
	a.Put("a20", 20, 100-lru.Overhead)
	if _, ok := a.Get("a1"); ok || a.Bytes() != 2000 {
		t.Errorf("a over the pool's total: %d bytes, a1 kept", a.Bytes())
	}
	// b takes its budget back, value by value, from a's least recently used.
	fill(b, "b", 10, 100)
	if b.Bytes() != 1000 || held(b, "b", 10) != 10 || a.Bytes() != 1000 || p.Bytes() != 2000 {
		t.Errorf("after b filled its budget: a %d, b %d, pool %d bytes", a.Bytes(), b.Bytes(), p.Bytes())
	}
	// Within their budgets, neither evicts the other: more b evicts b's own values.
	fill(b, "c", 5, 100)
	if a.Bytes() != 1000 || b.Bytes() != 1000 || held(b, "c", 5) != 5 {
		t.Errorf("b beyond its budget with a full pool: a %d, b %d bytes", a.Bytes(), b.Bytes())
	}
	// The stats count each cache's own bytes and budget.
	if st := a.Stats(); st.Bytes != 1000 || st.MaxBytes != 1000 {
		t.Errorf("a stats %+v", st)
	}
}

// When the pool is full, what goes is the least recently used value among the caches above
// their own budgets, whichever cache it is in: the values clients read stay.
func TestPoolEvictsLeastRecentlyUsedAcrossCaches(t *testing.T) {
	t.Parallel()
	p := lru.NewPool()
	a, b, c := lru.New[string, int](1000), lru.New[string, int](1000), lru.New[string, int](1000)
	for _, x := range []*lru.Cache[string, int]{a, b, c} {
		x.JoinPool(p)
	}
	fill(a, "a", 15, 100)
	fill(b, "b", 15, 100)       // the pool is full: a and b each hold half again their budgets
	if held(a, "a", 15) != 15 { // and a's values are the recently read ones
		t.Fatal("a lost values before the pool was full")
	}
	fill(c, "c", 5, 100) // c, within its budget, takes room back from b's unread values
	if held(a, "a", 15) != 15 || held(b, "b", 15) != 10 || held(c, "c", 5) != 5 {
		t.Errorf("a holds %d of 15, b %d of 15 (want 10), c %d of 5", held(a, "a", 15), held(b, "b", 15), held(c, "c", 5))
	}
	if _, ok := b.Get("b0"); ok {
		t.Error("b's oldest value stayed")
	}
	// b, above its budget, adding a value makes room from the least recently used overall:
	// b's own values once a's were read after them.
	held(a, "a", 15)
	b.Put("new", 1, 100-lru.Overhead)
	if held(a, "a", 15) != 15 || p.Bytes() != p.MaxBytes() {
		t.Errorf("a holds %d of 15, pool %d of %d", held(a, "a", 15), p.Bytes(), p.MaxBytes())
	}
}

// A cache borrows at most its own budget again, however much room the pool has: a run of
// values never read again cannot take over the pool.
func TestPoolBorrowsAtMostTheOwnBudget(t *testing.T) {
	t.Parallel()
	p := lru.NewPool()
	small, big := lru.New[string, int](1000), lru.New[string, int](8000)
	small.JoinPool(p)
	big.JoinPool(p)
	fill(small, "s", 50, 100)
	if small.Bytes() != 2000 || p.Bytes() != 2000 {
		t.Errorf("small holds %d bytes (pool %d), want twice its budget, 2000", small.Bytes(), p.Bytes())
	}
	if held(small, "s", 50) != 20 {
		t.Errorf("small holds %d values, want its 20 most recent", held(small, "s", 50))
	}
}

// Values dropped or replaced give their room back to the pool; a cache joins once.
func TestPoolAccounting(t *testing.T) {
	t.Parallel()
	p := lru.NewPool()
	a := lru.New[string, int](1000)
	a.Put("x", 1, 100-lru.Overhead) // before joining: counted when it joins
	a.JoinPool(p)
	a.JoinPool(p)
	lru.New[string, int](0).JoinPool(p) // a disabled cache adds nothing
	if p.MaxBytes() != 1000 || p.Bytes() != 100 {
		t.Fatalf("pool %d of %d bytes, want 100 of 1000", p.Bytes(), p.MaxBytes())
	}
	a.Put("x", 2, 200-lru.Overhead)
	a.Put("y", 3, 100-lru.Overhead)
	a.Delete("y")
	a.GetValid("x", func(int) bool { return false })
	if p.Bytes() != 0 || a.Bytes() != 0 {
		t.Errorf("after delete and a stale read: pool %d, cache %d bytes", p.Bytes(), a.Bytes())
	}
}

// Run with -race: caches of a pool are used by requests at once. Whatever the interleaving,
// the pool ends within its total, its count is the sum of its caches', and every cache within
// its own budget or the pool's room.
func TestPoolConcurrent(t *testing.T) {
	t.Parallel()
	p := lru.NewPool()
	caches := []*lru.Cache[string, int]{lru.New[string, int](4000), lru.New[string, int](2000), lru.New[string, int](1000)}
	reg := &lru.Registry{Pool: p}
	for i, c := range caches {
		reg.Register(fmt.Sprint("c", i), c)
	}
	if p.MaxBytes() != 7000 {
		t.Fatalf("registry joined %d bytes of budgets, want 7000", p.MaxBytes())
	}
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for i := range 3000 {
				c := caches[rng.IntN(len(caches))]
				k := fmt.Sprint(rng.IntN(100))
				switch rng.IntN(4) {
				case 0, 1:
					c.Put(k, i, rng.Int64N(200))
				case 2:
					c.Get(k)
				case 3:
					c.Delete(k)
				}
			}
		})
	}
	wg.Wait()
	var sum int64
	for _, c := range caches {
		sum += c.Bytes()
	}
	if sum != p.Bytes() || p.Bytes() > p.MaxBytes() {
		t.Errorf("caches hold %d bytes, the pool counts %d of %d", sum, p.Bytes(), p.MaxBytes())
	}
}

// A cache that may borrow all (BorrowAll) fills the whole room the others leave, beyond twice
// its own budget, and gives it back like any other when they need their budgets.
func TestPoolBorrowAll(t *testing.T) {
	t.Parallel()
	p := lru.NewPool()
	all, twice, c := lru.New[string, int](1000), lru.New[string, int](1000), lru.New[string, int](1000)
	all.BorrowAll()
	for _, x := range []*lru.Cache[string, int]{all, twice, c} {
		x.JoinPool(p)
	}
	fill(all, "a", 11, 250) // 2750 of the pool's 3000
	if n := held(all, "a", 11); n != 11 {
		t.Errorf("a cache that may borrow all holds %d of 11 values; want all", n)
	}
	// The other fills twice its budget: newer than the borrower's values above its budget,
	// its values push them out, down to the borrower's own 1000.
	fill(twice, "t", 11, 250)
	if n := held(twice, "t", 11); n != 8 {
		t.Errorf("the other cache holds %d values; want twice its budget's 8", n)
	}
	if n := held(all, "a", 11); n != 4 {
		t.Errorf("after the other filled up, the borrower holds %d; want its own budget's 4", n)
	}
	if p.Bytes() > p.MaxBytes() {
		t.Errorf("pool holds %d of %d", p.Bytes(), p.MaxBytes())
	}

	// Without BorrowAll, a cache stops at twice its budget even with the pool idle.
	q := lru.NewPool()
	d, e, f := lru.New[string, int](1000), lru.New[string, int](1000), lru.New[string, int](1000)
	for _, x := range []*lru.Cache[string, int]{d, e, f} {
		x.JoinPool(q)
	}
	fill(d, "d", 11, 250)
	if n := held(d, "d", 11); n != 8 {
		t.Errorf("a cache without BorrowAll holds %d of 11 values in an idle pool; want 8 (twice its budget)", n)
	}
}
