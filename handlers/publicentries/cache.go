package publicentries

import (
	"bytes"
	"hash/maphash"
	"sync/atomic"

	"cms/content/lru"
)

// cache holds encoded responses (or entries) and their ETags keyed by request ([lru.Cache]),
// each valid for one version.
type cache[K comparable] struct{ lru *lru.Cache[K, cached] }

type cached struct {
	version uint64
	body    []byte
	etag    string
}

// entryKey names an entry without building a string per lookup; with seo set, it names the
// entry's encoded SEO object on site, which shares the entry's cache and version.
type entryKey struct {
	collection, slug, site string
	seo                    bool
}

func newCache[K comparable](maxBytes int64) cache[K] { return cache[K]{lru.New[K, cached](maxBytes)} }

func (c cache[K]) get(key K, version uint64) ([]byte, string, bool) {
	it, ok := c.lru.GetValid(key, func(it cached) bool { return it.version == version })
	if !ok {
		return nil, "", false
	}
	return it.body, it.etag, true
}

// put caches body; keyLen is what the key costs. A body with much spare capacity (a grown
// buffer's, such as a list's) is kept as an exact copy: the budget counts its length, and the
// cache must not hold up to twice that.
func (c cache[K]) put(key K, keyLen int, version uint64, body []byte, etag string) {
	if cap(body)-len(body) > len(body)/8 {
		body = bytes.Clone(body)
	}
	c.lru.Put(key, cached{version: version, body: body, etag: etag}, int64(keyLen+len(body)+len(etag)))
}

// doorkeeper remembers which keys were asked recently, in a fixed table of their hashes (a
// later key can take an earlier one's slot, which only delays its admission), so a cache admits
// a response on its second request rather than its first.
type doorkeeper struct {
	seed  maphash.Seed
	slots [4096]atomic.Uint64
}

func newDoorkeeper() *doorkeeper { return &doorkeeper{seed: maphash.MakeSeed()} }

// again records key and reports whether it was recorded before.
func (d *doorkeeper) again(key string) bool {
	h := maphash.String(d.seed, key) | 1 // 0 is an empty slot
	s := &d.slots[h%uint64(len(d.slots))]
	if s.Load() == h {
		return true
	}
	s.Store(h)
	return false
}
