// Package health serves the liveness and readiness endpoints:
//
//	GET /api/health/live   200 while the process serves
//	GET /api/health/ready  200 when every storage folder is usable, else 503 naming the failing check;
//	                       a failing probe (git sync) is "degraded": still 200
package health

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"cms/content/lru"
	"cms/handlers/web"
)

// Folder is one storage folder the service needs.
type Folder struct {
	Name     string // check name, e.g. "content"
	Path     string // absolute or working-directory-relative path
	Writable bool   // must be writable (writes enabled)
}

// Deps are the inputs of the group.
type Deps struct {
	Folders []Folder
	Log     *slog.Logger
	Now     func() time.Time
	Started time.Time
	// Caches, if set, are reported in the readiness details.
	Caches *lru.Registry
	// Queries, if set, counts the entry list queries by how the index answered them, for the
	// readiness details.
	Queries func() QueryStats
	// Background, if set, names the work the store has scheduled or is doing in the
	// background (index snapshot, temp sweep), for the readiness details.
	Background func() []string
	// Probes are checks of optional jobs (git sync): a failure makes the service degraded, not
	// unavailable, since it still serves.
	Probes []Probe
}

// Probe is one check of an optional job; Check returns what is wrong, or nil.
type Probe struct {
	Name  string
	Check func() error
}

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/health/"} }

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if len(d.Folders) == 0 {
		return nil, errors.New("health: at least one folder to check is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Started.IsZero() {
		d.Started = d.Now()
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/health/live", a.live)
	rt.HandleFunc("GET /api/health/ready", a.ready)
	rt.NotFound("/api/health/")
	return rt, nil
}

// Check is the result of one readiness check.
type Check struct {
	Name       string `json:"name"`
	Status     string `json:"status"`
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error,omitempty"`
}

// Report is the body of both endpoints.
type Report struct {
	Status        string  `json:"status"`
	Timestamp     string  `json:"timestamp"`
	UptimeSeconds int64   `json:"uptimeSeconds"`
	Checks        []Check `json:"checks"`
	// Details are the readiness endpoint's extra figures; the liveness endpoint has none.
	Details *Details `json:"details,omitempty"`
}

// Details describe the process beyond its checks.
type Details struct {
	Caches []CacheReport `json:"caches"`
	// CachePool is the budget the caches share (memory.cacheMiB): a cache may hold more than
	// its own maxBytes while the others leave room, never the pool more than its maxBytes.
	CachePool *PoolReport `json:"cachePool,omitempty"`
	Queries   *QueryStats `json:"queries,omitempty"`
	// Background is the store's work in the background: a fresh process is settled (and a
	// benchmark may measure it) once nothing is pending.
	Background *BackgroundReport `json:"background,omitempty"`
}

// BackgroundReport lists the background work under way or scheduled, by name.
type BackgroundReport struct {
	Pending []string `json:"pending"`
}

// PoolReport is what the pooled caches hold together against their shared budget.
type PoolReport struct {
	Bytes    int64 `json:"bytes"`
	MaxBytes int64 `json:"maxBytes"`
}

// QueryStats counts entry list queries since the start by how they were answered: a query the
// index cannot serve (scanned) tests every entry of its collection, so a rising count names
// filters worth a look. Sorted and Seeded count the sorted orders the queries needed: sorted
// from the entries (the first query of an order pays it) or taken from the index snapshot.
type QueryStats struct {
	Indexed uint64 `json:"indexed"` // from equality postings and sorted orders
	Scanned uint64 `json:"scanned"` // by a scan of the collection
	Ranged  uint64 `json:"ranged"`  // indexed queries with a range filter answered from an order
	Sorted  uint64 `json:"sorted"`  // orders sorted from the entries
	Seeded  uint64 `json:"seeded"`  // orders taken from the index snapshot
}

// CacheReport is one in-memory cache: its size against its budget and how often it served.
type CacheReport struct {
	Name string `json:"name"`
	lru.Stats
	HitRatio float64 `json:"hitRatio"`
}

func (a *api) details() *Details {
	d := &Details{Caches: []CacheReport{}}
	for _, c := range a.Caches.Stats() {
		d.Caches = append(d.Caches, CacheReport{Name: c.Name, Stats: c.Stats, HitRatio: math.Round(c.HitRatio()*1e4) / 1e4})
	}
	if a.Queries != nil {
		q := a.Queries()
		d.Queries = &q
	}
	if a.Background != nil {
		d.Background = &BackgroundReport{Pending: a.Background()}
		if d.Background.Pending == nil {
			d.Background.Pending = []string{}
		}
	}
	if a.Caches != nil && a.Caches.Pool != nil {
		d.CachePool = &PoolReport{Bytes: a.Caches.Pool.Bytes(), MaxBytes: a.Caches.Pool.MaxBytes()}
	}
	return d
}

func (a *api) report(status string, checks []Check) Report {
	now := a.Now()
	return Report{Status: status, Timestamp: now.UTC().Format(time.RFC3339Nano), UptimeSeconds: int64(now.Sub(a.Started) / time.Second), Checks: checks}
}

// GET /api/health/live: 200 while the process serves.
func (a *api) live(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "no-store, max-age=0")
	web.WriteJSON(w, http.StatusOK, a.report("ok", []Check{{Name: "process", Status: "ok"}}))
	return nil
}

// GET /api/health/ready: 200 when every storage folder is usable, else 503; "degraded" (200)
// when a probe fails.
func (a *api) ready(w http.ResponseWriter, r *http.Request) error {
	checks := make([]Check, len(a.Folders))
	var wg sync.WaitGroup
	for i, f := range a.Folders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := a.Now()
			err := checkFolder(f)
			c := Check{Name: f.Name, Status: "ok", DurationMs: a.Now().Sub(start).Milliseconds()}
			if err != nil {
				c.Status = "unavailable"
				c.Error = err.Error()
				a.Log.Warn("readiness check failed", "check", f.Name, "err", err)
			}
			checks[i] = c
		}()
	}
	wg.Wait()
	for _, p := range a.Probes {
		start := a.Now()
		c := Check{Name: p.Name, Status: "ok"}
		if err := p.Check(); err != nil {
			c.Status, c.Error = "degraded", err.Error()
		}
		c.DurationMs = a.Now().Sub(start).Milliseconds()
		checks = append(checks, c)
	}
	status, code := "ok", http.StatusOK
	for _, c := range checks {
		switch {
		case c.Status == "unavailable":
			status, code = "unavailable", http.StatusServiceUnavailable
		case c.Status == "degraded" && status == "ok":
			status = "degraded"
		}
	}
	w.Header().Set("Cache-Control", "no-store, max-age=0")
	rep := a.report(status, checks)
	rep.Details = a.details()
	web.WriteJSON(w, code, rep)
	return nil
}

// checkFolder verifies a folder exists, is a directory, can be listed and, when required,
// written (by creating and removing a probe file).
func checkFolder(f Folder) error {
	st, err := os.Stat(f.Path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return errors.New("folder does not exist")
		}
		return errors.New("folder cannot be read")
	}
	if !st.IsDir() {
		return errors.New("not a folder")
	}
	d, err := os.Open(f.Path)
	if err != nil {
		return errors.New("folder cannot be read")
	}
	_, err = d.Readdirnames(1)
	d.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return errors.New("folder cannot be listed")
	}
	if f.Writable {
		probe := filepath.Join(f.Path, fmt.Sprintf(".ready-probe-%d", os.Getpid()))
		if err := os.WriteFile(probe, nil, 0o600); err != nil {
			return errors.New("folder is not writable")
		}
		_ = os.Remove(probe)
	}
	return nil
}
