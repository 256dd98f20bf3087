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

// BenchmarkEntryPage renders entry pages of a 10,000-entry site (layout, menu, 5-item list)
// in process, next to a trivial handler, and reports the ratio of their speeds. Over HTTP the
// connection's cost is shared by both, so the make bench ratio is higher than this one.
func BenchmarkEntryPage(b *testing.B) {
	const n = 10000
	dir := b.TempDir()
	if err := sitegen.Generate(dir, n, sitegen.Options{}); err != nil {
		b.Fatal(err)
	}
	writeBenchTheme(b, dir, n)
	st := contenttest.OpenStore(b, dir)
	h, err := site.New(site.Deps{Store: st, Views: filepath.Join(dir, "resources", "views"), ReloadEvery: time.Second,
		Sites: []content.Site{{Handle: "default", URL: "https://example.com", Locale: "en", Default: true}},
		Flags: site.Flags{Metadata: true}, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
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
	trivial := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})
	var pageNs, trivialNs float64
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
	runtime.GC()
	if pageNs > 0 {
		b.Logf("page %.1f µs, trivial %.2f µs in process", pageNs/1000, trivialNs/1000)
	}
}
