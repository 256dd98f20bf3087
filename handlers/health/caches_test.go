package health_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"cms/content/lru"
	"cms/handlers/health"
	"cms/handlers/web/webtest"
)

// The readiness details name every cache with its bytes, budget and hit ratio; the rest of the
// report keeps its shape.
func TestReadyReportsCaches(t *testing.T) {
	t.Parallel()
	reg := &lru.Registry{}
	c := lru.New[string, []byte](1 << 20)
	reg.Register("publicEntries.entries", c)
	reg.Register("graphql.results", lru.New[string, []byte](1<<10))
	c.Put("a", []byte("body"), 36)
	c.Get("a")
	c.Get("a")
	c.Get("a")
	c.Get("b")
	h, err := health.New(health.Deps{Folders: []health.Folder{{Name: "content", Path: t.TempDir()}}, Caches: reg})
	if err != nil {
		t.Fatal(err)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/health/ready"})
	var r struct {
		Status  string
		Checks  []struct{ Name, Status string }
		Details struct {
			Caches []map[string]any
		}
	}
	webtest.DecodeJSON(t, w, &r)
	if w.Code != 200 || r.Status != "ok" || len(r.Checks) != 1 {
		t.Fatalf("ready: %d %+v", w.Code, r)
	}
	want := []map[string]any{
		{"name": "graphql.results", "entries": 0.0, "bytes": 0.0, "maxBytes": 1024.0, "hits": 0.0, "misses": 0.0, "hitRatio": 0.0},
		{"name": "publicEntries.entries", "entries": 1.0, "bytes": 100.0, "maxBytes": 1048576.0, "hits": 3.0, "misses": 1.0, "hitRatio": 0.75},
	}
	if !reflect.DeepEqual(r.Details.Caches, want) {
		t.Errorf("details.caches = %v, want %v", r.Details.Caches, want)
	}

	// Liveness has no details.
	w = webtest.Do(t, h, webtest.Request{Path: "/api/health/live"})
	var live map[string]json.RawMessage
	webtest.DecodeJSON(t, w, &live)
	if _, ok := live["details"]; ok {
		t.Errorf("live reports details: %s", w.Body)
	}
}

// Without caches the details hold an empty list, not null.
func TestReadyWithoutCaches(t *testing.T) {
	t.Parallel()
	h, err := health.New(health.Deps{Folders: []health.Folder{{Name: "content", Path: t.TempDir()}}})
	if err != nil {
		t.Fatal(err)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/health/ready"})
	var r struct{ Details map[string]json.RawMessage }
	webtest.DecodeJSON(t, w, &r)
	if string(r.Details["caches"]) != "[]" {
		t.Errorf("details = %s", w.Body)
	}
}

// The readiness details count list queries by how the index answered them, scans included, so
// queries the index cannot serve show.
func TestReadyReportsQueries(t *testing.T) {
	t.Parallel()
	h, err := health.New(health.Deps{Folders: []health.Folder{{Name: "content", Path: t.TempDir()}},
		Queries: func() health.QueryStats {
			return health.QueryStats{Indexed: 7, Scanned: 2, Ranged: 1, Sorted: 3, Seeded: 4}
		}})
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Details map[string]json.RawMessage }
	webtest.DecodeJSON(t, webtest.Do(t, h, webtest.Request{Path: "/api/health/ready"}), &r)
	if got := string(r.Details["queries"]); got != `{"indexed":7,"scanned":2,"ranged":1,"sorted":3,"seeded":4}` {
		t.Errorf("details.queries = %s", got)
	}
}

// The readiness details list the store's background work, and an empty list once it settled
// (not a missing field, which a waiting client could not tell from an older server).
func TestReadyReportsBackgroundWork(t *testing.T) {
	t.Parallel()
	var pending []string
	h, err := health.New(health.Deps{Folders: []health.Folder{{Name: "content", Path: t.TempDir()}},
		Background: func() []string { return pending }})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pending []string
		want    string
	}{
		{[]string{"indexSnapshot", "tempSweep"}, `{"pending":["indexSnapshot","tempSweep"]}`},
		{nil, `{"pending":[]}`},
	} {
		pending = tc.pending
		var r struct{ Details map[string]json.RawMessage }
		webtest.DecodeJSON(t, webtest.Do(t, h, webtest.Request{Path: "/api/health/ready"}), &r)
		if got := string(r.Details["background"]); got != tc.want {
			t.Errorf("details.background = %s, want %s", got, tc.want)
		}
	}
}
