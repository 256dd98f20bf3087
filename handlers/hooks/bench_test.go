package hooks_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/validate"
	"cms/handlers/hooks"
	"cms/handlers/web/webtest"
	"cms/wasmhooks"
	"cms/wasmhooks/hookrun"
)

// BenchmarkUpload4MB uploads a 4 MB Go module (wasmhooks/testdata/src/big, built here) through
// PUT /api/hooks/{name} on a fresh host each time, so every upload compiles and checks it; then
// measures the cold start of a process whose compile cache is warm: a new host serving its
// first hook call through the Runner.
func BenchmarkUpload4MB(b *testing.B) {
	wasm := buildBig(b)
	st := contenttest.OpenStore(b, b.TempDir())
	auth := webtest.NewAuth(b)
	tok := auth.Add(webtest.Token("admin"), "ada", webtest.Role("a", webtest.Grant("settings", "view", "edit")))

	b.Run("put-compile-check-store", func(b *testing.B) {
		b.SetBytes(int64(len(wasm)))
		for b.Loop() {
			host, err := wasmhooks.New(wasmhooks.Options{})
			if err != nil {
				b.Fatal(err)
			}
			h, err := hooks.New(hooks.Deps{Store: st, Host: host, Auth: auth, Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			r := httptest.NewRequest(http.MethodPut, "/api/hooks/big", bytes.NewReader(wasm))
			r.Header.Set("Content-Type", "application/wasm")
			r.Header.Set("Authorization", "Bearer "+tok)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusCreated && w.Code != http.StatusOK {
				b.Fatalf("upload: %d %s", w.Code, w.Body)
			}
			host.Close(b.Context())
		}
	})

	// Install it as `cms hooks push` would on this machine, which leaves the compile cache warm.
	cache := b.TempDir()
	warm, err := wasmhooks.New(wasmhooks.Options{CacheDir: cache})
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := hookrun.Install(b.Context(), st, warm, "big", wasm, "bench", time.Now()); err != nil {
		b.Fatal(err)
	}
	warm.Close(b.Context())
	call := validate.HookCall{Name: "big", Form: "contact", Field: "email", Value: "ada@example.com", Locale: "en"}
	for _, tc := range []struct {
		name  string
		cache string
	}{
		{"cold-start-first-call/warm-cache", cache},
		{"cold-start-first-call/no-cache", ""},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				host, err := wasmhooks.New(wasmhooks.Options{CacheDir: tc.cache})
				if err != nil {
					b.Fatal(err)
				}
				r, err := hookrun.NewRunner(st, host)
				if err != nil {
					b.Fatal(err)
				}
				if res, err := r.RunHook(b.Context(), call); err != nil || !res.Valid {
					b.Fatalf("first call: %+v %v", res, err)
				}
				host.Close(b.Context())
			}
		})
	}
}

// buildBig builds wasmhooks/testdata/src/big as `make hooks` builds a hook.
func buildBig(b *testing.B) []byte {
	b.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go command to build the module with")
	}
	out := filepath.Join(b.TempDir(), "big.wasm")
	cmd := exec.Command(goTool, "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "../../wasmhooks/testdata/src/big")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build big module: %v\n%s", err, msg)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("module: %.1f MB", float64(len(wasm))/(1<<20))
	return wasm
}
