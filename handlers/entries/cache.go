package entries

import "cms/content/packed"

// fragment is the encoded JSON of an entry, cached ([lru.Cache]) by collection and slug and
// valid for one file Version and collection route. The Version comes from the store's index,
// which follows the files, so an entry is read from disk and encoded once per version rather
// than once per request; once the cache's budget binds, the least recently read are compressed
// (about half the bytes, a microsecond or two more per read) before any is dropped. A
// contentHash served for a stale index can only make an update fail with 409: the store
// compares it with the file under its lock.
type fragment struct {
	version string // Version of the file the body was encoded from: the index's records have it
	hash    string // its SHA-256, the contentHash in the body (the index's records do not have it)
	route   string // the collection route the url was resolved with
	body    packed.Bytes
	// keyLen is what its key costs.
	keyLen int
}

func (f fragment) cost() int64 {
	return int64(f.body.Size() + f.keyLen + len(f.version) + len(f.hash) + len(f.route))
}

func fragKey(collection, slug string) string { return collection + "/" + slug }

// shrinkFragment is the fragment compressed ([lru.Cache.SetShrink]).
func shrinkFragment(f fragment) (fragment, int64, bool) {
	var ok bool
	f.body, _, ok = f.body.Shrink(0)
	return f, f.cost(), ok
}
