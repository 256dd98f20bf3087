package pagecache

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"cms/content/lru"
)

// InvalidationRule purges URLs matching globs whenever an entry of Collection changes: the way
// to invalidate pages whose reads cannot be recorded (an upstream frontend's pages).
type InvalidationRule struct {
	Collection string
	URLs       []string // path globs, "*" = any characters
}

// Options configure a Cache.
type Options struct {
	Driver Driver // required
	Now    func() time.Time
	// MissTimeout bounds how long requests for a page being rendered wait for that render
	// before rendering on their own (default 5 s).
	MissTimeout       time.Duration
	InvalidationRules []InvalidationRule
	// URL turns a key's site and path into the URL a purge reports (default: the path, under
	// /_sites/<site> for sites other than "default").
	URL func(site, path string) string
	// OnPurge, if set, receives the URLs of each purge that removed any page (a log line, the
	// purge webhook). It must not block.
	OnPurge func(urls []string)
	Log     *slog.Logger
}

// Cache is a page cache: a driver, the dependency index of the stored pages, single flight for
// cold misses, and statistics.
type Cache struct {
	opts Options
	d    Driver

	mu  sync.Mutex // guards idx, seq and the driver's writes relative to purges
	idx *depIndex
	seq uint64 // bumped by every purge; a render that began before one is not stored

	fmu     sync.Mutex
	flights map[string]*flight

	hits, misses atomic.Uint64
	waiting      atomic.Int32 // requests waiting for another's render
	shared       bool         // the driver's pages may come from other processes (file)
}

type flight struct {
	done chan struct{}
	page *Page
}

// ErrTimeout is returned by Do to a request that waited MissTimeout for another's render.
var ErrTimeout = errors.New("pagecache: timed out waiting for the page's render")

// New returns a cache over opts.Driver, indexing the pages it already holds (the file driver's
// pages survive restarts, with what they read).
func New(opts Options) (*Cache, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MissTimeout <= 0 {
		opts.MissTimeout = 5 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.URL == nil {
		opts.URL = func(site, path string) string {
			if site == "default" || site == "" {
				return path
			}
			if path == "/" {
				return "/_sites/" + site
			}
			return "/_sites/" + site + path
		}
	}
	c := &Cache{opts: opts, d: opts.Driver, idx: newDepIndex(), flights: map[string]*flight{}}
	if sh, ok := opts.Driver.(interface{ Shared() bool }); ok {
		c.shared = sh.Shared()
	}
	c.d.SetEvicted(func(key string) { c.idx.remove(key) }) // the driver calls it under c.mu (Put)
	if err := c.d.All(func(p *Page) { c.idx.add(p.Key, p.Deps) }); err != nil {
		return nil, err
	}
	return c, nil
}

// Get returns the stored page of key, unless it expired (then it is dropped).
func (c *Cache) Get(key string) (*Page, bool) {
	p, ok := c.d.Get(key)
	if ok && !p.Expires.IsZero() && !c.opts.Now().Before(p.Expires) {
		c.mu.Lock()
		if cur, ok := c.d.Get(key); ok && cur.ETag == p.ETag && cur.Stored.Equal(p.Stored) {
			_ = c.d.Delete(key)
			c.idx.remove(key)
		}
		c.mu.Unlock()
		ok = false
	}
	if ok {
		c.hits.Add(1)
		if c.shared {
			// Another process may have stored it: index it here too, so this process's purges
			// reach it.
			c.mu.Lock()
			if _, known := c.idx.byKey[key]; !known {
				c.idx.add(key, p.Deps)
			}
			c.mu.Unlock()
		}
	} else {
		c.misses.Add(1)
	}
	return p, ok
}

// Begin marks the start of a render: Put refuses a page whose render began before a purge,
// since it may show what the purge was about.
func (c *Cache) Begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// Put stores a rendered response under key if it is storable (Storable) and no purge happened
// since begin (from Begin). rec is what the render recorded (nil = nothing). It returns the
// stored page, or nil when it stored nothing.
func (c *Cache) Put(key string, begin uint64, status int, h http.Header, body []byte, rec *Recorder) (*Page, error) {
	if !Storable(status, h) {
		return nil, nil
	}
	var deps []Dep
	var expires time.Time
	var ph bool
	if rec != nil {
		deps, expires, ph = rec.snapshot()
	}
	now := c.opts.Now()
	if !expires.IsZero() && !now.Before(expires) {
		return nil, nil
	}
	p := newPage(key, h, body, deps, expires, ph, now)
	if c.shared {
		// The file driver writes with fsyncs: outside the lock, so stores do not queue behind
		// each other; a purge or clear meanwhile takes the page back out below.
		if c.Begin() != begin {
			return nil, nil
		}
		if err := c.d.Put(p); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seq != begin {
		if c.shared {
			_ = c.d.Delete(key)
		}
		return nil, nil
	}
	if !c.shared {
		if err := c.d.Put(p); err != nil {
			return nil, err
		}
	}
	if _, ok := c.d.Get(key); !ok {
		return nil, nil // too large for the driver's budget
	}
	c.idx.add(key, deps)
	return p, nil
}

// Do runs render for key unless a render of key is already under way, in which case it waits
// for that render's page (at most MissTimeout, or until ctx ends: ErrTimeout). leader is true for
// the caller whose render ran. A nil page means the render stored nothing; a waiting caller then
// renders on its own.
func (c *Cache) Do(ctx context.Context, key string, render func() *Page) (p *Page, leader bool, err error) {
	c.fmu.Lock()
	if f, ok := c.flights[key]; ok {
		c.fmu.Unlock()
		c.waiting.Add(1)
		defer c.waiting.Add(-1)
		t := time.NewTimer(c.opts.MissTimeout)
		defer t.Stop()
		select {
		case <-f.done:
			return f.page, false, nil
		case <-t.C:
			return nil, false, ErrTimeout
		case <-ctx.Done():
			return nil, false, ErrTimeout
		}
	}
	f := &flight{done: make(chan struct{})}
	c.flights[key] = f
	c.fmu.Unlock()
	defer func() {
		c.fmu.Lock()
		delete(c.flights, key)
		c.fmu.Unlock()
		close(f.done)
	}()
	f.page = render()
	return f.page, true, nil
}

// Waiting returns how many requests wait for another request's render of their page.
func (c *Cache) Waiting() int { return int(c.waiting.Load()) }

// Purge drops every stored page the change affects and returns their URLs, sorted. It reports
// them to OnPurge when there are any.
func (c *Cache) Purge(ch Change) []string {
	c.mu.Lock()
	c.seq++
	keys := c.idx.affected(ch)
	if ch.Kind == ChangeEntry && len(c.opts.InvalidationRules) > 0 {
		for _, r := range c.opts.InvalidationRules {
			if r.Collection != ch.Collection {
				continue
			}
			for k := range c.idx.byKey {
				_, path := SplitKey(k)
				for _, g := range r.URLs {
					if Glob(g, path) {
						keys[k] = struct{}{}
					}
				}
			}
		}
	}
	urls := make([]string, 0, len(keys))
	for k := range keys {
		if err := c.d.Delete(k); err != nil {
			c.opts.Log.Error("static cache: purge failed", "key", k, "err", err)
			continue
		}
		c.idx.remove(k)
		urls = append(urls, c.url(k))
	}
	c.mu.Unlock()
	slices.Sort(urls)
	if len(urls) > 0 && c.opts.OnPurge != nil {
		c.opts.OnPurge(urls)
	}
	return urls
}

func (c *Cache) url(key string) string {
	site, path := SplitKey(key)
	return c.opts.URL(site, path)
}

// Clear drops every page and returns how many there were.
func (c *Cache) Clear() (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.idx = newDepIndex()
	return c.d.Clear()
}

// Stats reports entries, bytes and lookups in the form of the service's other caches, for the
// readiness details.
func (c *Cache) Stats() lru.Stats {
	n, b, m := c.d.Stats()
	return lru.Stats{Entries: n, Bytes: b, MaxBytes: m, Hits: c.hits.Load(), Misses: c.misses.Load()}
}
