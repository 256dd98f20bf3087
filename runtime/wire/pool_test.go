package wire_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content/sitegen"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/wire"
)

// The caches of a server share memory.cacheMiB: the public entries the clients read fill more
// than their own share while the other caches are idle, the pool stays within the setting,
// and /api/health/ready reports each cache's bytes and hit ratio and the pool's total.
func TestCachesShareTheBudget(t *testing.T) {
	t.Parallel()
	const n = 320
	dir := t.TempDir()
	if err := sitegen.Generate(dir, n, sitegen.Options{}); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Watch = "none"
	cfg.Memory.CacheMiB = 1 // public entries: 512 KiB of their own
	svc, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	mux, err := groups.Mux(svc)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	get := func(path string) *http.Response {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	// Some 240 entries of ~6 KB each with their seo objects (~3 KB compressed): more than the
	// entries' own share, less than the whole budget.
	var paths []string
	for i := 0; i < n && len(paths) < 240; i++ {
		if m := sitegen.Post(i, sitegen.Options{}); m.Published {
			paths = append(paths, "/api/public/entries/"+sitegen.Collection+"/"+m.Slug)
		}
	}
	for range 2 { // the second round is served from the cache
		for _, p := range paths {
			if resp := get(p); resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d", p, resp.StatusCode)
			}
		}
	}
	resp := get("/api/health/ready")
	var ready struct {
		Details struct {
			Caches []struct {
				Name            string
				Entries         int
				Bytes, MaxBytes int64
				Hits, Misses    int64
				HitRatio        float64
			}
			CachePool *struct{ Bytes, MaxBytes int64 }
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&ready); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("ready: %d %v", resp.StatusCode, err)
	}
	d := ready.Details
	if d.CachePool == nil {
		t.Fatalf("no cachePool in the readiness details: %+v", d)
	}
	var sum, budgets int64
	found := false
	for _, c := range d.Caches {
		sum += c.Bytes
		budgets += c.MaxBytes
		if c.Name != wire.CachePublicEntries {
			continue
		}
		found = true
		if c.Bytes <= c.MaxBytes || c.Entries < len(paths) {
			t.Errorf("public entries hold %d values, %d bytes of their own %d: the idle caches' room was not lent", c.Entries, c.Bytes, c.MaxBytes)
		}
		// The first round misses once per entry (its whole response, which a list reads its
		// item from too); the second finds each response whole.
		if c.Hits != int64(len(paths)) || c.Misses != int64(len(paths)) {
			t.Errorf("public entries: %d hits, %d misses; want %d and %d", c.Hits, c.Misses, len(paths), len(paths))
		}
	}
	if !found {
		t.Errorf("no %s in %+v", wire.CachePublicEntries, d.Caches)
	}
	if d.CachePool.MaxBytes != budgets || budgets > 1<<20 || d.CachePool.Bytes != sum || sum > d.CachePool.MaxBytes {
		t.Errorf("pool %d of %d bytes; caches hold %d of budgets summing to %d (memory.cacheMiB: 1 MiB)", d.CachePool.Bytes, d.CachePool.MaxBytes, sum, budgets)
	}
}
