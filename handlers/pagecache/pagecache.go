// Package pagecache serves public pages through the static page cache (content/pagecache):
// Wrap puts it in front of a page handler, deciding bypass, hit and miss, answering
// conditional requests and Accept-Encoding from the stored variants, filling per-response
// placeholders, and handing the page handler a Recorder in its request context so the
// renderer records what each page reads. Notifier reports purges (log line, optional webhook).
package pagecache

import (
	"bytes"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"cms/content/pagecache"
	"cms/handlers/web"
)

// Cache states of the X-Cache response header.
const (
	Hit    = "HIT"
	Miss   = "MISS"
	Bypass = "BYPASS"
)

// Config configures Wrap.
type Config struct {
	Cache *pagecache.Cache
	Rules *pagecache.Rules
	// Site returns the handle of the configured site a request's host matches; ok is false for
	// a host that matches none (such requests bypass the cache).
	Site func(r *http.Request) (handle string, ok bool)
	// Fill returns fresh per-response values of placeholders by name (a CSRF or form token).
	Fill map[string]func(r *http.Request) string
	// MaxPageBytes is the largest response captured for storing (default 8 MiB); a larger one
	// is streamed to its client and not stored.
	MaxPageBytes int64
	Log          *slog.Logger
}

// Wrap returns next behind the cache.
func Wrap(next http.Handler, cfg Config) http.Handler {
	if cfg.MaxPageBytes <= 0 {
		cfg.MaxPageBytes = 8 << 20
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &wrapper{next: next, cfg: cfg}
}

type wrapper struct {
	next http.Handler
	cfg  Config
}

func (h *wrapper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	site, known := h.cfg.Site(r)
	reason := h.cfg.Rules.Bypass(r.Method, r.URL.Path, r.Header, known)
	var key string
	if reason == "" {
		var ok bool
		key, ok = h.cfg.Rules.Key(site, r.URL.Path, r.URL.RawQuery)
		// A path spelled unusually (an escaped "/") may route elsewhere than the path it decodes
		// to: never store it under that path's key.
		if !ok || r.URL.RawPath != "" {
			reason = pagecache.ReasonKey
		}
		// A draft preview (?preview=TOKEN) depends on its token: never a stored page, even
		// where query strings are ignored.
		if reason == "" && strings.Contains(r.URL.RawQuery, "preview") && r.URL.Query().Has("preview") {
			reason = pagecache.ReasonPreview
		}
	}
	if reason != "" {
		w.Header().Set("X-Cache", Bypass)
		h.next.ServeHTTP(w, r)
		return
	}
	if p, ok := h.cfg.Cache.Get(key); ok {
		h.serve(w, r, p, Hit)
		return
	}
	if r.Method == http.MethodHead {
		// HEAD never fills the cache: it renders nothing to store.
		w.Header().Set("X-Cache", Miss)
		h.next.ServeHTTP(w, r)
		return
	}
	var own *capture // the leader's response, when it was not stored
	p, leader, err := h.cfg.Cache.Do(r.Context(), key, func() *pagecache.Page {
		rec := pagecache.NewRecorder()
		begin := h.cfg.Cache.Begin()
		own = &capture{w: w, header: http.Header{}, max: h.cfg.MaxPageBytes, fill: h.filler(r)}
		h.next.ServeHTTP(own, r.WithContext(pagecache.WithRecorder(r.Context(), rec)))
		if own.streaming {
			return nil
		}
		p, err := h.cfg.Cache.Put(key, begin, own.status(), own.header, own.buf.Bytes(), rec)
		if err != nil {
			h.cfg.Log.Error("static cache: store failed", "key", key, "err", err)
			return nil
		}
		return p
	})
	switch {
	case p != nil && leader:
		h.serve(w, r, p, Miss)
	case p != nil:
		h.serve(w, r, p, Hit) // another request's render, served from the cache
	case leader:
		own.finish()
	default:
		if err != nil {
			h.cfg.Log.Warn("static cache: render of another request took too long; rendering again", "key", key)
		}
		w.Header().Set("X-Cache", Miss)
		h.next.ServeHTTP(w, r)
	}
}

// filler returns the placeholder values of one response.
func (h *wrapper) filler(r *http.Request) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if f := h.cfg.Fill[name]; f != nil {
			return f(r), true
		}
		return "", false
	}
}

// serve writes a stored page: 304 when If-None-Match names its ETag, else the variant the
// request's Accept-Encoding admits, with placeholders filled.
func (h *wrapper) serve(w http.ResponseWriter, r *http.Request, p *pagecache.Page, state string) {
	hd := w.Header()
	for _, kv := range p.Header {
		hd.Add(kv[0], kv[1])
	}
	hd.Set("X-Cache", state)
	hd.Set("ETag", p.ETag)
	if p.Gzip != nil || p.Brotli != nil {
		hd.Add("Vary", "Accept-Encoding")
	}
	if p.Placeholders {
		// Each response carries its own token: no shared cache may keep it.
		hd.Set("Cache-Control", "private, no-cache")
	}
	if web.NoneMatch(r, p.ETag) || web.NoneMatch(r, trimWeak(p.ETag)) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	var body []byte
	if p.Placeholders {
		body = pagecache.Fill(p.Body, h.filler(r))
	} else {
		var enc string
		enc, body = p.Encoding(r.Header.Get("Accept-Encoding"))
		if enc != "" {
			hd.Set("Content-Encoding", enc)
		}
	}
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	_ = web.SendBody(w, r, http.StatusOK, body) // an error: the client went away
}

func trimWeak(tag string) string {
	if len(tag) > 2 && tag[:2] == "W/" {
		return tag[2:]
	}
	return tag
}

// capture buffers a page handler's response so it can be stored; past max bytes it gives up and
// streams the rest to the client.
type capture struct {
	w         http.ResponseWriter
	header    http.Header
	code      int
	buf       bytes.Buffer
	max       int64
	streaming bool
	fill      func(string) (string, bool)
}

func (c *capture) Header() http.Header { return c.header }

func (c *capture) WriteHeader(code int) {
	if c.code == 0 {
		c.code = code
	}
}

func (c *capture) status() int {
	if c.code == 0 {
		return http.StatusOK
	}
	return c.code
}

func (c *capture) Write(b []byte) (int, error) {
	if c.code == 0 {
		c.code = http.StatusOK
	}
	if c.streaming {
		return c.w.Write(pagecache.Fill(b, c.fill))
	}
	if int64(c.buf.Len()+len(b)) <= c.max {
		return c.buf.Write(b)
	}
	c.streaming = true
	c.sendHeader(false)
	if _, err := c.w.Write(pagecache.Fill(c.buf.Bytes(), c.fill)); err != nil {
		return 0, err
	}
	c.buf.Reset()
	return c.w.Write(pagecache.Fill(b, c.fill))
}

func (c *capture) sendHeader(withLength bool) {
	hd := c.w.Header()
	for k, v := range c.header {
		hd[k] = v
	}
	hd.Set("X-Cache", Miss)
	if !withLength {
		hd.Del("Content-Length")
	}
	c.w.WriteHeader(c.status())
}

// finish sends a response that was captured but not stored, placeholders filled.
func (c *capture) finish() {
	if c.streaming {
		return
	}
	body := pagecache.Fill(c.buf.Bytes(), c.fill)
	if len(body) != c.buf.Len() {
		c.header.Set("Content-Length", strconv.Itoa(len(body)))
	}
	c.sendHeader(true)
	_, _ = c.w.Write(body)
}
