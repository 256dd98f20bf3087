// Package entries is the Control Panel API for entries and collection definitions:
//
//	GET    /api/entries/{collection}         list, every status; status, sort, filter, fields, limit, offset;
//	                                         q= searches the full text instead, best first
//	POST   /api/entries/{collection}         create (201)
//	GET    /api/entries/{collection}/{slug}  one entry with its contentHash (also the ETag)
//	PUT    /api/entries/{collection}/{slug}  update; needs the contentHash it was read with
//	DELETE /api/entries/{collection}/{slug}  delete
//	POST   /api/entries/{collection}/{slug}/preview  a short-lived draft-preview token (preview.go)
//	GET    /api/collections                  collection definitions
//	GET    /api/collections/{handle}         one collection definition
//	GET    /api/collections/{handle}/blueprint  its blueprint and set fieldsets (CP editor)
//	POST   /api/collections/{handle}/markdown   Markdown preview as the site renders it (CP editor)
//
// Every endpoint needs a valid session and checks its permission before it reads or writes
// anything. Entry endpoints check entries:<action> scoped to the collection, so an unscoped grant
// covers every collection and a scoped grant only its own. A write that changes whether an entry
// is published also needs entries:publish: creating it published (explicitly, or through the
// collection's defaultStatus), publishing a draft, or unpublishing. So does any update, rename
// or delete of a published entry, which is live at once (access.RequireEntryChange). The reads
// show drafts to whoever may view the collection, as GraphQL does (access.SeesDrafts).
//
// Updates are optimistic: the client sends back the contentHash (the SHA-256 of the file) it read,
// and a file changed since is a 409 CONFLICT. The store serialises writes per file and checks the
// hash again under its lock, so of many updates sent with the same hash exactly one succeeds.
package entries

import (
	"errors"
	"log/slog"
	"net/http"
	"sync"

	"cms/content"
	"cms/content/lru"
	"cms/content/query"
	"cms/content/search"
	"cms/content/validate"
	"cms/handlers/apidoc"
	"cms/handlers/web"
)

// Store is what the group reads and writes: the methods of fsstore.Store it calls.
type Store interface {
	// Collection returns a collection definition, or a NotFound error.
	Collection(handle string) (*content.Collection, error)
	// Collections lists the collection definitions sorted by handle.
	Collections() []*content.Collection
	// Blueprint returns a blueprint of a kind, or a NotFound error.
	Blueprint(kind, handle string) (*content.Blueprint, error)
	// Entries returns the entries matching q without their bodies, and how many matched before
	// paging. It returns a NotFound error for an unknown collection.
	Entries(collection string, q query.Query) ([]*content.Entry, int, error)
	// EntryMeta returns an entry from the in-memory index without its body, or a NotFound error.
	EntryMeta(collection, slug string) (*content.Entry, error)
	// Entry reads an entry with its body and content hash from disk, or returns a NotFound error.
	Entry(collection, slug string) (*content.Entry, error)
	// CreateEntry writes a new entry; a duplicate slug is a Conflict error.
	CreateEntry(e *content.Entry) (*content.Entry, error)
	// UpdateEntry rewrites an entry whose file still has wantHash, renaming it when next.Slug
	// differs. A stale hash or an existing rename target is a Conflict error; a missing entry is
	// a NotFound error.
	UpdateEntry(collection, slug, wantHash string, next *content.Entry) (*content.Entry, error)
	// DeleteEntry removes an entry, or returns a NotFound error.
	DeleteEntry(collection, slug string) error
	// Search returns a page of the entries matching a full-text query, best first, and how many
	// matched.
	Search(collection string, q search.Query) ([]search.Result, int, error)
	// Fieldsets lists the fieldsets sorted by handle (the sets of replicator fields).
	Fieldsets() []*content.Fieldset
}

// Renderer turns Markdown into HTML as the public site does.
type Renderer interface {
	Render(src string) (string, error)
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	// As returns the store whose writes are attributed to an editor (git sync); nil = Store.
	As func(content.Editor) Store
	// Auth identifies callers. When nil every request is answered 401 (the auth services are
	// not built yet).
	Auth web.Authenticator
	// Hooks runs WASM validation hooks named by blueprint rules. When nil, a blueprint that calls
	// a hook refuses the save with HOOK_UNAVAILABLE.
	Hooks validate.HookRunner
	// Markdown renders the CP editor's Markdown preview; without it the preview answers 501.
	Markdown Renderer
	Log      *slog.Logger
	// CacheBytes bounds the cache of encoded entries; 0 means 32 MiB, negative means no cache.
	CacheBytes int64
	// Caches, if set, reports the group's cache (entries).
	Caches *lru.Registry
	// BodyLimit bounds request bodies; 0 means 1 MiB.
	BodyLimit int64
	// Preview, if set, issues draft-preview tokens; PublicBasePath (default /api/public) is
	// where the public API that honours them lives.
	Preview        PreviewSigner
	PublicBasePath string
	// Sites are the configured sites: a preview's url is the entry's page on the collection's
	// site (the default one when the collection is on it).
	Sites []content.Site
	// APIDoc, when set, is served to signed-in callers at GET /api/openapi.json.
	APIDoc *apidoc.Doc
	// Moved, if set, is told when an update changes a published entry's public URL (its slug,
	// or a date its route uses), so that a 301 from the old URL is made (seo.redirects).
	// Unpublishing and deleting are not moves. Its error is logged: the entry is saved by then.
	Moved func(oldPath, newPath string) error
}

type api struct {
	Deps
	cache *lru.Cache[string, fragment]
	bufs  sync.Pool // buffers responses are built in (*[]byte)
}

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("entries: Store is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.CacheBytes == 0 {
		d.CacheBytes = 32 << 20
	}
	if d.BodyLimit <= 0 {
		d.BodyLimit = web.DefaultBodyLimit
	}
	if d.PublicBasePath == "" {
		d.PublicBasePath = "/api/public"
	}
	a := &api{Deps: d, cache: lru.New[string, fragment](d.CacheBytes)}
	a.cache.SetShrink(shrinkFragment)
	a.cache.BorrowAll() // entries are read again: they may fill what the other caches leave
	d.Caches.Register("entries", a.cache)
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/entries/{collection}", a.list)
	rt.HandleFunc("POST /api/entries/{collection}", a.create)
	rt.HandleFunc("GET /api/entries/{collection}/{slug}", a.get)
	rt.HandleFunc("PUT /api/entries/{collection}/{slug}", a.update)
	rt.HandleFunc("DELETE /api/entries/{collection}/{slug}", a.delete)
	if d.Preview != nil {
		rt.HandleFunc("POST /api/entries/{collection}/{slug}/preview", a.preview)
	}
	rt.HandleFunc("GET /api/collections", a.collections)
	rt.HandleFunc("GET /api/collections/{handle}", a.collection)
	if d.APIDoc != nil {
		rt.HandleFunc("GET /api/openapi.json", a.openAPI)
	}
	rt.HandleFunc("GET /api/collections/{handle}/blueprint", a.blueprint)
	rt.HandleFunc("POST /api/collections/{handle}/markdown", a.markdown)
	rt.NotFound("/api/entries/")
	rt.NotFound("/api/collections/")
	return rt, nil
}

// Prefixes are the path prefixes the group serves.
func Prefixes() []string {
	return []string{"/api/entries/", "/api/collections", "/api/collections/", "/api/openapi.json"}
}

// GET /api/openapi.json: the OpenAPI document of the whole HTTP API, for any signed-in caller.
func (a *api) openAPI(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Authenticated(a.Auth, r); err != nil {
		return err
	}
	return a.APIDoc.Write(w, r)
}
