// Package publicentries serves published entries to anonymous clients:
//
//	GET {base}/entries/{collection}         list, with limit, offset, sort, filter and fields
//	GET {base}/entries/{collection}/{slug}  one entry
//	GET {base}/search                       full-text search of published entries (q, collection, limit, offset)
//
// Drafts are never returned, whatever the query asks. Responses are built from the store's
// in-memory index. An entry's encoded JSON (with rendered HTML) is cached against its file hash
// and the definitions generation, so one edit invalidates one entry; list responses are cached
// per collection version. Responses carry an ETag and answer If-None-Match with 304.
package publicentries

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"cms/content"
	"cms/content/lru"
	"cms/content/query"
	"cms/content/search"
	"cms/handlers/web"
)

// Store is what the public API reads.
type Store interface {
	// Collection returns a NotFound error for an unknown collection.
	Collection(handle string) (*content.Collection, error)
	// Blueprint returns a blueprint of a kind, or a NotFound error.
	Blueprint(kind, handle string) (*content.Blueprint, error)
	// Entries returns the matching entries without bodies, and the count before paging.
	Entries(collection string, q query.Query) ([]*content.Entry, int, error)
	// EntryMeta returns an indexed entry without its body, or a NotFound error.
	EntryMeta(collection, slug string) (*content.Entry, error)
	// Entry reads an entry with its body, or returns a NotFound error.
	Entry(collection, slug string) (*content.Entry, error)
	// CollectionVersion changes whenever anything the collection's responses depend on changes.
	CollectionVersion(collection string) uint64
	// DefinitionsGeneration changes whenever a definition (route, blueprint, ...) changes.
	DefinitionsGeneration() uint64
}

// Searcher runs full-text searches (fsstore.Store implements it).
type Searcher interface {
	// Collections lists the collection definitions.
	Collections() []*content.Collection
	// Search returns a page of the entries of a collection matching q, best first, and how
	// many matched.
	Search(collection string, q search.Query) ([]search.Result, int, error)
}

// Renderer turns Markdown into HTML.
type Renderer interface {
	Render(src string) (string, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store    Store
	Markdown Renderer
	Log      *slog.Logger
	BasePath string // default "/api/public"
	// CacheBytes bounds the cache of encoded entries; 0 = 128 MiB, negative = no cache.
	CacheBytes int64
	// ListCacheBytes bounds the cache of list responses; 0 = a quarter of CacheBytes, negative =
	// no cache.
	ListCacheBytes int64
	// Caches, if set, reports the group's caches (publicEntries.entries, publicEntries.lists).
	Caches *lru.Registry
	// Search, if set, serves {base}/search; New takes it from Store when Store can search.
	Search Searcher
}

type api struct {
	Deps
	entries cache[entryKey] // encoded entry, valid for one file hash + definitions
	lists   cache[string]   // collection + query -> whole response, valid for one collection version
}

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	var errs []error
	if d.Store == nil {
		errs = append(errs, errors.New("publicentries: Store is required"))
	}
	if d.Markdown == nil {
		errs = append(errs, errors.New("publicentries: Markdown is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.BasePath == "" {
		d.BasePath = "/api/public"
	}
	d.BasePath = strings.TrimSuffix(d.BasePath, "/")
	if d.CacheBytes == 0 {
		d.CacheBytes = 128 << 20
	}
	if d.ListCacheBytes == 0 {
		d.ListCacheBytes = d.CacheBytes / 4
	}
	if s, ok := d.Store.(Searcher); ok && d.Search == nil {
		d.Search = s
	}
	a := &api{Deps: d, entries: newCache[entryKey](d.CacheBytes), lists: newCache[string](d.ListCacheBytes)}
	d.Caches.Register("publicEntries.entries", a.entries.lru)
	d.Caches.Register("publicEntries.lists", a.lists.lru)
	rt := web.NewRouter()
	rt.HandleFunc("GET "+d.BasePath+"/entries/{collection}", a.list)
	rt.HandleFunc("GET "+d.BasePath+"/entries/{collection}/{slug}", a.get)
	rt.HandleFunc("GET "+d.BasePath+"/search", a.search)
	rt.NotFound(d.BasePath + "/")
	return rt, nil
}

// Prefixes are the path prefixes the group serves under a base path.
func Prefixes(basePath string) []string {
	if basePath == "" {
		basePath = "/api/public"
	}
	return []string{strings.TrimSuffix(basePath, "/") + "/"}
}
