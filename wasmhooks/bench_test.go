package wasmhooks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"cms/wasmhooks"
)

// BenchmarkValidateGo measures one call of a Go guest on a reused instance: JSON in the guest
// and the host, and crossing into and out of WebAssembly.
func BenchmarkValidateGo(b *testing.B) {
	for _, tt := range []struct{ module, value string }{
		{"vat-number", "DE136695976"},
		{"disposable-email", "ann@mailinator.com"},
	} {
		b.Run(tt.module, func(b *testing.B) {
			benchmarkValidate(b, wasmhooks.Options{}, testModule(b, tt.module), tt.value)
		})
	}
}

// BenchmarkValidateGoNoPool instantiates the Go guest for every call, as a Host without
// idle instances would: the cost of _initialize.
func BenchmarkValidateGoNoPool(b *testing.B) {
	benchmarkValidate(b, wasmhooks.Options{PoolSize: -1}, testModule(b, "vat-number"), "DE136695976")
}

// BenchmarkValidateMinimal measures the host alone: the hand-assembled guest does nothing.
func BenchmarkValidateMinimal(b *testing.B) {
	benchmarkValidate(b, wasmhooks.Options{}, moduleOf("minimal", minimalModule()), "x")
}

func benchmarkValidate(b *testing.B, opts wasmhooks.Options, m wasmhooks.Module, value string) {
	h := newHost(b, opts)
	req := request(value, "")
	validate(b, h, m, value, "") // compile outside the loop
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := h.Validate(b.Context(), m, req); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU starts counting the process's CPU time and returns a function that reports it per
// operation as cpu-ns/op. Unlike ns/op it stays steady on a machine busy with other work.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkCheck4MB measures what a large Go module (testdata/src/big, about 4.5 MB, built
// here rather than committed) costs: compiling and checking it on a fresh Host, the same with
// a warm compilation cache, and the cold start of a process that finds the cache warm and
// serves its first call.
func BenchmarkCheck4MB(b *testing.B) {
	wasm := buildBig(b)
	m := moduleOf("big", wasm)
	cache := b.TempDir()
	warm := newHost(b, wasmhooks.Options{CacheDir: cache})
	if _, err := warm.Check(b.Context(), wasm); err != nil {
		b.Fatal(err)
	}

	run := func(b *testing.B, opts wasmhooks.Options, work func(*wasmhooks.Host) error) {
		b.SetBytes(int64(len(wasm)))
		defer reportCPU(b)()
		for b.Loop() {
			h, err := wasmhooks.New(opts)
			if err != nil {
				b.Fatal(err)
			}
			if err := work(h); err != nil {
				b.Fatal(err)
			}
			if err := h.Close(b.Context()); err != nil {
				b.Fatal(err)
			}
		}
	}
	check := func(h *wasmhooks.Host) error {
		_, err := h.Check(b.Context(), wasm)
		return err
	}
	b.Run("compile+check", func(b *testing.B) {
		run(b, wasmhooks.Options{}, check)
	})
	b.Run("warm-cache/check", func(b *testing.B) {
		run(b, wasmhooks.Options{CacheDir: cache}, check)
	})
	b.Run("warm-cache/first-validate", func(b *testing.B) {
		run(b, wasmhooks.Options{CacheDir: cache}, func(h *wasmhooks.Host) error {
			_, err := h.Validate(b.Context(), m, request("ann@example.com", ""))
			return err
		})
	})
}

// buildBig builds testdata/src/big with the flags of go generate.
func buildBig(b *testing.B) []byte {
	b.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go command to build the module with")
	}
	out := filepath.Join(b.TempDir(), "big.wasm")
	cmd := exec.Command(goTool, "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "./testdata/src/big")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build big module: %v\n%s", err, msg)
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	return wasm
}
