package publicentries_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
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

// BenchmarkListUncached: the queries of the bench's list-uncached scenario (category × featured
// × sort × offset, ten full entries a page) on sites of 10,000 and 100,000 entries, each URL
// distinct so the list cache never answers, with every listed entry's encoding cached (as after
// a warm-up): what the index, the page's assembly and its ETag cost. cpu-us/op is the process's
// CPU time, which other work on a busy machine disturbs far less than ns/op.
//
//	go test -run XXX -bench ListUncached -benchtime 20000x ./handlers/publicentries/
func BenchmarkListUncached(b *testing.B) {
	var paths []string
	for _, c := range sitegen.Categories() {
		for _, f := range []string{"", `,"featured":true`, `,"featured":false`} {
			for _, s := range []string{"-rating", "rating", "title", "-title", "-createdAt", "createdAt"} {
				for off := range 100 {
					paths = append(paths, fmt.Sprintf("/api/public/entries/posts?limit=10&offset=%d&sort=%s&filter=%s",
						off, s, url.QueryEscape(`{"category":"`+c+`"`+f+`}`)))
				}
			}
		}
	}
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			h := list10kHandler(b)
			if n != 10_000 {
				dir := b.TempDir()
				if err := sitegen.Generate(dir, n, sitegen.Options{}); err != nil {
					b.Fatal(err)
				}
				var err error
				h, err = publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(b, dir), Markdown: markdown.New(false),
					Log: slog.New(slog.DiscardHandler)})
				if err != nil {
					b.Fatal(err)
				}
			}
			for _, p := range paths { // encode every entry listed, and build the orders
				h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, p, nil))
			}
			b.ResetTimer()
			c0 := processCPU()
			benchGet(b, h, func(i int) string { return paths[(i*7919)%len(paths)] + "&n=" + strconv.Itoa(i) })
			b.ReportMetric(float64(processCPU()-c0)/1e3/float64(b.N), "cpu-us/op")
		})
	}
}
