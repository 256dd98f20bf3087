package forms_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/validate"
	"cms/handlers/forms"
	"cms/handlers/hooks/hooktest"
	"cms/handlers/web"
	"cms/wasmhooks"
	"cms/wasmhooks/hookrun"
)

// benchSite has a ten-field form, the same with a hook rule on its e-mail field, and the
// hook-free form for the loopback run.
const benchSite = `
-- resources/forms/contact.yaml --
blueprint: contact
-- resources/forms/hooked.yaml --
blueprint: hooked
-- resources/blueprints/forms/contact.yaml --
fields:
  - {handle: name, field: {type: text, required: true, validate: [min:2, max:80]}}
  - {handle: email, field: {type: text, required: true, validate: [email]}}
  - {handle: phone, field: {type: text, validate: [max:30]}}
  - {handle: company, field: {type: text}}
  - {handle: topic, field: {type: select, options: {options: [general, support, sales]}}}
  - {handle: message, field: {type: markdown, required: true, validate: [min:10, max:2000]}}
  - {handle: age, field: {type: number, validate: [min:18]}}
  - {handle: newsletter, field: {type: toggle}}
  - {handle: interests, field: {type: multiselect, options: {options: [go, yaml, wasm]}}}
  - {handle: visit, field: {type: date}}
-- resources/blueprints/forms/hooked.yaml --
fields:
  - {handle: name, field: {type: text, required: true, validate: [min:2, max:80]}}
  - {handle: email, field: {type: text, required: true, validate: [email, 'hook:gate']}}
  - {handle: phone, field: {type: text, validate: [max:30]}}
  - {handle: company, field: {type: text}}
  - {handle: topic, field: {type: select, options: {options: [general, support, sales]}}}
  - {handle: message, field: {type: markdown, required: true, validate: [min:10, max:2000]}}
  - {handle: age, field: {type: number, validate: [min:18]}}
  - {handle: newsletter, field: {type: toggle}}
  - {handle: interests, field: {type: multiselect, options: {options: [go, yaml, wasm]}}}
  - {handle: visit, field: {type: date}}
`

// benchBody is a valid ten-field JSON submission.
var benchBody = []byte(`{"name":"Ada Lovelace","email":"ada@example.com","phone":"+44 20 7946 0000",` +
	`"company":"Analytical Engines Ltd","topic":"sales","message":"I would like to hear more about your products, please.",` +
	`"age":36,"newsletter":true,"interests":["go","wasm"],"visit":"2026-05-06"}`)

// benchGroup builds the group on a fresh site; sync chooses fsync'd writes.
func benchGroup(b *testing.B, sync bool, runner forms.Hooks) (http.Handler, *fsstore.Store) {
	b.Helper()
	dir := contenttest.WriteSite(b, benchSite)
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, NoSync: !sync, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	h, err := forms.New(forms.Deps{Definitions: st, Submissions: st, Hooks: runner})
	if err != nil {
		b.Fatal(err)
	}
	return h, st
}

// trivialJSON is the baseline of the core benchmark: a handler writing 1.5 KB of JSON.
func trivialJSON() http.Handler {
	body := []byte(`{"data":"` + strings.Repeat("x", 1500-11) + `"}`)
	return web.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		web.WriteJSONBytes(w, http.StatusOK, body)
		return nil
	})
}

// BenchmarkSubmit runs ten-field JSON submissions through the handler from parallel clients
// (each submission writes its own file: no lock) and reports submissions per second: fsync'd,
// without fsync, without the disk at all (the handler's own cost), and beside them the disk's
// own ceiling, the same number
// of clients each creating, writing, fsyncing and renaming a small file and fsyncing its folder,
// which is the least a durable submission costs. Concurrent fsyncs share journal commits, so
// every figure grows with the clients in flight; compare figures of one run.
func BenchmarkSubmit(b *testing.B) {
	for _, clients := range []int{16, 64} {
		par := max(1, clients/runtime.GOMAXPROCS(0))
		b.Run(fmt.Sprintf("clients=%d/disk-baseline", clients), func(b *testing.B) {
			dir := b.TempDir()
			var seq atomic.Int64
			data := bytes.Repeat([]byte("x"), 400)
			b.SetParallelism(par)
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := durableFile(dir, fmt.Sprint(seq.Add(1)), data); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "files/s")
		})
		for _, mode := range []string{"submit-fsync", "submit-nosync", "submit-no-disk"} {
			b.Run(fmt.Sprintf("clients=%d/%s", clients, mode), func(b *testing.B) {
				h, st := benchGroup(b, mode == "submit-fsync", nil)
				if mode == "submit-no-disk" {
					// The handler's own cost: everything but creating the file.
					var err error
					if h, err = forms.New(forms.Deps{Definitions: st, Submissions: discard{st}}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.SetParallelism(par)
				start, cpu := time.Now(), cpuTime()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						r := httptest.NewRequest(http.MethodPost, "/api/forms/contact/submit", bytes.NewReader(benchBody))
						r.Header.Set("Content-Type", "application/json")
						w := httptest.NewRecorder()
						h.ServeHTTP(w, r)
						if w.Code != http.StatusCreated {
							b.Fatalf("status %d: %s", w.Code, w.Body)
						}
					}
				})
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "submissions/s")
				b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
			})
		}
	}
}

// discard is a store that keeps no submission, to measure the handler without the disk.
type discard struct{ store }

func (discard) CreateSubmission(form string, data *content.Map, at time.Time) (*content.Submission, error) {
	return &content.Submission{ID: content.NewSubmissionID(at), Form: form, SubmittedAt: at.UTC().Format(time.RFC3339), Data: data}, nil
}

// durableFile is the disk baseline: create, write and fsync a temp file, rename it, fsync the
// folder.
func durableFile(dir, name string, data []byte) error {
	tmp := filepath.Join(dir, "."+name+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// BenchmarkSubmitLoopback compares, in one run, fsync'd submissions and a trivial 1.5 KB JSON
// handler, both served over loopback HTTP to 64 parallel keep-alive clients; client and server
// share the machine's cores.
func BenchmarkSubmitLoopback(b *testing.B) {
	h, _ := benchGroup(b, true, nil)
	for _, tc := range []struct {
		name   string
		h      http.Handler
		method string
		path   string
		body   []byte
		want   int
	}{
		{"trivial-1.5KB", trivialJSON(), http.MethodGet, "/", nil, http.StatusOK},
		{"submit-fsync", h, http.MethodPost, "/api/forms/contact/submit", benchBody, http.StatusCreated},
	} {
		b.Run(tc.name, func(b *testing.B) {
			srv := httptest.NewServer(tc.h)
			defer srv.Close()
			tr := &http.Transport{MaxIdleConns: 128, MaxIdleConnsPerHost: 128, DisableCompression: true}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			var failed atomic.Int64
			b.SetParallelism(max(1, 64/runtime.GOMAXPROCS(0)))
			start, cpu := time.Now(), cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest(tc.method, srv.URL+tc.path, bytes.NewReader(tc.body))
					if tc.body != nil {
						req.Header.Set("Content-Type", "application/json")
					}
					resp, err := client.Do(req)
					if err != nil {
						failed.Add(1)
						continue
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != tc.want {
						failed.Add(1)
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
			// Client and server share the process: this is the CPU of both sides per request.
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
			if f := failed.Load(); f > 0 {
				b.Fatalf("%d requests failed", f)
			}
		})
	}
}

// BenchmarkSubmitHook measures what a hook rule adds to a submission (fsync off, so that the
// disk does not drown the difference): no hook, a minimal hand-written module, and the Go
// disposable-email example. Instances are pooled, so calls reuse them.
func BenchmarkSubmitHook(b *testing.B) {
	cases := []struct {
		name string
		form string
		wasm func(b *testing.B) []byte
	}{
		{"none", "contact", nil},
		{"minimal", "hooked", func(*testing.B) []byte { return hooktest.Answer(hooktest.Valid) }},
		{"go-disposable-email", "hooked", func(b *testing.B) []byte { return readModule(b, "disposable-email") }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			dir := contenttest.WriteSite(b, benchSite)
			st := contenttest.OpenStore(b, dir)
			var runner forms.Hooks
			if tc.wasm != nil {
				hooktest.Install(b, st, "gate", tc.wasm(b))
				host, err := wasmhooks.New(wasmhooks.Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { host.Close(context.Background()) })
				r, err := hookrun.NewRunner(st, host)
				if err != nil {
					b.Fatal(err)
				}
				runner = r
			}
			h, err := forms.New(forms.Deps{Definitions: st, Submissions: st, Hooks: runner})
			if err != nil {
				b.Fatal(err)
			}
			submit := func() {
				r := httptest.NewRequest(http.MethodPost, "/api/forms/"+tc.form+"/submit", bytes.NewReader(benchBody))
				r.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusCreated {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
			submit() // compile and instantiate outside the timing
			b.ReportAllocs()
			for b.Loop() {
				submit()
			}
		})
	}
}

// BenchmarkRunHook is the cost of one hook call through the Runner (metadata read, request
// encoding, a pooled instance, response decoding).
func BenchmarkRunHook(b *testing.B) {
	for _, tc := range []struct {
		name string
		wasm func(b *testing.B) []byte
	}{
		{"minimal", func(*testing.B) []byte { return hooktest.Answer(hooktest.Valid) }},
		{"go-disposable-email", func(b *testing.B) []byte { return readModule(b, "disposable-email") }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			st := contenttest.OpenStore(b, b.TempDir())
			hooktest.Install(b, st, "gate", tc.wasm(b))
			host, err := wasmhooks.New(wasmhooks.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer host.Close(context.Background())
			r, _ := hookrun.NewRunner(st, host)
			data := content.NewMap(2)
			data.Set("email", "ada@example.com")
			data.Set("name", "Ada")
			call := validate.HookCall{Name: "gate", Form: "contact", Field: "email", Value: "ada@example.com", Data: data, Locale: "en"}
			if res, err := r.RunHook(context.Background(), call); err != nil || !res.Valid {
				b.Fatalf("warm-up: %+v %v", res, err)
			}
			for b.Loop() {
				if _, err := r.RunHook(context.Background(), call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExportCSV measures a CSV export of n stored submissions (two passes over the files).
func BenchmarkExportCSV(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := newEnv(b, "")
			base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			for i := range n {
				d := content.NewMap(3)
				d.Set("name", "Ada")
				d.Set("email", "ada@example.com")
				d.Set("n", int64(i))
				if _, err := e.store.CreateSubmission("plain", d, base.Add(time.Duration(i)*time.Millisecond)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodGet, "/api/forms/plain/export/csv", nil)
				r.Header.Set("Authorization", "Bearer "+e.viewer)
				w := httptest.NewRecorder()
				e.h.ServeHTTP(w, r)
				if w.Code != 200 {
					b.Fatal(w.Code)
				}
			}
		})
	}
}
