package lru

import (
	"sync"
	"sync/atomic"
)

// Pool lets caches lend each other their budgets (memory.cacheMiB is one budget split among
// the caches). A cache in a pool keeps its own budget and may also fill what the others leave
// unused, up to twice its own budget (or the pool's total, the sum of its members' budgets,
// with [Cache.BorrowAll]), so a run of values never read again cannot take over the pool: the cache a workload uses
// grows into the room of those it does not, instead of evicting at its share while that room
// stays empty. When the pool is full, the values that go are the least recently used among the
// caches above their own budgets (an approximate LRU across the caches): a cache within its
// budget never loses a value to another. So the pool never holds more than its total, and
// every cache can always use its own budget.
type Pool struct {
	used  atomic.Int64  // bytes held by the members
	max   atomic.Int64  // the sum of the members' budgets
	clock atomic.Uint64 // orders uses across the members

	mu      sync.Mutex
	members []member
}

// member is a cache in a pool, whatever its key and value types.
type member interface {
	// oldest returns when its least recently used value was last used, if it holds more than
	// its own budget.
	oldest() (tick uint64, over bool)
	// evictOldest drops its least recently used value if it still holds more than its budget
	// and the pool is full.
	evictOldest(p *Pool)
}

// NewPool returns an empty pool; caches join it with [Cache.JoinPool] (or [Registry.Register]
// with [Registry.Pool] set).
func NewPool() *Pool { return &Pool{} }

// Bytes is what the pool's caches hold together.
func (p *Pool) Bytes() int64 { return p.used.Load() }

// MaxBytes is the pool's total: the sum of its caches' own budgets.
func (p *Pool) MaxBytes() int64 { return p.max.Load() }

func (p *Pool) full() bool { return p.used.Load() > p.max.Load() }

// reclaim evicts the least recently used values of the caches above their own budgets until
// the pool is within its total. Called without any cache's lock held.
func (p *Pool) reclaim() {
	p.mu.Lock()
	members := p.members
	p.mu.Unlock()
	// Bounded: values put meanwhile may keep the pool full; their own Puts reclaim too.
	for range 10_000 {
		if !p.full() {
			return
		}
		var lru member
		var lruTick uint64
		for _, m := range members {
			if t, over := m.oldest(); over && (lru == nil || t < lruTick) {
				lru, lruTick = m, t
			}
		}
		// Every cache within its own budget: the pool holds at most its total (the sum of them).
		if lru == nil {
			return
		}
		lru.evictOldest(p)
	}
}

// JoinPool makes the cache one of p's: its budget adds to the pool's total, and it may hold
// more than its budget while the pool has room. A cache joins once, before it is used; a
// disabled cache (no budget) or a nil pool leaves it alone.
func (c *Cache[K, V]) JoinPool(p *Pool) {
	if p == nil || !c.Enabled() {
		return
	}
	c.mu.Lock()
	if c.pool != nil {
		c.mu.Unlock()
		return
	}
	c.pool = p
	p.used.Add(c.size)
	c.mu.Unlock()
	p.mu.Lock()
	p.members = append(p.members[:len(p.members):len(p.members)], c)
	p.mu.Unlock()
	p.max.Add(c.max)
}

func (c *Cache[K, V]) oldest() (uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.lru()
	if c.size <= c.max || n == &c.root {
		return 0, false
	}
	if c.shrink != nil && c.root.prev != &c.root { // what it would shrink next
		n = c.root.prev
	}
	return n.tick, true
}

func (c *Cache[K, V]) evictOldest(p *Pool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.size > c.max && p.full() && c.lru() != &c.root {
		c.evictLRU()
	}
}
