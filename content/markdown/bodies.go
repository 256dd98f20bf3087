package markdown

import (
	"bytes"
	"compress/flate"
	"io"
	"sync"

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

// packed is a kept body: the Markdown and the HTML deflated together, about a third of their
// size, so the cache holds three times as many entries (inflating costs a fraction of reading
// and rendering the file).
type packed struct {
	hash       string
	contentLen int
	z          []byte
}

// Bodies keeps the rendered bodies of entries, bounded, for every surface that shows them (the
// website's pages, the public API's entries): an entry whose file is unchanged is neither read
// nor rendered again, whichever asked first. A body is valid for its file's hash, which the
// entry index knows without reading the file. Safe for concurrent use; a nil *Bodies keeps
// nothing.
type Bodies struct {
	r     *Renderer
	cache *lru.Cache[bodyKey, packed]
}

// NewBodies returns a cache of at most maxBytes of bodies rendered by r.
func NewBodies(r *Renderer, maxBytes int64) *Bodies {
	return &Bodies{r: r, cache: lru.New[bodyKey, packed](maxBytes)}
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
	p, ok := b.cache.GetValid(bodyKey{collection, slug}, func(x packed) bool { return x.hash == hash })
	if !ok {
		return Body{}, false
	}
	text, err := inflate(p.z)
	if err != nil || p.contentLen > len(text) {
		return Body{}, false
	}
	return Body{Hash: p.hash, Content: text[:p.contentLen], HTML: text[p.contentLen:]}, true
}

// Render renders a read entry's body and keeps it under its collection, slug and hash.
func (b *Bodies) Render(e *content.Entry) (Body, error) {
	html, err := b.r.Render(e.Content)
	if err != nil {
		return Body{}, err
	}
	body := Body{Hash: e.Hash, Content: e.Content, HTML: html}
	if e.Hash != "" && b.cache.Enabled() {
		if z, err := deflate(e.Content, html); err == nil {
			b.cache.Put(bodyKey{e.Collection, e.Slug}, packed{hash: e.Hash, contentLen: len(e.Content), z: z},
				int64(len(e.Collection)+len(e.Slug)+len(e.Hash)+len(z)))
		}
	}
	return body, nil
}

var writers, readers sync.Pool

func deflate(parts ...string) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := writers.Get().(*flate.Writer)
	if zw == nil {
		zw, _ = flate.NewWriter(&buf, flate.BestSpeed)
	} else {
		zw.Reset(&buf)
	}
	defer writers.Put(zw)
	for _, p := range parts {
		if _, err := io.WriteString(zw, p); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

func inflate(z []byte) (string, error) {
	zr, _ := readers.Get().(io.ReadCloser)
	if zr == nil {
		zr = flate.NewReader(bytes.NewReader(z))
	} else if err := zr.(flate.Resetter).Reset(bytes.NewReader(z), nil); err != nil {
		return "", err
	}
	defer readers.Put(zr)
	var sb bytes.Buffer
	sb.Grow(4 * len(z))
	if _, err := io.Copy(&sb, zr); err != nil {
		return "", err
	}
	return sb.String(), nil
}
