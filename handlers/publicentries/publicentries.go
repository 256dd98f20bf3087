// Package publicentries serves published entries, and the definitions and resources that opt in
// with `public: true`, to anonymous clients:
//
//	GET {base}/entries/{collection}         list, with limit, offset, sort, filter and fields
//	GET {base}/entries/{collection}/{slug}  one entry, with its resolved SEO metadata
//	GET {base}/collections                  public collection definitions
//	GET {base}/globals/{handle}             a public global's values
//	GET {base}/navigation/{handle}          a public navigation, published targets only
//	GET {base}/taxonomies/{handle}          a public taxonomy's terms
//	GET {base}/taxonomies/{handle}/{slug}   one term
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
	"sync"

	"cms/content"
	"cms/content/lru"
	"cms/content/markdown"
	"cms/content/query"
	"cms/content/routing"
	"cms/content/search"
	"cms/content/seo"
	"cms/handlers/apidoc"
	"cms/handlers/web"
)

// Store is what the public API reads. The entry records Entries and EntryMeta return are never
// changed afterwards (a changed file gets a new record): the API keeps its encodings valid for
// the record they were made from.
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
	// Bodies, if set, are the rendered entry bodies the website keeps: an entry a page showed is
	// not read or rendered again here. The API does not add to them (it caches its encodings).
	Bodies *markdown.Bodies
	// Resources, if set, serves the public globals, navigation, taxonomies and collections.
	Resources ResourceStore
	// Preview, if set, lets GET {base}/entries/{collection}/{slug}?preview=TOKEN show the
	// entry's current draft to the holder of a preview token for it (preview.go).
	Preview  PreviewVerifier
	Log      *slog.Logger
	BasePath string // default "/api/public"
	// CacheBytes bounds the cache of encoded entries; 0 = 128 MiB, negative = no cache.
	CacheBytes int64
	// ListCacheBytes bounds the cache of list responses; 0 = a quarter of CacheBytes, negative =
	// no cache.
	ListCacheBytes int64
	// Caches, if set, reports the group's caches (publicEntries.entries, publicEntries.lists).
	Caches *lru.Registry
	// SEO, if set, resolves the `seo` member of a single entry (not of lists), so a headless
	// frontend renders the same tags as the site.
	SEO *seo.Resolver
	// Site returns the site a request is for (its canonical URLs); required with SEO.
	Site func(*http.Request) content.Site
	// APIDoc, when set, is served anonymously at GET {BasePath}/openapi.json (the public part).
	APIDoc *apidoc.Doc
	// Sites, if set, are the configured sites: a request answers for the site its Host names
	// (as the website does), so a collection that lists other sites (`sites:`) is not found.
	Sites []content.Site
	// Search, if set, serves {base}/search; New takes it from Store when Store can search.
	Search Searcher
}

type api struct {
	Deps
	sites   *routing.Sites        // nil: every collection is public everywhere
	entries packedCache[entryKey] // encoded entry, valid for one file hash + definitions
	lists   cache[string]         // collection + query -> whole response, valid for one collection version
	seen    *doorkeeper           // list queries asked recently, which lists admits
	// bufs are the buffers responses are built in (*[]byte).
	bufs sync.Pool
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
	if d.SEO != nil && d.Site == nil {
		errs = append(errs, errors.New("publicentries: Site is required with SEO"))
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
	a := &api{Deps: d, entries: newPackedCache[entryKey](d.CacheBytes), lists: newCache[string](d.ListCacheBytes), seen: newDoorkeeper()}
	if len(d.Sites) > 0 {
		a.sites = routing.NewSites(d.Sites)
	}
	d.Caches.Register("publicEntries.entries", a.entries.lru)
	d.Caches.Register("publicEntries.lists", a.lists.lru)
	rt := web.NewRouter()
	rt.HandleFunc("GET "+d.BasePath+"/entries/{collection}", a.list)
	rt.HandleFunc("GET "+d.BasePath+"/entries/{collection}/{slug}", a.get)
	for _, ro := range a.resourceRoutes() {
		rt.HandleFunc(ro.pattern, ro.h)
	}
	if d.APIDoc != nil {
		// GET {base}/openapi.json: the public part of the OpenAPI document.
		rt.HandleFunc("GET "+d.BasePath+"/openapi.json", func(w http.ResponseWriter, r *http.Request) error { return d.APIDoc.Write(w, r) })
	}
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
