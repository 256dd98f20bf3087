// Package lru is the one in-memory cache of the service: bounded by a byte budget, it evicts the
// least recently used values first, so a hot working set larger than the budget stays mostly
// cached instead of being emptied or thinned at random. It holds encoded entries, entry lists,
// GraphQL results and parsed GraphQL documents. Whether a value is still current (its content
// hash, collection version or generation) is the caller's to check: a value that no longer
// matches is simply never asked for again and ages out.
package lru

import (
	"sync"
	"sync/atomic"
)

// Overhead is what every value costs on top of the cost its caller names: the list node and map
// slot that hold it.
const Overhead = 64

// Cache maps keys to values within a byte budget. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	max    int64 // budget in bytes; 0 keeps nothing
	mu     sync.Mutex
	size   int64
	items  map[K]*node[K, V]
	root   node[K, V] // root.next is the most recently used, root.prev the least
	small  node[K, V] // the same for the values shrunk (SetShrink), which go only after all others are
	nsmall int        // values in the small list
	pool   *Pool      // nil: max bounds the cache alone (see JoinPool)
	// shrink, if set, makes a smaller form of a value (see SetShrink).
	shrink func(V) (V, int64, bool)
	// borrowAll lets the cache fill all the room its pool has (see BorrowAll).
	borrowAll bool

	hits, misses atomic.Uint64
}

// Stats is what a cache holds and how well it serves, for the readiness details.
type Stats struct {
	Entries  int    `json:"entries"`
	Bytes    int64  `json:"bytes"`
	MaxBytes int64  `json:"maxBytes"`
	Hits     uint64 `json:"hits"`
	Misses   uint64 `json:"misses"`
	// Shrunk is how many of the values the cache has shrunk (SetShrink), or tried to: above 0,
	// its budget binds.
	Shrunk int `json:"shrunk,omitempty"`
}

// HitRatio is Hits / (Hits + Misses), 0 before the first lookup.
func (s Stats) HitRatio() float64 {
	if n := s.Hits + s.Misses; n > 0 {
		return float64(s.Hits) / float64(n)
	}
	return 0
}

type node[K comparable, V any] struct {
	key        K
	val        V
	cost       int64
	tick       uint64 // when last used, on the pool's clock (pooled caches only)
	shrunk     bool   // in its smaller form, or has none: in the small list
	prev, next *node[K, V]
}

// New returns a cache of at most maxBytes, counted as the costs given to Put plus Overhead
// each. maxBytes <= 0 makes a cache that keeps nothing.
func New[K comparable, V any](maxBytes int64) *Cache[K, V] {
	c := &Cache[K, V]{max: max(maxBytes, 0), items: map[K]*node[K, V]{}}
	c.root.next, c.root.prev = &c.root, &c.root
	c.small.next, c.small.prev = &c.small, &c.small
	return c
}

// SetShrink has the cache, when it needs room, turn its least recently used value into a
// smaller form (such as compressed bytes, slower to read) rather than drop it, and drop a value
// only once every value it holds is in its smaller form (or cannot be: shrink's ok false, or a
// cost not below the value's); then the least recently used of them goes. So while the budget
// holds every value as it was put, reads cost nothing more; as it binds, values get smaller
// before any is lost, since a miss costs far more than reading a smaller form. cost is what the
// smaller form costs, as Put takes it. shrink runs under the cache's lock. Call it once, before
// the cache is used.
func (c *Cache[K, V]) SetShrink(shrink func(val V) (smaller V, cost int64, ok bool)) {
	if c != nil {
		c.shrink = shrink
	}
}

// BorrowAll lets a cache in a pool fill all the room the others leave unused, not only as much
// again as its own budget: for a cache whose values are read again (entries, pages), which a
// run of values read once does not fill. Call it once, before the cache is used.
func (c *Cache[K, V]) BorrowAll() {
	if c != nil {
		c.borrowAll = true
	}
}

// Enabled reports whether the cache keeps anything, so a caller can skip building keys.
func (c *Cache[K, V]) Enabled() bool { return c != nil && c.max > 0 }

// Get returns the value of key and marks it most recently used.
func (c *Cache[K, V]) Get(key K) (V, bool) { return c.GetValid(key, nil) }

// GetValid is Get for values that can go stale: a value valid rejects counts as a miss and is
// dropped at once rather than left to age out. valid (nil = any) runs under the cache's lock.
func (c *Cache[K, V]) GetValid(key K, valid func(V) bool) (V, bool) {
	var zero V
	if !c.Enabled() {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.items[key]
	if ok && valid != nil && !valid(n.val) {
		c.remove(n)
		ok = false
	}
	if !ok {
		c.misses.Add(1)
		return zero, false
	}
	c.hits.Add(1)
	c.unlink(n)
	c.pushFront(n)
	return n.val, true
}

// Put stores val under key, replacing any value it had, and evicts the least recently used
// values until the cache is within its budget (in a [Pool]: within its budget or the pool's
// room). A value costing more than a quarter of the budget is not kept (and any older value of
// key is dropped), so one large value cannot empty the cache.
func (c *Cache[K, V]) Put(key K, val V, cost int64) {
	if !c.Enabled() {
		return
	}
	cost = max(cost, 0) + Overhead
	c.mu.Lock()
	if old, ok := c.items[key]; ok {
		c.remove(old)
	}
	if cost > c.max/4 {
		c.mu.Unlock()
		return
	}
	n := &node[K, V]{key: key, val: val, cost: cost}
	c.items[key] = n
	c.pushFront(n)
	c.size += cost
	p := c.pool
	if p == nil {
		for c.size > c.max {
			c.evictLRU()
		}
		c.mu.Unlock()
		return
	}
	p.used.Add(cost)
	// Borrowing is bounded by the cache's own budget, unless BorrowAll: a run of values never
	// read again (uncached list pages) cannot take over the pool.
	limit := 2 * c.max
	if c.borrowAll {
		limit = max(limit, p.max.Load())
	}
	for c.size > limit {
		c.evictLRU()
	}
	c.mu.Unlock()
	if p.full() { // the least recently used values above their caches' budgets go
		p.reclaim()
	}
}

// Delete drops the value of key, if any.
func (c *Cache[K, V]) Delete(key K) {
	if !c.Enabled() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.items[key]; ok {
		c.remove(n)
	}
}

// Len returns how many values the cache holds.
func (c *Cache[K, V]) Len() int {
	if !c.Enabled() {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Bytes returns the cost of the values the cache holds, Overhead included.
func (c *Cache[K, V]) Bytes() int64 {
	if !c.Enabled() {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// Stats reports the cache's size, budget and lookups so far.
func (c *Cache[K, V]) Stats() Stats {
	if !c.Enabled() {
		return Stats{}
	}
	c.mu.Lock()
	st := Stats{Entries: len(c.items), Bytes: c.size, MaxBytes: c.max, Shrunk: c.nsmall}
	c.mu.Unlock()
	st.Hits, st.Misses = c.hits.Load(), c.misses.Load()
	return st
}

// evictLRU makes room: it shrinks the least recently used value not shrunk yet (SetShrink),
// else drops the least recently used value. Each value is shrunk at most once, so a loop of
// calls ends.
func (c *Cache[K, V]) evictLRU() {
	if c.shrink != nil && c.root.prev != &c.root {
		n := c.root.prev
		c.unlink(n)
		n.shrunk = true
		if v, cost, ok := c.shrink(n.val); ok && max(cost, 0)+Overhead < n.cost {
			cost = max(cost, 0) + Overhead
			c.size += cost - n.cost
			if c.pool != nil {
				c.pool.used.Add(cost - n.cost)
			}
			n.val, n.cost = v, cost
		}
		c.pushFront(n) // among the small values: it goes after every value not yet shrunk
		c.nsmall++
		return
	}
	c.remove(c.lru())
}

// lru is the value that goes next when nothing can shrink: the least recently used of the
// small values, else of the others; the root when the cache is empty.
func (c *Cache[K, V]) lru() *node[K, V] {
	if c.small.prev != &c.small {
		return c.small.prev
	}
	return c.root.prev
}

func (c *Cache[K, V]) pushFront(n *node[K, V]) {
	if c.pool != nil {
		n.tick = c.pool.clock.Add(1)
	}
	list := &c.root
	if n.shrunk {
		list = &c.small
	}
	n.prev, n.next = list, list.next
	n.next.prev = n
	list.next = n
}

func (c *Cache[K, V]) unlink(n *node[K, V]) {
	n.prev.next, n.next.prev = n.next, n.prev
	n.prev, n.next = nil, nil
}

func (c *Cache[K, V]) remove(n *node[K, V]) {
	if n.shrunk {
		c.nsmall--
	}
	c.unlink(n)
	delete(c.items, n.key)
	c.size -= n.cost
	if c.pool != nil {
		c.pool.used.Add(-n.cost)
	}
}
