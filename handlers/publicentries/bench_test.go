package publicentries_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/content/sitegen"
	"cms/handlers/publicentries"
)

// The projected list of issue 12: fields=title,slug, ten entries of a 10,000-entry generated
// site, against a trivial handler in the same run (the ratio is ns/op trivial ÷ ns/op list).
//
//	go test -run XXX -bench 'Trivial|List10k' -benchtime 2s ./handlers/publicentries/

var (
	list10kOnce sync.Once
	list10k     http.Handler
)

func list10kHandler(b *testing.B) http.Handler {
	list10kOnce.Do(func() {
		dir := b.TempDir()
		if err := sitegen.Generate(dir, 10_000, sitegen.Options{}); err != nil {
			b.Fatal(err)
		}
		h, err := publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(b, dir), Markdown: markdown.New(false),
			Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			b.Fatal(err)
		}
		list10k = h
	})
	return list10k
}

func benchGet(b *testing.B, h http.Handler, path func(i int) string) {
	b.Helper()
	b.ReportAllocs()
	size := 0
	for i := 0; b.Loop(); i++ {
		r := httptest.NewRequest(http.MethodGet, path(i), nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
		size = w.Body.Len()
	}
	b.ReportMetric(float64(size), "resp-bytes")
}

func BenchmarkTrivial(b *testing.B) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":"ok"}`))
	})
	benchGet(b, h, func(int) string { return "/api/trivial" })
}

// BenchmarkList10k: the projected page as clients repeat it (the list cache answers), the same
// page with every URL distinct (an ignored parameter, so the list cache misses and the index
// answers each time), and the full page (content and html of every entry) for comparison.
func BenchmarkList10k(b *testing.B) {
	h := list10kHandler(b)
	const proj = "/api/public/entries/posts?fields=title,slug&limit=10&sort=-createdAt"
	b.Run("projected", func(b *testing.B) { benchGet(b, h, func(int) string { return proj }) })
	b.Run("projected-uncached", func(b *testing.B) {
		benchGet(b, h, func(i int) string { return fmt.Sprintf("%s&offset=%d&nocache=%d", proj, i%1000, i) })
	})
	b.Run("full", func(b *testing.B) {
		benchGet(b, h, func(int) string { return "/api/public/entries/posts?limit=10&sort=-createdAt" })
	})
}
