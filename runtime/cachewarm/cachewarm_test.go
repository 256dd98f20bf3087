package cachewarm_test

import (
	"net/http"
	"slices"
	"testing"

	"cms/runtime/cachewarm"
)

// Run counts stored and already cached pages; a page a redirect moves is not stored and is no
// failure, an error answer is.
func TestRunCountsOutcomes(t *testing.T) {
	t.Parallel()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/new":
			w.Header().Set("X-Cache", "MISS")
		case "/old":
			w.Header().Set("X-Cache", "HIT")
		case "/home":
			http.Redirect(w, r, "/", http.StatusMovedPermanently)
			return
		case "/broken":
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte("<p>page</p>"))
	})
	var targets []cachewarm.Target
	for _, p := range []string{"/new", "/old", "/home", "/broken"} {
		targets = append(targets, cachewarm.Target{Host: "example.com", Path: p})
	}
	res, err := cachewarm.Run(t.Context(), h, targets, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Requested != 4 || res.Stored != 1 || res.Cached != 1 || !slices.Equal(res.Failed, []string{"example.com/broken: 500"}) {
		t.Errorf("result %+v", res)
	}
}
