package pagecache_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	hpc "cms/handlers/pagecache"
)

func TestNotifierPostsPurges(t *testing.T) {
	got := make(chan []string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ URLs []string }
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&body) != nil {
			t.Errorf("bad webhook request %s %s", r.Method, r.Header.Get("Content-Type"))
		}
		got <- body.URLs
	}))
	defer srv.Close()
	var logs bytes.Buffer
	n := hpc.NewNotifier(srv.URL, slog.New(slog.NewTextHandler(&logs, nil)), srv.Client())
	defer n.Close()
	n.Report([]string{"/a", "/blog"})
	if urls := <-got; !slices.Equal(urls, []string{"/a", "/blog"}) {
		t.Errorf("webhook got %v", urls)
	}
	if !strings.Contains(logs.String(), "static cache purged") || !strings.Contains(logs.String(), "/blog") {
		t.Errorf("log: %s", logs.String())
	}
}

// A webhook that does not answer never blocks a purge: the queue fills and further purges are
// dropped (and logged), not waited for.
func TestNotifierNeverBlocks(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	n := hpc.NewNotifier(srv.URL, nil, srv.Client())
	for range 1000 {
		n.Report([]string{"/x"})
	}
	if n.Dropped() == 0 {
		t.Error("nothing dropped with a stuck webhook")
	}
	n.Close() // cancels the stuck post
}
