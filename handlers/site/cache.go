package site

import (
	"bytes"
	"compress/gzip"
	"hash/fnv"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// cachedPage is a rendered page kept for repeat requests, gzip-compressed: a page takes about a
// third of the memory, and most clients take it as it is (others get it decompressed).
type cachedPage struct {
	gz      []byte
	etag    string // of the uncompressed page
	status  int
	version uint64 // what the page was rendered from (see version)
}

// version folds what a page depends on: every entry and definition (the store's generation),
// the templates (the views' generation) and the files read on demand (the data generation).
func (s *site) version(viewsGen uint64) uint64 {
	h := fnv.New64a()
	var b [32]byte
	put := func(i int, v uint64) {
		for k := 0; k < 8; k++ {
			b[i+k] = byte(v >> (8 * k))
		}
	}
	put(0, s.Store.Generation())
	put(8, s.Store.DefinitionsGeneration())
	put(16, viewsGen)
	put(24, s.data.generation())
	h.Write(b[:])
	return h.Sum64()
}

func cacheKey(site, escapedPath, rawQuery string) string {
	return site + "\x00" + escapedPath + "?" + rawQuery
}

// fromCache answers a request from a cached page, if a valid one exists.
func (q *request) fromCache(key string, version uint64) bool {
	if !q.s.pages.Enabled() {
		return false
	}
	p, ok := q.s.pages.GetValid(key, func(p *cachedPage) bool { return p.version == version })
	if !ok {
		return false
	}
	q.sendPage(p.status, nil, p.gz, p.etag)
	return true
}

// toCache keeps a rendered page and returns its compressed form (nil without a cache).
func (q *request) toCache(key string, version uint64, status int, body []byte, etag string) []byte {
	if !q.s.pages.Enabled() {
		return nil
	}
	b := bytes.NewBuffer(make([]byte, 0, len(body)/2))
	zw, _ := gzipPool.Get().(*gzip.Writer)
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(b, gzip.BestSpeed)
	} else {
		zw.Reset(b)
	}
	_, _ = zw.Write(body)
	err := zw.Close()
	gzipPool.Put(zw)
	if err != nil {
		return nil
	}
	// An exact copy: the buffer was sized for half the page, and the budget counts len(gz).
	gz := bytes.Clone(b.Bytes())
	q.s.pages.Put(key, &cachedPage{gz: gz, etag: etag, status: status, version: version}, int64(len(gz)+len(key)+len(etag)+64))
	return gz
}

// sendPage answers a page: gz as it is to a client that accepts gzip, else body (decompressed
// from gz when nil). Each form has its own ETag; either one gets a 304.
func (q *request) sendPage(status int, body, gz []byte, etag string) {
	cache := q.s.CacheControl
	if status != http.StatusOK {
		cache = "no-cache"
	}
	const html = "text/html; charset=utf-8"
	if gz == nil {
		q.sendTagged(status, html, cache, body, etag)
		return
	}
	h := q.w.Header()
	h.Set("Vary", "Accept-Encoding")
	gzTag := strings.TrimSuffix(etag, `"`) + `-gz"`
	if status == http.StatusOK && noneMatchEither(q.r, etag, gzTag) {
		h.Set("Cache-Control", cache)
		h.Set("Etag", etag)
		q.w.WriteHeader(http.StatusNotModified)
		return
	}
	if acceptsGzip(q.r) {
		h.Set("Content-Encoding", "gzip")
		q.sendTagged(status, html, cache, gz, gzTag)
		return
	}
	if body == nil {
		var err error
		if body, err = gunzip(gz); err != nil {
			q.serverError()
			return
		}
	}
	q.sendTagged(status, html, cache, body, etag)
}

// gzipPool and gunzipPool keep gzip writers and readers: a new one allocates its (de)compressor's
// tables, hundreds of KiB for a writer, each time.
var gzipPool, gunzipPool sync.Pool

// gunzip decompresses a cached page.
func gunzip(gz []byte) ([]byte, error) {
	zr, _ := gunzipPool.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(bytes.NewReader(gz))
	} else {
		err = zr.Reset(bytes.NewReader(gz))
	}
	if err != nil {
		return nil, err
	}
	defer gunzipPool.Put(zr)
	b := bytes.NewBuffer(make([]byte, 0, 3*len(gz)))
	_, err = io.Copy(b, zr)
	return b.Bytes(), err
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip (not with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			p := strings.ReplaceAll(params, " ", "")
			return p != "q=0" && p != "q=0.0" && p != "q=0.00" && p != "q=0.000"
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }
