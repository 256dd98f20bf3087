package pagecache

import (
	"container/list"
	"sync"
)

// Driver stores pages by key. Drivers do no invalidation bookkeeping; Cache does. A driver that
// drops pages by itself (the memory driver at its budget) reports each through the evicted
// callback Cache installs with SetEvicted.
type Driver interface {
	Get(key string) (*Page, bool)
	Put(p *Page) error
	Delete(key string) error
	// Clear drops every page and returns how many there were.
	Clear() (int, error)
	// All calls fn with every stored page, for rebuilding the dependency index at start.
	All(fn func(p *Page)) error
	Stats() (entries int, bytes int64, maxBytes int64)
	SetEvicted(fn func(key string))
}

// Memory is the memory driver: pages in a least-recently-used list within a byte budget. It
// keeps its own list rather than content/lru's, because the dependency index must hear of every
// eviction to stay bounded.
type Memory struct {
	max     int64
	mu      sync.Mutex
	size    int64
	ll      *list.List // front = most recently used; values are *Page
	items   map[string]*list.Element
	evicted func(key string)
}

// NewMemory returns a memory driver of at most maxBytes (counted as each page's bodies, key and
// headers plus a fixed overhead). A page larger than a quarter of the budget is not kept.
func NewMemory(maxBytes int64) *Memory {
	return &Memory{max: max(maxBytes, 0), ll: list.New(), items: map[string]*list.Element{}}
}

// SetEvicted installs the eviction callback; it runs under the driver's lock and must not call
// back into the driver.
func (m *Memory) SetEvicted(fn func(key string)) { m.evicted = fn }

// Get returns the page of key and marks it most recently used.
func (m *Memory) Get(key string) (*Page, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.items[key]
	if !ok {
		return nil, false
	}
	m.ll.MoveToFront(e)
	return e.Value.(*Page), true
}

// Put stores p, evicting the least recently used pages past the budget.
func (m *Memory) Put(p *Page) error {
	cost := p.size()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.items[p.Key]; ok {
		m.drop(e)
	}
	if cost > m.max/4 {
		return nil
	}
	m.items[p.Key] = m.ll.PushFront(p)
	m.size += cost
	for m.size > m.max {
		e := m.ll.Back()
		m.drop(e)
		if m.evicted != nil {
			m.evicted(e.Value.(*Page).Key)
		}
	}
	return nil
}

func (m *Memory) drop(e *list.Element) {
	p := m.ll.Remove(e).(*Page)
	delete(m.items, p.Key)
	m.size -= p.size()
}

// Delete drops the page of key.
func (m *Memory) Delete(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.items[key]; ok {
		m.drop(e)
	}
	return nil
}

// Clear drops every page.
func (m *Memory) Clear() (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.items)
	m.ll.Init()
	m.items = map[string]*list.Element{}
	m.size = 0
	return n, nil
}

// All visits every page (a memory driver starts empty, so Cache never needs it at start).
func (m *Memory) All(fn func(p *Page)) error {
	m.mu.Lock()
	pages := make([]*Page, 0, len(m.items))
	for e := m.ll.Front(); e != nil; e = e.Next() {
		pages = append(pages, e.Value.(*Page))
	}
	m.mu.Unlock()
	for _, p := range pages {
		fn(p)
	}
	return nil
}

// Stats reports the pages held, their cost and the budget.
func (m *Memory) Stats() (int, int64, int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.items), m.size, m.max
}
