package publicentries

import "sync"

// cache holds encoded responses keyed by request, each valid for one version. It is bounded by
// bytes: when full, about a tenth of it is evicted at random (map iteration order), which keeps
// a hot working set larger than the budget mostly cached instead of emptying it.
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

func cost(key string, body []byte) int64 { return int64(len(key)+len(body)) + 64 }

func (c *cache) put(key string, version uint64, body []byte, etag string) {
	if c.max < 0 || cost(key, body) > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.items[key]; ok {
		c.size -= cost(key, old.body)
		delete(c.items, key)
	}
	if c.size+cost(key, body) > c.max {
		target := c.max - c.max/10
		for k, it := range c.items {
			if c.size+cost(key, body) <= target {
				break
			}
			c.size -= cost(k, it.body)
			delete(c.items, k)
		}
	}
	c.items[key] = cached{version: version, body: body, etag: etag}
	c.size += cost(key, body)
}
