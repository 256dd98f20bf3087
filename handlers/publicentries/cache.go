package publicentries

import "cms/content/lru"

// cache holds encoded responses (or entries) and their ETags keyed by request ([lru.Cache]),
// each valid for one version.
type cache struct{ lru *lru.Cache[string, cached] }

type cached struct {
	version uint64
	body    []byte
	etag    string
}

func newCache(maxBytes int64) cache { return cache{lru.New[string, cached](maxBytes)} }

func (c cache) get(key string, version uint64) ([]byte, string, bool) {
	it, ok := c.lru.GetValid(key, func(it cached) bool { return it.version == version })
	if !ok {
		return nil, "", false
	}
	return it.body, it.etag, true
}

func (c cache) put(key string, version uint64, body []byte, etag string) {
	c.lru.Put(key, cached{version: version, body: body, etag: etag}, int64(len(key)+len(body)+len(etag)))
}
