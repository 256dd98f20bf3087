package entries

import "sync"

// fragCache holds the encoded JSON of entries, keyed by collection and slug and valid for one
// content hash and collection route. The hash comes from the store's index, which follows the
// files, so an entry is read from disk and encoded once per version rather than once per
// request. A hash served from a stale index can only make an update fail with 409: the store
// compares it with the file under its lock. The cache is bounded by bytes and emptied when full.
type fragCache struct {
	mu    sync.RWMutex
	max   int64
	size  int64
	items map[string]fragment
}

type fragment struct {
	hash  string // content hash of the file the body was encoded from
	route string // the collection route the url was resolved with
	body  []byte
}

func newFragCache(maxBytes int64) *fragCache {
	return &fragCache{max: maxBytes, items: map[string]fragment{}}
}

func fragKey(collection, slug string) string { return collection + "/" + slug }

func (c *fragCache) get(key, hash, route string) ([]byte, bool) {
	if c.max < 0 {
		return nil, false
	}
	c.mu.RLock()
	f, ok := c.items[key]
	c.mu.RUnlock()
	if !ok || f.hash != hash || f.route != route {
		return nil, false
	}
	return f.body, true
}

func (c *fragCache) put(key string, f fragment) {
	n := int64(len(f.body) + len(key) + len(f.hash) + len(f.route))
	if c.max < 0 || n > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.items[key]; ok {
		c.size -= int64(len(old.body) + len(key) + len(old.hash) + len(old.route))
	}
	if c.size+n > c.max {
		c.items = map[string]fragment{}
		c.size = 0
	}
	c.items[key] = f
	c.size += n
}

func (c *fragCache) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.items[key]; ok {
		c.size -= int64(len(old.body) + len(key) + len(old.hash) + len(old.route))
		delete(c.items, key)
	}
}
