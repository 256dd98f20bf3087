package markdown

import (
	"cms/content"
	"cms/content/lru"
)

// Body is an entry's Markdown body and its HTML, as of the file with Hash.
type Body struct {
	Hash    string
	Content string
	HTML    string
}

type bodyKey struct{ collection, slug string }

// Bodies keeps the rendered bodies of entries, bounded, for every surface that shows them (the
// website's pages, the public API's entries): an entry whose file is unchanged is neither read
// nor rendered again, whichever asked first. A body is valid for its file's hash, which the
// entry index knows without reading the file. Safe for concurrent use; a nil *Bodies keeps
// nothing.
type Bodies struct {
	r     *Renderer
	cache *lru.Cache[bodyKey, Body]
}

// NewBodies returns a cache of at most maxBytes of bodies rendered by r.
func NewBodies(r *Renderer, maxBytes int64) *Bodies {
	return &Bodies{r: r, cache: lru.New[bodyKey, Body](maxBytes)}
}

// Stats reports the cache (lru.Registry).
func (b *Bodies) Stats() lru.Stats { return b.cache.Stats() }

// Get returns the kept body of collection/slug when it is of the file with hash.
func (b *Bodies) Get(collection, slug, hash string) (Body, bool) {
	if b == nil || hash == "" {
		return Body{}, false
	}
	return b.cache.GetValid(bodyKey{collection, slug}, func(x Body) bool { return x.Hash == hash })
}

// Render renders a read entry's body and keeps it under its collection, slug and hash.
func (b *Bodies) Render(e *content.Entry) (Body, error) {
	html, err := b.r.Render(e.Content)
	if err != nil {
		return Body{}, err
	}
	body := Body{Hash: e.Hash, Content: e.Content, HTML: html}
	if e.Hash != "" {
		b.cache.Put(bodyKey{e.Collection, e.Slug}, body, int64(len(e.Collection)+len(e.Slug)+len(e.Hash)+len(e.Content)+len(html)))
	}
	return body, nil
}
