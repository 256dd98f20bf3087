package entries

import "cms/content/packed"

// fragment is the encoded JSON of an entry, cached ([lru.Cache]) by collection and slug and
// valid for one content hash and collection route. The hash comes from the store's index, which
// follows the files, so an entry is read from disk and encoded once per version rather than once
// per request; it is kept compressed (about half the bytes), which costs a microsecond or so per
// read. A hash served from a stale index can only make an update fail with 409: the store
// compares it with the file under its lock.
type fragment struct {
	hash  string // content hash of the file the body was encoded from
	route string // the collection route the url was resolved with
	body  packed.Bytes
}

func (f fragment) cost(key string) int64 {
	return int64(f.body.Size() + len(key) + len(f.hash) + len(f.route))
}

func fragKey(collection, slug string) string { return collection + "/" + slug }
