package groups_test

import (
	"testing"

	"cms/content/contenttest"
	"cms/handlers/web/webtest"
	"cms/runtime/wire"
)

// With every group mounted, the readiness details list every cache, and their budgets add up
// to memory.cacheMiB.
func TestCachesShareTheBudget(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\nmemory:\n  cacheMiB: 10\n")
	_, mux := startSite(t, dir, nil)
	w := webtest.Do(t, mux, webtest.Request{Path: "/api/health/ready"})
	var r struct {
		Details struct {
			Caches []struct {
				Name     string
				MaxBytes int64
			}
		}
	}
	webtest.DecodeJSON(t, w, &r)
	var sum int64
	seen := map[string]bool{}
	for _, c := range r.Details.Caches {
		sum += c.MaxBytes
		seen[c.Name] = true
	}
	for _, n := range []string{wire.CachePublicEntries, wire.CachePublicLists, wire.CacheEntries, wire.CacheGraphQL, wire.CacheGraphQLDocs, wire.CacheDerivatives, wire.CacheSitePages, wire.CacheBodies} {
		if !seen[n] {
			t.Errorf("cache %s not reported: %s", n, w.Body)
		}
	}
	if sum != 10<<20 {
		t.Errorf("budgets sum to %d bytes, want %d: %s", sum, 10<<20, w.Body)
	}
}

// The readiness details count the store's list queries: a public list is answered by the index.
func TestReadyCountsQueries(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\n"+
		"-- resources/collections/posts.yaml --\ntitle: Posts\n"+
		"-- content/collections/posts/a.md --\n---\ntitle: A\nstatus: published\ncategory: news\n---\n")
	_, mux := startSite(t, dir, nil)
	if w := webtest.Do(t, mux, webtest.Request{Path: `/api/public/entries/posts?filter={"category":"news"}`}); w.Code != 200 {
		t.Fatalf("list: %d %s", w.Code, w.Body)
	}
	var r struct {
		Details struct {
			Queries *struct{ Indexed, Scanned, Ranged, Sorted, Seeded uint64 }
		}
	}
	w := webtest.Do(t, mux, webtest.Request{Path: "/api/health/ready"})
	webtest.DecodeJSON(t, w, &r)
	// The query needed the default order: sorted, or taken from the snapshot of the start.
	if q := r.Details.Queries; q == nil || q.Indexed != 1 || q.Scanned != 0 || q.Sorted+q.Seeded != 1 {
		t.Errorf("details.queries after one indexed list: %s", w.Body)
	}
}
