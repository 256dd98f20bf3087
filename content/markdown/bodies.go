package markdown

import (
	"unsafe"

	"cms/content"
	"cms/content/lru"
	"cms/content/packed"
)

// Body is an entry's Markdown body and its HTML, as of the file of Version (content.VersionOf).
type Body struct {
	Version string
	Content string
	HTML    string
}

type bodyKey struct{ collection, slug string }

// kept is a kept body: the Markdown and the HTML together, as they are while the budget holds
// them, compressed (packed, about half the size) once it binds, before any is dropped
// (lru.Cache.SetShrink): expanding one costs a microsecond or two, reading and rendering the
// file a hundred times that.
type kept struct {
	version    string
	contentLen int
	text       packed.Bytes
	cost       int64 // what Put was told, Overhead aside
}

// Bodies keeps the rendered bodies of entries, bounded, for every surface that shows them (the
// website's pages, the public API's entries): an entry whose file is unchanged is neither read
// nor rendered again, whichever asked first. A body is valid for its file's Version, which the
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

// Get returns the kept body of collection/slug when it is of the file of version.
func (b *Bodies) Get(collection, slug, version string) (Body, bool) {
	if b == nil || version == "" || !b.cache.Enabled() {
		return Body{}, false
	}
	k, ok := b.cache.GetValid(bodyKey{collection, slug}, func(x kept) bool { return x.version == version })
	if !ok {
		return Body{}, false
	}
	buf, err := k.text.AppendTo(make([]byte, 0, k.text.Len()))
	if err != nil || k.contentLen > len(buf) {
		return Body{}, false
	}
	text := unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is this call's, never written again
	return Body{Version: k.version, Content: text[:k.contentLen], HTML: text[k.contentLen:]}, true
}

// Render renders a read entry's body and keeps it under its collection, slug and Version.
func (b *Bodies) Render(e *content.Entry) (Body, error) {
	html, err := b.r.Render(e.Content)
	if err != nil {
		return Body{}, err
	}
	body := Body{Version: e.Version, Content: e.Content, HTML: html}
	if e.Version != "" && b.cache.Enabled() {
		text := packed.Raw(append(append(make([]byte, 0, len(e.Content)+len(html)), e.Content...), html...))
		cost := int64(len(e.Collection) + len(e.Slug) + len(e.Version) + text.Size())
		b.cache.Put(bodyKey{e.Collection, e.Slug}, kept{version: e.Version, contentLen: len(e.Content), text: text, cost: cost}, cost)
	}
	return body, nil
}
