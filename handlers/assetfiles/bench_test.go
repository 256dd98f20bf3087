package assetfiles_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/imaging"
	"cms/content/imaging/imagingtest"
	"cms/content/imgurl"
	"cms/handlers/assetfiles"
	"cms/handlers/web"
)

// BenchmarkServe serves a small image.
func BenchmarkServe(b *testing.B) {
	h, _ := newHandler(b)
	for b.Loop() {
		if w := get(h, "GET", "/assets/logo.png", nil); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// photo4000 is a 4000×3000 JPEG (synthetic: gradients and noise), made once.
var photo4000 = sync.OnceValue(func() []byte { return imagingtest.JPEG(imagingtest.Photo(4000, 3000), 0, "") })

// BenchmarkFirstTransform is the first figure: a 4000×3000 JPEG to an 800 px wide
// derivative, made anew each time (no cache). The first request, which also compiles the WebP
// encoder's WebAssembly module, is reported apart as cold-ms.
func BenchmarkFirstTransform(b *testing.B) {
	for _, fm := range []string{"webp", "jpeg"} {
		b.Run(fm, func(b *testing.B) {
			dir := contenttest.WriteSite(b, site)
			if err := os.WriteFile(filepath.Join(dir, "public/assets/big.jpg"), photo4000(), 0o644); err != nil {
				b.Fatal(err)
			}
			tr, err := imaging.New(imaging.Options{}) // no memory, no disk: every request transforms
			if err != nil {
				b.Fatal(err)
			}
			h, err := assetfiles.New(assetfiles.Deps{Store: contenttest.OpenStore(b, dir), Transformer: tr, SigningKey: testKey})
			if err != nil {
				b.Fatal(err)
			}
			target := signed("big.jpg", "w=800&fm="+fm)
			start := time.Now()
			w := get(h, "GET", target, nil)
			if w.Code != 200 {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
			cold := time.Since(start)
			size := w.Body.Len()
			cpu0, n := cpuTime(), 0
			for b.Loop() {
				if w := get(h, "GET", target, nil); w.Code != 200 {
					b.Fatal(w.Code)
				}
				n++
			}
			// CPU time is steadier than wall time on a shared machine.
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(n), "cpu-ms/op")
			b.ReportMetric(float64(cold.Milliseconds()), "cold-ms")
			b.ReportMetric(float64(size), "bytes")
		})
	}
}

// discard is a ResponseWriter that keeps the status and drops the body, as a connection would
// send it: httptest.ResponseRecorder's growing buffer would otherwise be most of the cost of an
// 80 KB body, and no server pays it.
type discard struct {
	h    http.Header
	code int
}

func (d *discard) Header() http.Header { return d.h }
func (d *discard) WriteHeader(code int) {
	if d.code == 0 {
		d.code = code
	}
}
func (d *discard) Write(b []byte) (int, error) {
	d.WriteHeader(http.StatusOK)
	return len(b), nil
}

// BenchmarkCachedDerivativeVsTrivial alternates a trivial request and a request for a cached
// 800 px WebP derivative (about 80 KB) in one loop, so a busy machine slows both alike, and
// reports their throughput ratio (derivative/trivial; the target is at least 0.7), with
// the original-file path (a small PNG) alongside for comparison. All write to a discarding
// ResponseWriter.
func BenchmarkCachedDerivativeVsTrivial(b *testing.B) {
	dir := contenttest.WriteSite(b, site)
	if err := os.WriteFile(filepath.Join(dir, "public/assets/big.jpg"), photo4000(), 0o644); err != nil {
		b.Fatal(err)
	}
	tr, err := imaging.New(imaging.Options{MemoryBytes: 8 << 20, Dir: dir, NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { tr.Close() })
	h, err := assetfiles.New(assetfiles.Deps{Store: contenttest.OpenStore(b, dir), Transformer: tr, Presets: map[string]imgurl.Params{"w800": {Width: 800, Format: imgurl.WebP}}})
	if err != nil {
		b.Fatal(err)
	}
	const target = "/assets/big.jpg?preset=w800"
	if w := get(h, "GET", target, nil); w.Code != 200 {
		b.Fatalf("%d %s", w.Code, w.Body)
	}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/trivial", func(w http.ResponseWriter, r *http.Request) error {
		web.WriteJSON(w, http.StatusOK, web.Data{Data: "ok"})
		return nil
	})
	one := func(h http.Handler, path string) time.Duration {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		w := &discard{h: http.Header{}}
		start := time.Now()
		h.ServeHTTP(w, r)
		d := time.Since(start)
		if w.code != http.StatusOK {
			b.Fatalf("status %d", w.code)
		}
		return d
	}
	var derivNs, trivialNs, originalNs time.Duration
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		trivialNs += one(rt, "/api/trivial")
		derivNs += one(h, target)
		originalNs += one(h, "/assets/logo.png") // the original file path, for comparison
		n++
	}
	b.ReportMetric(float64(trivialNs.Nanoseconds())/float64(n), "trivial-ns/op")
	b.ReportMetric(float64(derivNs.Nanoseconds())/float64(n), "derivative-ns/op")
	b.ReportMetric(float64(originalNs.Nanoseconds())/float64(n), "original-ns/op")
	b.ReportMetric(float64(trivialNs)/float64(derivNs), "derivative/trivial")
}
