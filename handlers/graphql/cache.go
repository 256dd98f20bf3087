package graphql

import (
	"github.com/graphql-go/graphql/language/ast"

	"cms/content/lru"
)

// Bounds of the document cache: parsing and validating a query is the expensive part of a small
// query, so validated documents are kept by query text. Large queries are rare and not kept.
const (
	maxCachedQueryBytes  = 16 << 10
	defaultDocCacheBytes = 2 << 20
)

// docEntry is a parsed document that passed validation against the schema of generation gen.
// It is never modified once cached.
type docEntry struct {
	gen uint64
	doc *ast.Document
}

// docCache holds validated documents keyed by query text ([lru.Cache]): at most size of them
// and maxBytes of query text.
type docCache struct {
	lru     *lru.Cache[string, *docEntry]
	minCost int64 // each document's share of the budget when size of them fill it
}

func newDocCache(size int, maxBytes int64) docCache {
	if size <= 0 || maxBytes <= 0 {
		return docCache{lru: lru.New[string, *docEntry](0)}
	}
	return docCache{lru: lru.New[string, *docEntry](maxBytes), minCost: maxBytes/int64(size) - lru.Overhead}
}

// get returns the document cached for query under schema generation gen.
func (c docCache) get(gen uint64, query string) *docEntry {
	e, ok := c.lru.GetValid(query, func(e *docEntry) bool { return e.gen == gen })
	if !ok {
		return nil
	}
	return e
}

// put caches a validated document.
func (c docCache) put(query string, e *docEntry) {
	if len(query) <= maxCachedQueryBytes {
		c.lru.Put(query, e, max(int64(len(query)), c.minCost))
	}
}

// newResultCache returns the cache of encoded responses of entry queries ([lru.Cache]), keyed
// by everything they depend on (schema and content generations, the caller's permissions, the
// query and its variables): responses of older generations are never asked for again and age
// out.
func newResultCache(maxBytes int64) *lru.Cache[string, []byte] {
	return lru.New[string, []byte](maxBytes)
}
