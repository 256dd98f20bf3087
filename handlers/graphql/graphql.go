// Package graphql serves the GraphQL API:
//
//	POST {path}   {"query", "variables", "operationName"} as JSON
//	GET  {path}?query=...&variables=...&operationName=...   queries only
//
// with {path} = /api/graphql unless configured otherwise. The schema is generated from the
// collection definitions and their blueprints: per collection a single-entry query and a list
// query named by queryNames (naming.go), with the blueprint's fields flattened onto the entry
// type under the names sanitizeField gives them. Globals and navigation trees are
// queried with global/globals and navigation/navigations. The schema is rebuilt when the store's
// definitions generation changes, never per request.
//
// Every query field checks the caller's permission (entries:view scoped to the collection,
// globals:view, navigation:view); failures are GraphQL errors with extensions.code and HTTP
// status 200. Only published entries are returned unless the caller asks for drafts (status
// "draft" or "all"), so a frontend never shows a draft by accident; drafts are visible to whoever
// may view the collection's entries, as in the Control Panel API (access.SeesDrafts).
//
// Introspection (__schema, __type) is off in production; where it is on it needs a session, as
// the schema names every collection and field.
//
// Queries are bounded before they run: depth, complexity (a list query costs its limit times its
// selection), a per-request timeout and a body size limit. Parsed and validated documents are
// cached by query text, and responses of entry queries are cached per permission set until the
// content changes.
package graphql

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"cms/content"
	"cms/content/lru"
	"cms/content/query"
	"cms/content/seo"
	"cms/handlers/web"
)

// Store is what the GraphQL API reads. Entry lists come from the store's in-memory index; entry
// bodies are read only when content or html is selected.
type Store interface {
	// Collections lists collection definitions sorted by handle.
	Collections() []*content.Collection
	// Collection returns a NotFound error for an unknown collection.
	Collection(handle string) (*content.Collection, error)
	// Blueprint returns a blueprint of a kind with fieldsets resolved, or a NotFound error.
	Blueprint(kind, handle string) (*content.Blueprint, error)
	// Entries returns the matching entries without bodies, and the count before paging.
	Entries(collection string, q query.Query) ([]*content.Entry, int, error)
	// EntryMeta returns an indexed entry without its body, or a NotFound error.
	EntryMeta(collection, slug string) (*content.Entry, error)
	// Entry reads an entry with its body, or returns a NotFound error.
	Entry(collection, slug string) (*content.Entry, error)
	// GlobalDefs lists global definitions sorted by handle.
	GlobalDefs() []*content.GlobalDef
	// GlobalDef returns a NotFound error for an unknown global.
	GlobalDef(handle string) (*content.GlobalDef, error)
	// NavigationDefs lists every navigation (with a definition or a data file), sorted by handle.
	NavigationDefs() []*content.NavigationDef
	// NavigationDef returns a navigation's definition, implicit for a data file without one; a
	// NotFound error for an unknown navigation.
	NavigationDef(handle string) (*content.NavigationDef, error)
	// Global reads the data of a global fresh from disk (empty when it has no data file yet).
	// Whether the global is defined is GlobalDef's answer.
	Global(handle string) (content.Doc, error)
	// Navigation reads the items of a navigation tree fresh from disk (none when it has no data
	// file yet), so a file edited by hand is seen by the next request.
	Navigation(handle string) (content.NavTree, error)
	// DefinitionsGeneration changes whenever anything under resources/ changes.
	DefinitionsGeneration() uint64
	// Generation grows whenever any entry or definition changes.
	Generation() uint64
}

// Renderer turns Markdown into HTML.
type Renderer interface {
	Render(src string) (string, error)
}

// Config are the settings of the group (runtime/config resolves NODE_ENV and graphql.* into it).
type Config struct {
	// Enabled serves the API; when false every request to Path is a 404 (runtime/wire does not
	// even mount the group).
	Enabled bool
	// Introspection allows __schema and __type queries to signed-in callers.
	Introspection bool
	// Path is the endpoint, default /api/graphql.
	Path string
	// MaxDepth bounds the nesting of selections, default 12. Introspection's ofType, which
	// returns one type and never a list, adds no depth.
	MaxDepth int
	// MaxComplexity bounds the cost of a query: every field costs 1, and a list query multiplies
	// the cost of its selection by its limit (100 when omitted). Default 5000.
	MaxComplexity int
	// Timeout bounds the execution of one request, default 10 s.
	Timeout time.Duration
	// MaxBodyBytes bounds a POST body, default 256 KiB.
	MaxBodyBytes int64
	// CacheBytes bounds the response cache; 0 = 32 MiB, negative = no response cache.
	CacheBytes int64
	// DocumentCacheSize bounds the number of parsed queries kept; 0 = 512, negative = none.
	DocumentCacheSize int
	// DocumentCacheBytes bounds the parsed queries kept by their text; 0 = 2 MiB, negative =
	// none.
	DocumentCacheBytes int64
}

// Defaults of Config.
const (
	DefaultPath          = "/api/graphql"
	DefaultMaxDepth      = 12
	DefaultMaxComplexity = 5000
	DefaultTimeout       = 10 * time.Second
	DefaultMaxBodyBytes  = 256 << 10
)

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	// Auth identifies the caller from a Bearer token or the session cookie. Nil means nobody
	// is signed in (every field then answers UNAUTHENTICATED).
	Auth web.Authenticator
	// Markdown renders entry bodies for the html field; without it entries have no html field.
	Markdown Renderer
	Log      *slog.Logger
	Config   Config
	// Caches, if set, reports the group's caches (graphql.results, graphql.documents).
	Caches *lru.Registry
	// SEO, if set, gives entry types an seo field: the resolved metadata, as the public API's
	// single entry carries it, with URLs on Site. Entry urls are links on Site (with a sub-path
	// site's base path; the zero Site: plain paths).
	SEO  *seo.Resolver
	Site content.Site
}

type api struct {
	Deps
	schemas *schemaCache
	docs    docCache
	results *lru.Cache[string, []byte]
}

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("graphql: Store is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	c := &d.Config
	if c.Path == "" {
		c.Path = DefaultPath
	}
	if !strings.HasPrefix(c.Path, "/") || strings.ContainsAny(c.Path, " {}") {
		return nil, errors.New("graphql: Path must start with / and hold no spaces or braces")
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = DefaultMaxDepth
	}
	if c.MaxComplexity <= 0 {
		c.MaxComplexity = DefaultMaxComplexity
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.CacheBytes == 0 {
		c.CacheBytes = 32 << 20
	}
	if c.DocumentCacheSize == 0 {
		c.DocumentCacheSize = 512
	}
	if c.DocumentCacheBytes == 0 {
		c.DocumentCacheBytes = defaultDocCacheBytes
	}
	a := &api{
		Deps:    d,
		schemas: &schemaCache{},
		docs:    newDocCache(c.DocumentCacheSize, c.DocumentCacheBytes),
		results: newResultCache(c.CacheBytes),
	}
	d.Caches.Register("graphql.results", a.results)
	d.Caches.Register("graphql.documents", a.docs.lru)
	rt := web.NewRouter()
	if !c.Enabled {
		rt.NotFound(c.Path)
		return rt, nil
	}
	rt.HandleFunc("POST "+c.Path, a.post)
	rt.HandleFunc("GET "+c.Path, a.get)
	return rt, nil
}

// Prefixes are the paths the group serves: exactly the configured endpoint.
func Prefixes(path string) []string {
	if path == "" {
		path = DefaultPath
	}
	return []string{path}
}
