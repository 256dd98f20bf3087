package graphql

import (
	"container/list"
	"sync"

	"github.com/graphql-go/graphql/language/ast"
)

// Bounds of the document cache: parsing and validating a query is the expensive part of a small
// query, so validated documents are kept by query text. Large queries are rare and not kept.
const (
	maxCachedQueryBytes = 16 << 10
	maxDocCacheBytes    = 2 << 20
)

// docEntry is a parsed document that passed validation against the schema of generation gen.
// It is never modified once cached.
type docEntry struct {
	gen uint64
	doc *ast.Document
}

// docCache is a bounded LRU of validated documents keyed by query text.
type docCache struct {
	mu    sync.Mutex
	max   int
	bytes int
	ll    *list.List // front = most recently used
	items map[string]*list.Element
}

type docItem struct {
	query string
	entry *docEntry
}

func newDocCache(size int) *docCache {
	return &docCache{max: size, ll: list.New(), items: map[string]*list.Element{}}
}

// get returns the document cached for query under schema generation gen.
func (c *docCache) get(gen uint64, query string) *docEntry {
	if c.max <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[query]
	if !ok {
		return nil
	}
	it := el.Value.(*docItem)
	if it.entry.gen != gen {
		c.remove(el)
		return nil
	}
	c.ll.MoveToFront(el)
	return it.entry
}

// put caches a validated document, evicting the least recently used ones beyond the bounds.
func (c *docCache) put(query string, e *docEntry) {
	if c.max <= 0 || len(query) > maxCachedQueryBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[query]; ok {
		c.remove(el)
	}
	c.items[query] = c.ll.PushFront(&docItem{query: query, entry: e})
	c.bytes += len(query)
	for c.ll.Len() > c.max || c.bytes > maxDocCacheBytes {
		c.remove(c.ll.Back())
	}
}

func (c *docCache) remove(el *list.Element) {
	it := el.Value.(*docItem)
	c.ll.Remove(el)
	delete(c.items, it.query)
	c.bytes -= len(it.query)
}

// resultCache holds encoded responses of entry queries, keyed by everything they depend on
// (schema and content generations, the caller's permissions, the query and its variables). It is
// bounded by bytes and emptied when full: a full cache means the working set is larger than the
// budget anyway, and emptying is cheap.
type resultCache struct {
	mu    sync.RWMutex
	max   int64
	size  int64
	gen   uint64 // content generation of the newest entry; older ones are dropped
	items map[string][]byte
}

func newResultCache(maxBytes int64) *resultCache {
	return &resultCache{max: maxBytes, items: map[string][]byte{}}
}

func (c *resultCache) enabled() bool { return c.max > 0 }

func (c *resultCache) get(key string) ([]byte, bool) {
	if !c.enabled() {
		return nil, false
	}
	c.mu.RLock()
	b, ok := c.items[key]
	c.mu.RUnlock()
	return b, ok
}

// put stores body under key for content generation gen. Entries of older generations can never
// be asked for again, so a newer generation empties the cache.
func (c *resultCache) put(key string, gen uint64, body []byte) {
	n := int64(len(body) + len(key))
	if !c.enabled() || n > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen < c.gen {
		return
	}
	if old, ok := c.items[key]; ok {
		c.size -= int64(len(old) + len(key))
	}
	if gen > c.gen || c.size+n > c.max {
		c.gen = gen
		c.items = map[string][]byte{}
		c.size = 0
	}
	c.items[key] = body
	c.size += n
}
