package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"

	"cms/content"
	"cms/content/query"
	"cms/runtime/config"
	groupsite "cms/runtime/groups/site"
	"cms/runtime/wire"
)

// maxWarmFailures bounds the failures the summary lists.
const maxWarmFailures = 20

// warmTarget is one page to request: its site's host and the full path.
type warmTarget struct{ host, path string }

// cacheWarm requests every routed published URL (the home page, each published entry with a
// route, each public term) of the configured sites through the public website in this process,
// so the file driver holds them when the server starts or before traffic arrives.
func cacheWarm(ctx context.Context, e env, dir, handle string, concurrency int) error {
	cfg, _, err := config.Load(dir, e.getenv)
	if err != nil {
		return err
	}
	switch {
	case !cfg.StaticCache.Enabled:
		return fmt.Errorf("cache warm: staticCache.enabled is false: no process would serve the pages")
	case cfg.StaticCache.Driver != "file":
		return fmt.Errorf("cache warm: staticCache.driver is %s: its pages live in the serving process; warm a file cache", cfg.StaticCache.Driver)
	case concurrency < 1 || concurrency > 64:
		return fmt.Errorf("cache warm: --concurrency must be 1 to 64, not %d", concurrency)
	}
	cfg.Watch = "none"
	svc, err := wire.NewServices(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer svc.Close()
	h, err := groupsite.Build(svc)
	if err != nil {
		return err
	}
	targets, err := warmTargets(svc, handle)
	if err != nil {
		return err
	}
	var (
		next, done, stored, cached atomic.Int64
		mu                         sync.Mutex
		failures                   []string
		wg                         sync.WaitGroup
	)
	progress := max(1, len(targets)/20)
	for range min(concurrency, max(1, len(targets))) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(targets) || ctx.Err() != nil {
					return
				}
				t := targets[i]
				status, state := warmOne(ctx, h, t)
				switch {
				case status != http.StatusOK:
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s%s: %d", t.host, t.path, status))
					mu.Unlock()
				case state == "MISS":
					stored.Add(1)
				case state == "HIT":
					cached.Add(1)
				}
				if n := done.Add(1); n%int64(progress) == 0 || int(n) == len(targets) {
					fmt.Fprintf(e.stderr, "cache warm: %d/%d\n", n, len(targets))
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "cache warm: %d pages requested: %d stored, %d already cached, %d not stored, %d failed\n",
		len(targets), stored.Load(), cached.Load(), int64(len(targets))-stored.Load()-cached.Load()-int64(len(failures)), len(failures))
	if len(failures) == 0 {
		return nil
	}
	slices.Sort(failures)
	for i, f := range failures {
		if i == maxWarmFailures {
			fmt.Fprintf(e.stdout, "  ... and %d more\n", len(failures)-i)
			break
		}
		fmt.Fprintf(e.stdout, "  %s\n", f)
	}
	return fmt.Errorf("cache warm: %d of %d pages failed", len(failures), len(targets))
}

// warmOne requests one page as an anonymous browser would and returns its status and X-Cache.
func warmOne(ctx context.Context, h http.Handler, t warmTarget) (int, string) {
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+t.host+t.path, nil)
	if err != nil {
		return 0, ""
	}
	r.Host = t.host
	r.RequestURI = t.path
	r.Header.Set("Accept", "text/html")
	w := &discardWriter{header: http.Header{}}
	h.ServeHTTP(w, r)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.status, w.header.Get("X-Cache")
}

// warmTargets lists the routed published URLs of the configured sites (or of the one named).
func warmTargets(svc *wire.Services, handle string) ([]warmTarget, error) {
	var sites []content.Site
	for _, st := range svc.Config.ContentSites() {
		if handle == "" || st.Handle == handle {
			sites = append(sites, st)
		}
	}
	if len(sites) == 0 {
		return nil, fmt.Errorf("cache warm: no configured site %q", handle)
	}
	var out []warmTarget
	seen := map[warmTarget]bool{}
	for _, st := range sites {
		u, err := url.Parse(st.URL)
		if err != nil {
			return nil, fmt.Errorf("cache warm: site %s: %w", st.Handle, err)
		}
		add := func(p string) {
			t := warmTarget{host: u.Host, path: st.BasePath() + p}
			if p == "/" && st.BasePath() != "" {
				t.path = st.BasePath()
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
