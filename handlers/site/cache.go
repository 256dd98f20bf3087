package site

import (
	"hash/fnv"
	"net/http"
	"strconv"
)

// cachedPage is a rendered page kept for repeat requests.
type cachedPage struct {
	body    []byte
	etag    string
	status  int
	version uint64 // what the page was rendered from (see version)
}

// version folds what a page depends on: every entry and definition (the store's generation),
// the templates (the views' generation) and the files read on demand (the data generation).
func (s *site) version(viewsGen uint64) uint64 {
	h := fnv.New64a()
	var b [32]byte
	put := func(i int, v uint64) {
		for k := 0; k < 8; k++ {
			b[i+k] = byte(v >> (8 * k))
		}
	}
	put(0, s.Store.Generation())
	put(8, s.Store.DefinitionsGeneration())
	put(16, viewsGen)
	put(24, s.data.generation())
	h.Write(b[:])
	return h.Sum64()
}

func cacheKey(site, escapedPath, rawQuery string) string {
	return site + "\x00" + escapedPath + "?" + rawQuery
}

// fromCache answers a request from a cached page, if a valid one exists.
func (q *request) fromCache(key string, version uint64) bool {
	if !q.s.pages.Enabled() {
		return false
	}
	p, ok := q.s.pages.GetValid(key, func(p *cachedPage) bool { return p.version == version })
	if !ok {
		return false
	}
	cache := q.s.CacheControl
	if p.status != http.StatusOK {
		cache = "no-cache"
	}
	q.sendTagged(p.status, "text/html; charset=utf-8", cache, p.body, p.etag)
	return true
}

func (q *request) toCache(key string, version uint64, status int, body []byte, etag string) {
	if !q.s.pages.Enabled() {
		return
	}
	q.s.pages.Put(key, &cachedPage{body: body, etag: etag, status: status, version: version},
		int64(len(body)+len(key)+len(etag)+64))
}

func itoa(n int) string { return strconv.Itoa(n) }
