// Package cachewarm requests every routed published page of the website so that the static
// page cache holds it: `cms cache warm` (local) and POST /api/cache/warm (the settings group).
package cachewarm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"

	"cms/content"
	"cms/content/query"
	"cms/runtime/wire"
)

// Target is one page to request: its site's host and the full path.
type Target struct{ Host, Path string }

// Result counts what a warm did. Failed lists "host/path: status", sorted.
type Result struct {
	Requested, Stored, Cached int
	Failed                    []string
}

// Targets lists the routed published URLs (the home page, each published entry with a route,
// each public term) of the configured sites, or of the one named by handle.
func Targets(svc *wire.Services, handle string) ([]Target, error) {
	var sites []content.Site
	for _, st := range svc.Config.ContentSites() {
		if handle == "" || st.Handle == handle {
			sites = append(sites, st)
		}
	}
	if len(sites) == 0 {
		return nil, fmt.Errorf("cache warm: no configured site %q", handle)
	}
	var out []Target
	seen := map[Target]bool{}
	for _, st := range sites {
		u, err := url.Parse(st.URL)
		if err != nil {
			return nil, fmt.Errorf("cache warm: site %s: %w", st.Handle, err)
		}
		add := func(p string) {
			t := Target{Host: u.Host, Path: st.Link(st.PagePath(p))}
			if p == "/" && st.BasePath() != "" {
				t.Path = st.BasePath()
			}
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
		add("/")
		for _, c := range svc.Store.Collections() {
			if !c.OnSite(st.Handle) {
				continue
			}
			list, _, err := svc.Store.Entries(c.Handle, query.Query{Status: content.StatusPublished})
			if err != nil {
				return nil, err
			}
			for _, e := range list {
				if p := content.EntryURL(c, e); p != "" && e.Published() {
					add(p)
				}
			}
		}
		for _, tax := range svc.Store.Taxonomies() {
			terms, err := svc.Store.Terms(tax.Handle)
			if err != nil {
				return nil, err
			}
			for _, term := range terms {
				if s, _ := term.Data.String("status"); s == content.StatusDraft {
					continue
				}
				if p := content.TermURL(tax, term); p != "" {
					add(p)
				}
			}
		}
	}
	return out, nil
}

// Run requests the targets through h (the website), concurrency at once, as an anonymous
// browser would; progress (may be nil) hears the count done after each page, one call at a time. It stops early
// when ctx ends, and returns ctx's error then.
func Run(ctx context.Context, h http.Handler, targets []Target, concurrency int, progress func(done, total int)) (Result, error) {
	var (
		next, stored, cached atomic.Int64
		done                 int
		mu                   sync.Mutex
		failures             []string
		wg                   sync.WaitGroup
	)
	for range min(max(1, concurrency), max(1, len(targets))) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(targets) || ctx.Err() != nil {
					return
				}
				t := targets[i]
				status, state := one(ctx, h, t)
				switch {
				case status >= 300 && status < 400:
					// An authored redirect moves this page (the starter's /home): there is
					// nothing to store and nothing failed; it counts as not stored.
				case status != http.StatusOK:
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s%s: %d", t.Host, t.Path, status))
					mu.Unlock()
				case state == "MISS":
					stored.Add(1)
				case state == "HIT":
					cached.Add(1)
				}
				if progress != nil {
					mu.Lock() // one call at a time, counts in order
					done++
					progress(done, len(targets))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	slices.Sort(failures)
	return Result{Requested: len(targets), Stored: int(stored.Load()), Cached: int(cached.Load()), Failed: failures}, ctx.Err()
}

// one requests one page and returns its status and X-Cache.
func one(ctx context.Context, h http.Handler, t Target) (int, string) {
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+t.Host+t.Path, nil)
	if err != nil {
		return 0, ""
	}
	r.Host = t.Host
	r.RequestURI = t.Path
	r.Header.Set("Accept", "text/html")
	w := &discardWriter{header: http.Header{}}
	h.ServeHTTP(w, r)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.status, w.header.Get("X-Cache")
}

// discardWriter keeps a response's status and headers, not its body.
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.header }
func (w *discardWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *discardWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return len(b), nil
}
