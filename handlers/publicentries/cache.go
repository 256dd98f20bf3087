package publicentries

import (
	"hash/maphash"
	"sync/atomic"

	"cms/content"
	"cms/content/lru"
	"cms/content/packed"
)

// cache holds encoded responses (list pages, search results) and their ETags keyed by request
// ([lru.Cache]), each valid for one version. They are not compressed when the budget binds, as
// entries are: a list page is ten entries' worth, compressing it costs half of building it, and
// the pages that age out are mostly ones never asked again.
type cache[K comparable] struct{ lru *lru.Cache[K, cached] }

type cached struct {
	version uint64
	body    []byte
	etag    string
}

// entryKey names an entry's encoding for a link form (linkForm) without building a string per
// lookup; with seo set, it names the entry's whole response with its SEO object for a site.
type entryKey struct {
	collection, slug, site, form string
	seo                          bool
}

func newCache[K comparable](maxBytes int64) cache[K] {
	return cache[K]{lru.New[K, cached](maxBytes)}
}

// get returns the body cached under key for version: the cached bytes themselves, not to be
// changed.
func (c cache[K]) get(key K, version uint64) ([]byte, string, bool) {
	it, ok := c.lru.GetValid(key, func(it cached) bool { return it.version == version })
	if !ok {
		return nil, "", false
	}
	return it.body, it.etag, true
}

// put caches a copy of body, of exactly its length (the budget counts the length, and a
// grown buffer's spare room would hold up to as much again); keyLen is what the key costs.
func (c cache[K]) put(key K, keyLen int, version uint64, body []byte, etag string) {
	body = append(make([]byte, 0, len(body)), body...)
	c.lru.Put(key, cached{version: version, body: body, etag: etag}, int64(keyLen+len(body)+len(etag)))
}

// packedCache holds encoded entries as they are until its budget binds, then compressed
// ([packed.Bytes], [lru.Cache.SetShrink]): the least recently read shrink to about half before
// any is dropped, at a microsecond or two per read to expand one into the response being built.
// Entries are most of what this API caches (one per published entry a client reads), so the
// default budget keeps every entry of a 10,000-entry site.
type packedCache[K comparable] struct{ lru *lru.Cache[K, packedEntry] }

type packedEntry struct {
	ref     entryRef
	version uint64 // entryVersion of ref
	body    packed.Bytes
	cost    int64 // what Put was told, Overhead aside
	entryTags
}

// entryTags describe a cached entry: the ETag of the cached response, and when it is a single
// entry's whole response with its SEO object, the length of the list item it holds (its
// members: they follow {"data":, and the item closes after them) and the item's ETag.
type entryTags struct {
	etag    string
	item    int // 0: the body is the item itself
	itemTag string
}

func newPackedCache[K comparable](maxBytes int64) packedCache[K] {
	c := lru.New[K, packedEntry](maxBytes)
	c.BorrowAll() // entries are read again: they may fill what the other caches leave
	c.SetShrink(func(it packedEntry) (packedEntry, int64, bool) {
		var ok bool
		it.body, it.cost, ok = it.body.Shrink(it.cost)
		return it, it.cost, ok
	})
	return packedCache[K]{c}
}

// entryRef is what an entry's encoding was made from: the store's record of the entry and the
// definitions' generation. A cached encoding is valid for the same record (a record the store
// handed out never changes: a changed file gets a new one), else for a record of the same file
// Version (an index rebuilt), which costs reading the version: at 100,000 entries, a cache miss
// per list item, a twentieth of an uncached list query.
type entryRef struct {
	meta *content.Entry
	defs uint64
}

func (r entryRef) version() uint64 { return entryVersion(r.meta.Version, r.defs) }

// get returns what is cached under key for ref.
func (c packedCache[K]) get(key K, ref entryRef) (packedEntry, bool) {
	return c.lru.GetValid(key, func(it packedEntry) bool { return it.ref == ref || it.version == ref.version() })
}

// appendItem appends the list item the cached body holds to dst: all of it, or the item's part
// of a whole response.
func (it packedEntry) appendItem(dst []byte) ([]byte, error) {
	if it.item == 0 {
		return it.body.AppendTo(dst)
	}
	lo, hi := it.itemRange(it.body.Len())
	out, err := it.body.AppendRange(dst, lo, hi)
	if err != nil {
		return dst, err
	}
	return append(out, '}'), nil
}

// itemRange is where the list item lies in a cached body of n bytes: all of it, or in a whole
// response, its members after {"data": (the item closes after them).
func (t entryTags) itemRange(n int) (lo, hi int) {
	if t.item > 0 {
		return len(dataOpen), len(dataOpen) + t.item
	}
	return 0, n
}

// put caches a copy of body, made from ref; keyLen is what the key costs.
func (c packedCache[K]) put(key K, keyLen int, ref entryRef, body []byte, tags entryTags) {
	p := packed.Raw(body)
	cost := keyLen + p.Size() + len(tags.etag)
	if tags.itemTag != tags.etag {
		cost += len(tags.itemTag)
	}
	c.lru.Put(key, packedEntry{ref: ref, version: ref.version(), body: p, cost: int64(cost), entryTags: tags}, int64(cost))
}

// doorkeeper remembers which keys were asked recently, in a fixed table of their hashes (a
// later key can take an earlier one's slot, which only delays its admission), so a cache admits
// a response on its second request rather than its first. "Recently" is a window of requests
// the caller sets to what its cache turns over in (a few times the values it holds): a key asked
// again only after more requests than that would have left the cache before its next request,
// so admitting it would only copy a response no one reads (a client paging through thousands of
// distinct queries in turn made a tenth of a list load such copies).
type doorkeeper struct {
	seed  maphash.Seed
	asked atomic.Int64 // requests since the table was last cleared
	slots [4096]atomic.Uint64
}

func newDoorkeeper() *doorkeeper { return &doorkeeper{seed: maphash.MakeSeed()} }

// again records key and reports whether it was recorded before within the last window requests
// (about: the table is cleared once per window).
func (d *doorkeeper) again(key string, window int64) bool {
	if d.asked.Add(1) >= window {
		d.asked.Store(0)
		for i := range d.slots {
			d.slots[i].Store(0)
		}
	}
	h := maphash.String(d.seed, key) | 1 // 0 is an empty slot
	s := &d.slots[h%uint64(len(d.slots))]
	if s.Load() == h {
		return true
	}
	s.Store(h)
	return false
}
