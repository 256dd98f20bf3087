package publicentries

import "sync"

// cache holds encoded responses keyed by request, valid for one collection version. It is
// bounded by bytes: when full it is emptied (cheap, and a full cache means the working set is
// larger than the budget anyway).
type cache struct {
	mu    sync.RWMutex
	max   int64
	size  int64
	items map[string]cached
}

type cached struct {
	version uint64
	body    []byte
	etag    string
}

func newCache(maxBytes int64) *cache {
	return &cache{max: maxBytes, items: map[string]cached{}}
}

func (c *cache) get(key string, version uint64) ([]byte, string, bool) {
	if c.max < 0 {
		return nil, "", false
	}
	c.mu.RLock()
	it, ok := c.items[key]
	c.mu.RUnlock()
	if !ok || it.version != version {
		return nil, "", false
	}
	return it.body, it.etag, true
}

func (c *cache) put(key string, version uint64, body []byte, etag string) {
	if c.max < 0 || int64(len(body)) > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.items[key]; ok {
		c.size -= int64(len(old.body) + len(key))
	}
	if c.size+int64(len(body)+len(key)) > c.max {
		c.items = map[string]cached{}
		c.size = 0
	}
	c.items[key] = cached{version: version, body: body, etag: etag}
	c.size += int64(len(body) + len(key))
}
