package wasmhooks

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPrescanRealModules logs the figures of the Go modules in testdata against the limits,
// and checks that they leave room: a hook several times larger than the examples must pass.
// For comparison, a 9.4 MB Go program that links go/types, net/http and crypto/tls has 5,052
// functions, 89,592 data segments, blocks nested 1,076 deep, a function cost of 84 million
// and a module cost of 1.0 billion, and compiles in about 3 s of CPU.
func TestPrescanRealModules(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.wasm"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no modules in testdata: %v", err)
	}
	for _, f := range files {
		wasm, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		st, err := prescan(wasm, DefaultLimits().MemoryLimitPages)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		t.Logf("%s: %d bytes, %+v", filepath.Base(f), len(wasm), st)
		for _, c := range []struct {
			what       string
			got, limit uint64
		}{
			{"functions", uint64(st.Functions), maxFunctions},
			// Not data segments: Go's linker merges them to stay within 100,000, the limit of
			// browsers, which maxDataSegments is too.
			{"nesting", uint64(st.MaxNesting), maxNesting},
			{"function cost", st.MaxFunctionCost, maxFunctionCost},
			{"module cost", st.ModuleCost, maxModuleCost},
			{"locals", st.MaxLocals, maxLocals},
			{"body bytes", uint64(st.MaxBodyBytes), maxBodyBytes},
		} {
			if c.got > c.limit/3 {
				t.Errorf("%s: %s %d is more than a third of the limit %d", f, c.what, c.got, c.limit)
			}
		}
	}
}
