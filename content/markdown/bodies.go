package markdown

import (
	"cms/content"
	"cms/content/lru"
	"cms/content/packed"
)

// Body is an entry's Markdown body and its HTML, as of the file with Hash.
type Body struct {
	Hash    string
	Content string
	HTML    string
}

type bodyKey struct{ collection, slug string }

// kept is a kept body: the Markdown and the HTML together, as they are while the budget holds
// them, compressed (packed, about half the size) once it binds, before any is dropped
// (lru.Cache.SetShrink): expanding one costs a microsecond or two, reading and rendering the
// file a hundred times that.
type kept struct {
	hash       string
	contentLen int
	text       packed.Bytes
	cost       int64 // what Put was told, Overhead aside
}

// Bodies keeps the rendered bodies of entries, bounded, for every surface that shows them (the
// website's pages, the public API's entries): an entry whose file is unchanged is neither read
// nor rendered again, whichever asked first. A body is valid for its file's hash, which the
// entry index knows without reading the file. Safe for concurrent use; a nil *Bodies keeps
// nothing.
type Bodies struct {
	r     *Renderer
	cache *lru.Cache[bodyKey, kept]
}

// NewBodies returns a cache of at most maxBytes of bodies rendered by r.
func NewBodies(r *Renderer, maxBytes int64) *Bodies {
	c := lru.New[bodyKey, kept](maxBytes)
	c.SetShrink(func(k kept) (kept, int64, bool) {
		var ok bool
		k.text, k.cost, ok = k.text.Shrink(k.cost)
		return k, k.cost, ok
	})
	return &Bodies{r: r, cache: c}
}

// Stats reports the cache (lru.Registry).
func (b *Bodies) Stats() lru.Stats { return b.cache.Stats() }

// JoinPool lets the cache lend and borrow budget with the process's other caches (lru.Registry).
func (b *Bodies) JoinPool(p *lru.Pool) { b.cache.JoinPool(p) }

// Get returns the kept body of collection/slug when it is of the file with hash.
func (b *Bodies) Get(collection, slug, hash string) (Body, bool) {
	if b == nil || hash == "" || !b.cache.Enabled() {
		return Body{}, false
	}
	k, ok := b.cache.GetValid(bodyKey{collection, slug}, func(x kept) bool { return x.hash == hash })
	if !ok {
		return Body{}, false
	}
	buf, err := k.text.AppendTo(make([]byte, 0, k.text.Len()))
	if err != nil || k.contentLen > len(buf) {
		return Body{}, false
	}
	text := string(buf)
	return Body{Hash: k.hash, Content: text[:k.contentLen], HTML: text[k.contentLen:]}, true
}

// Render renders a read entry's body and keeps it under its collection, slug and hash.
func (b *Bodies) Render(e *content.Entry) (Body, error) {
	html, err := b.r.Render(e.Content)
	if err != nil {
		return Body{}, err
	}
	body := Body{Hash: e.Hash, Content: e.Content, HTML: html}
	if e.Hash != "" && b.cache.Enabled() {
		text := packed.Raw(append(append(make([]byte, 0, len(e.Content)+len(html)), e.Content...), html...))
		cost := int64(len(e.Collection) + len(e.Slug) + len(e.Hash) + text.Size())
		b.cache.Put(bodyKey{e.Collection, e.Slug}, kept{hash: e.Hash, contentLen: len(e.Content), text: text, cost: cost}, cost)
	}
	return body, nil
}
