package site_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/lru"
	"cms/content/query"
	"cms/content/sitegen"
	"cms/handlers/site"
)

// benchViews is a theme like a real one: a layout with a navigation menu, and an entry page
// with a 5-item list of the latest posts.
var benchViews = map[string]string{
	"layout.html": `<!doctype html><html lang="{{.Site.Locale}}"><head><meta charset="utf-8">{{seo .}}<link rel="stylesheet" href="{{asset "site.css"}}"></head>
<body><header><a href="{{url "/"}}">{{.Settings.site_name}}</a><nav><ul>{{range nav "main"}}<li><a href="{{.URL}}">{{.Label}}</a></li>{{end}}</ul></nav></header>
<main>{{template "main" .}}</main><footer>{{with global "site"}}{{.name}}{{end}}</footer></body></html>`,
	"posts.html": `<article><h1>{{.Entry.Title}}</h1><p><time datetime="{{isoDate .Entry.CreatedAt}}">{{date .Entry.CreatedAt}}</time></p>{{.Entry.HTML}}</article>
<aside><h2>Latest</h2><ul>{{range entries "posts" "limit=5&sort=-createdAt"}}<li><a href="{{.URL}}">{{.Title}}</a></li>{{end}}</ul></aside>`,
}

// writeBenchTheme adds the theme, a menu of entry references and a global to a generated site.
func writeBenchTheme(tb testing.TB, dir string, n int) {
	var nav strings.Builder
	nav.WriteString("items:\n  - label: Home\n    url: /\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&nav, "  - label: Post %d\n    entry: posts/%s\n", i, sitegen.Slug(i*(n/7+1), sitegen.Options{}))
	}
	files := map[string]string{
		"resources/navigations/main.yaml": "title: Main\n",
		"content/navigation/main.yaml":    nav.String(),
		"resources/globals/site.yaml":     "title: Site\n",
		"content/globals/site.yaml":       "name: Bench site\n",
		"content/settings.yaml":           "site_name: Bench\nlocale: en\n",
	}
	for name, text := range benchViews {
		files["resources/views/"+name] = text
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkEntryPage serves entry pages of a 10,000-entry site (layout, menu, 5-item list) in
// process, next to a trivial handler: from the page cache, and rendered on every request. Over
// HTTP the connection's cost is shared by both, so the ratio over HTTP is higher than here.
func BenchmarkEntryPage(b *testing.B) {
	const n = 10000
	dir := b.TempDir()
	if err := sitegen.Generate(dir, n, sitegen.Options{}); err != nil {
		b.Fatal(err)
	}
	writeBenchTheme(b, dir, n)
	st := contenttest.OpenStore(b, dir)
	// As `cms serve` in production; $CMS_BENCH_RELOAD=0 checks the folders on every request,
	// as in development.
	reloadEvery := time.Second
	if os.Getenv("CMS_BENCH_RELOAD") == "0" {
		reloadEvery = 0
	}
	reg := &lru.Registry{}
	newHandlerBodies := func(cacheBytes, bodyBytes int64) http.Handler {
		h, err := site.New(site.Deps{Store: st, Caches: reg, BodyBytes: bodyBytes, Views: filepath.Join(dir, "resources", "views"), ReloadEvery: reloadEvery,
			Sites: []content.Site{{Handle: "default", URL: "https://example.com", Locale: "en", Default: true}},
			Flags: site.Flags{Metadata: true}, CacheBytes: cacheBytes, Log: slog.New(slog.DiscardHandler),
			DataPaths: []string{filepath.Join(dir, "content", "globals"), filepath.Join(dir, "content", "navigation"), filepath.Join(dir, "content", "settings.yaml")}})
		if err != nil {
			b.Fatal(err)
		}
		return h
	}
	newHandler := func(cacheBytes int64) http.Handler { return newHandlerBodies(cacheBytes, 0) }
	h, uncached := newHandler(64<<20), newHandler(0)
	if os.Getenv("CMS_BENCH_BODIES") != "" {
		uncached = newHandlerBodies(0, 64<<20)
	}
	var paths []string
	for i := 0; i < n && len(paths) < 500; i++ {
		if m := sitegen.Post(i, sitegen.Options{}); m.Published {
			paths = append(paths, m.CreatedAt.Format("/blog/2006/01/")+m.Slug)
		}
	}
	// Every page renders once before the clock starts (bodies read, Markdown cached nowhere:
	// each request renders).
	for _, p := range paths {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, p, nil))
		if w.Code != 200 || !strings.Contains(w.Body.String(), "<h2>Latest</h2>") {
			b.Fatalf("%s: %d %s", p, w.Code, w.Body)
		}
	}
	for _, c := range reg.Stats() {
		b.Logf("%s after %d pages: %d entries, %d bytes (%d per page)", c.Name, len(paths), c.Entries, c.Bytes, c.Bytes/max(1, int64(c.Entries)))
	}
	trivial := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})
	var pageNs, uncachedNs, trivialNs float64
	run := func(name string, h http.Handler, out *float64) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			reqs := make([]*http.Request, len(paths))
			for i, p := range paths {
				reqs[i] = httptest.NewRequest(http.MethodGet, p, nil)
			}
			start := time.Now()
			for i := 0; i < b.N; i++ {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, reqs[i%len(reqs)])
			}
			*out = float64(time.Since(start).Nanoseconds()) / float64(b.N)
		})
	}
	run("trivial", trivial, &trivialNs)
	run("page", h, &pageNs)
	run("page-uncached", uncached, &uncachedNs)
	runtime.GC()
	if pageNs > 0 && uncachedNs > 0 {
		b.Logf("in process: trivial %.2f µs, page %.2f µs (cached), %.1f µs (rendered each time)", trivialNs/1000, pageNs/1000, uncachedNs/1000)
	}
}

// firstByteWriter notes when the first body byte is written and discards the body.
type firstByteWriter struct {
	h     http.Header
	start time.Time
	first time.Duration
	n     int64
}

func (w *firstByteWriter) Header() http.Header { return w.h }
func (w *firstByteWriter) WriteHeader(int)     {}
func (w *firstByteWriter) Write(p []byte) (int, error) {
	if w.n == 0 && len(p) > 0 {
		w.first = time.Since(w.start)
	}
	w.n += int64(len(p))
	return len(p), nil
}
func (w *firstByteWriter) Flush() {}

// BenchmarkSitemap100k streams /sitemap.xml of a 100,000-entry site (an index: the protocol's
// limit is 50,000) and its first part, after one warm-up request (as on a server that has
// answered queries: the index's sort order exists), reporting the time to the first byte, the
// whole body, and how far the process's resident memory grew while streaming (VmRSS sampled
// every millisecond). Run with -benchtime 1x: generating the site takes a while.
func BenchmarkSitemap100k(b *testing.B) {
	const n = 100000
	// $CMS_BENCH_SITEMAP_DIR keeps the generated site between runs (made on the first).
	dir := os.Getenv("CMS_BENCH_SITEMAP_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	if _, err := os.Stat(filepath.Join(dir, "content")); err != nil {
		if err := sitegen.Generate(dir, n, sitegen.Options{BodyBytes: 64, Published: 100}); err != nil {
			b.Fatal(err)
		}
	}
	st := contenttest.OpenStore(b, dir)
	settings := filepath.Join(dir, "content", "settings.yaml")
	h, err := site.New(site.Deps{Store: st, Sites: []content.Site{{Handle: "default", URL: "https://example.com", Default: true}},
		Flags: site.Flags{Sitemap: true}, DataPaths: []string{settings}, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	// "built": a data file changed before each request (terms are resolved again, entries
	// checked for changes); "edited": one entry changed before each request (it alone is resolved
	// again); "kept": the list of the previous request is reused.
	posts, _, err := st.Entries("posts", query.Query{Limit: 1})
	if err != nil || len(posts) == 0 {
		b.Fatal("no post to edit", err)
	}
	editSlug := posts[0].Slug
	editOne := func(i int) {
		e, err := st.Entry("posts", editSlug)
		if err != nil {
			b.Fatal(err)
		}
		next := *e
		next.Title = fmt.Sprintf("Edited %d %d", i, time.Now().UnixNano())
		if _, err := st.UpdateEntry("posts", editSlug, e.Hash, &next); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, path string
		change     bool
		edit       bool
	}{{"built/sitemap.xml", "/sitemap.xml", true, false}, {"built/sitemap-1.xml", "/sitemap-1.xml", true, false},
		{"edited/sitemap.xml", "/sitemap.xml", false, true}, {"edited/sitemap-1.xml", "/sitemap-1.xml", false, true},
		{"kept/sitemap.xml", "/sitemap.xml", false, false}, {"kept/sitemap-1.xml", "/sitemap-1.xml", false, false}} {
		p := c.path
		b.Run(c.name, func(b *testing.B) {
			var first, total time.Duration
			var growth uint64
			var size int64
			h.ServeHTTP(&firstByteWriter{h: http.Header{}, start: time.Now()}, httptest.NewRequest(http.MethodGet, p, nil))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if c.change {
					os.WriteFile(settings, []byte(fmt.Sprintf("site_name: run %d %d\n", i, time.Now().UnixNano())), 0o644)
				}
				if c.edit {
					editOne(i)
				}
				runtime.GC()
				base := rss(b)
				peak := base
				stop := make(chan struct{})
				done := make(chan struct{})
				go func() {
					defer close(done)
					t := time.NewTicker(time.Millisecond)
					defer t.Stop()
					for {
						select {
						case <-stop:
							return
						case <-t.C:
							peak = max(peak, rss(b))
						}
					}
				}()
				w := &firstByteWriter{h: http.Header{}, start: time.Now()}
				h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, p, nil))
				total += time.Since(w.start)
				first += w.first
				close(stop)
				<-done
				growth = max(growth, peak-base)
				size = w.n
			}
			b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-first-byte")
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-total")
			b.ReportMetric(float64(growth)/(1<<20), "MiB-RSS-growth")
			b.ReportMetric(float64(size)/(1<<20), "MiB-body")
		})
	}
}

// rss is the process's resident set size in bytes (Linux; 0 elsewhere).
func rss(tb testing.TB) uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var size, res uint64
	fmt.Sscan(string(b), &size, &res)
	return res * uint64(os.Getpagesize())
}
