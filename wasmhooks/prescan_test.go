package wasmhooks_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"cms/content"
	"cms/wasmhooks"
)

// The modules in testdata/limits are written by testdata/limits/main.go; each is a hook that
// would work but for one limit of the pre-scan, which wazero could not survive or would spend
// seconds on. Without the pre-scan, Check of locals-4g.wasm or table-grow.wasm kills the
// process (fatal error: out of memory), locals-50m.wasm costs 1.3 GB, nested.wasm and
// branches.wasm several seconds of CPU each.
var limitModules = []struct {
	file  string
	limit string // the name of the limit it exceeds
	what  string // in the message
}{
	{"locals-4g", "locals per function", "function 1 declares 4294967295 or more locals; the limit is 10000 locals per function"},
	{"locals-50m", "locals per function", "function 1 declares 50000000 or more locals"},
	{"nested", "nested blocks per function", "function 1 nests blocks more than 10000 deep"},
	{"branches", "compile cost per function", "function 1 has an estimated compile cost of"},
	{"table-grow", "elements per table", "function 1 grows table 0, which has no maximum size within the limit"},
}

func readLimitModule(t testing.TB, name string) []byte {
	t.Helper()
	return readModule(t, filepath.Join("limits", name))
}

// TestCheckRefusesModulesOverLimits uploads each module of testdata/limits: Check refuses it
// with a message that names the limit, and the Host goes on working.
func TestCheckRefusesModulesOverLimits(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	for _, tt := range limitModules {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			_, err := h.Check(t.Context(), readLimitModule(t, tt.file))
			ce := wantError(t, err, content.Invalid)
			if !strings.Contains(ce.Message, tt.what) || !strings.Contains(ce.Message, tt.limit) {
				t.Errorf("Message = %q, want it to say %q and name the limit %q", ce.Message, tt.what, tt.limit)
			}
			if d, _ := ce.Details.(wasmhooks.CheckDetails); d.Limit != tt.limit || d.Max == 0 {
				t.Errorf("Details = %+v, want Limit %q and its value", ce.Details, tt.limit)
			}
		})
	}
	if _, err := h.Check(t.Context(), minimalModule()); err != nil {
		t.Errorf("Check of a good module after the refusals: %v", err)
	}
}

// TestValidateRefusesModulesOverLimits is the path of a module dropped into resources/hooks by
// hand, never checked: its first use fails the call, once, and the Host goes on working.
func TestValidateRefusesModulesOverLimits(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	for _, tt := range limitModules {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			m := moduleOf(tt.file, readLimitModule(t, tt.file))
			var loads atomic.Int32
			load := m.Load
			m.Load = func() ([]byte, error) {
				loads.Add(1)
				return load()
			}
			for range 2 {
				_, err := h.Validate(t.Context(), m, request("x", ""))
				wantHookFailure(t, err, tt.what)
			}
			if n := loads.Load(); n != 1 {
				t.Errorf("module loaded %d times, want once: a refused module is remembered", n)
			}
		})
	}
	wantWorks(t, h, moduleOf("minimal", minimalModule()))
}

// sec is a section of the binary format; module puts sections after the header.
func sec(id byte, payload ...[]byte) []byte {
	p := cat(payload...)
	return cat([]byte{id}, uleb(uint64(len(p))), p)
}

func module(sections ...[]byte) []byte {
	return cat(append([][]byte{[]byte("\x00asm\x01\x00\x00\x00")}, sections...)...)
}

// repeat returns n copies of b, as the items of a vector.
func repeat(n int, b []byte) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// oneFunction is a module with one function of type () -> () whose body (after its locals)
// is code, and the types, function and code sections it needs.
func oneFunction(locals, code []byte) []byte {
	body := cat(locals, code, []byte{opEnd})
	return module(sec(1, vec(cat([]byte{0x60}, vec(), vec()))), sec(3, vec([]byte{0})),
		sec(10, vec(cat(uleb(uint64(len(body))), body))))
}

func nestedBlocks(n int) []byte {
	return cat(cat(repeat(n, []byte{0x02, blockEmpty})...), cat(repeat(n, []byte{opEnd})...))
}

// brIfs is a block holding n times (br_if 0 (i32.const 0)): a chain of n basic blocks.
func brIfs(n int) []byte {
	return cat([]byte{0x02, blockEmpty}, cat(repeat(n, []byte{opI32Const, 0, 0x0d, 0})...), []byte{opEnd})
}

// TestPrescanLimits builds a module over each limit, as small as it can be, and checks that
// the pre-scan refuses it and names the limit; and one at the limit, which it accepts.
func TestPrescanLimits(t *testing.T) {
	t.Parallel()
	voidType := cat([]byte{0x60}, vec(), vec())
	emptyBody := []byte{2, 0, opEnd} // size, no locals, end
	funcs := func(n int) []byte {
		return cat(sec(3, vec(repeat(n, []byte{0})...)))
	}
	codes := func(n int) []byte { return sec(10, vec(repeat(n, emptyBody)...)) }
	exports := func(n int) [][]byte {
		out := make([][]byte, n)
		for i := range out {
			out[i] = cat(name(fmt.Sprint("e", i)), []byte{0x02, 0})
		}
		return out
	}
	tableGrow := []byte{0xd0, 0x70, opI32Const, 1, 0xfc, 15, 0, 0x1a}
	tableModule := func(limits []byte) []byte {
		body := cat([]byte{0}, tableGrow, []byte{opEnd})
		return module(sec(1, vec(voidType)), sec(3, vec([]byte{0})), sec(4, vec(cat([]byte{0x70}, limits))),
			sec(10, vec(cat(uleb(uint64(len(body))), body))))
	}
	names := func(n int) []byte { // n function names, all empty
		sub := vec(repeat(n, []byte{0, 0})...)
		return sec(0, name("name"), []byte{1}, uleb(uint64(len(sub))), sub)
	}
	// A function that is brIfs(brs) has an estimated compile cost just under the limit.
	const brs = 9_500

	tests := []struct {
		name  string
		wasm  []byte
		limit string // "" for a module the pre-scan accepts
	}{
		{"types", module(sec(1, vec(repeat(10_001, voidType)...))), "function types"},
		{"types at the limit", module(sec(1, vec(repeat(10_000, voidType)...))), ""},
		{"parameters", module(sec(1, vec(cat([]byte{0x60}, vec(repeat(1001, []byte{tI32})...), vec())))), "parameters or results per function type"},
		{"results", module(sec(1, vec(cat([]byte{0x60}, vec(), vec(repeat(1001, []byte{tI32})...))))), "parameters or results per function type"},
		{"imports", module(sec(1, vec(voidType)), sec(2, vec(repeat(1001, cat(name("m"), name("f"), []byte{0, 0}))...))), "imports"},
		{"functions", module(sec(1, vec(voidType)), funcs(100_001), codes(100_001)), "functions"},
		{"functions at the limit", module(sec(1, vec(voidType)), funcs(100_000), codes(100_000)), ""},
		{"tables", module(sec(4, vec(repeat(5, []byte{0x70, 0x01, 0, 1})...))), "tables"},
		{"table minimum", module(sec(4, vec(cat([]byte{0x70, 0x00}, uleb(1<<20+1))))), "elements per table"},
		{"growing a table without maximum", tableModule([]byte{0x00, 0}), "elements per table"},
		{"growing a table of a large maximum", tableModule(cat([]byte{0x01, 0}, uleb(1<<20+1))), "elements per table"},
		{"growing a table of a small maximum", tableModule(cat([]byte{0x01, 0}, uleb(1<<20))), ""},
		{"a table without maximum that does not grow", module(sec(4, vec([]byte{0x70, 0x00, 0}))), ""},
		{"globals", module(sec(6, vec(repeat(10_001, []byte{tI32, 0, opI32Const, 0, opEnd})...))), "globals"},
		{"exports", module(sec(5, vec([]byte{0, 1})), sec(7, vec(exports(1001)...))), "exports"},
		{"element segments", module(sec(9, vec(repeat(1001, []byte{0, opI32Const, 0, opEnd, 0})...))), "element segments"},
		{"element entries", module(sec(9, vec(cat([]byte{0, opI32Const, 0, opEnd}, vec(repeat(1<<20+1, []byte{0})...))))), "element segment entries"},
		{"data segments", module(sec(11, vec(repeat(100_001, []byte{1, 0})...))), "data segments"},
		{"code size", oneFunction([]byte{0}, cat(repeat(1<<20, []byte{0x01})...)), "bytes of code per function"},
		{"locals", oneFunction(cat([]byte{2}, uleb(5000), []byte{tI32}, uleb(5001), []byte{tI64}), nil), "locals per function"},
		{"locals at the limit", oneFunction(cat([]byte{2}, uleb(5000), []byte{tI32}, uleb(5000), []byte{tI64}), nil), ""},
		{"locals of the module", module(sec(1, vec(voidType)), funcs(101),
			sec(10, vec(repeat(101, cat(uleb(5), []byte{1}, uleb(10_000), []byte{tI32, opEnd}))...))), "locals per module"},
		{"nesting", oneFunction([]byte{0}, nestedBlocks(10_001)), "nested blocks per function"},
		{"nesting at the limit", oneFunction([]byte{0}, nestedBlocks(10_000)), ""},
		{"compile cost of a function", oneFunction([]byte{0}, brIfs(12_000)), "compile cost per function"},
		{"compile cost of a function within the limit", oneFunction([]byte{0}, brIfs(brs)), ""},
		{"compile cost of the module", module(sec(1, vec(voidType)), funcs(7),
			sec(10, vec(repeat(7, func() []byte { b := cat([]byte{0}, brIfs(brs), []byte{opEnd}); return cat(uleb(uint64(len(b))), b) }())...))), "compile cost per module"},
		{"compile cost of function types", module(sec(1, vec(repeat(3001,
			cat([]byte{0x60}, vec(repeat(1000, []byte{tI32})...), vec(repeat(1000, []byte{tI32})...)))...))), "compile cost per module"},
		{"name section", module(names(200_001)), "name section entries"},
		{"memory", module(sec(5, vec(cat([]byte{0}, uleb(1025))))), "memory pages"},
		{"memory at the limit", module(sec(5, vec(cat([]byte{0}, uleb(1024))))), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := wasmhooks.Prescan(tt.wasm)
			if tt.limit == "" {
				if err != nil {
					t.Fatalf("Prescan: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "module exceeds a limit: ") || !strings.HasSuffix(err.Error(), " "+tt.limit) {
				t.Errorf("Prescan = %v, want the limit of %s", err, tt.limit)
			}
		})
	}
}

// TestPrescanMalformed feeds modules that declare counts or lengths their bytes do not hold:
// wazero's decoder allocates by such a count before it reads what it counts (a vector of
// 2^32-1 exports, a data segment of 4 GiB), so the pre-scan must refuse them.
func TestPrescanMalformed(t *testing.T) {
	t.Parallel()
	max32 := uleb(1<<32 - 1)
	tests := []struct {
		name string
		wasm []byte
		want string
	}{
		{"truncated section", module([]byte{1, 10, 1}), "length 10 is more than the 1 bytes left at byte 10"},
		{"types", module(sec(1, max32)), "type section: vector of 4294967295 entries does not fit in the 0 bytes left at byte 10"},
		{"imports", module(sec(2, max32)), "vector of 4294967295 entries does not fit"},
		{"exports", module(sec(7, max32)), "vector of 4294967295 entries does not fit"},
		{"globals", module(sec(6, max32)), "vector of 4294967295 entries does not fit"},
		{"data of 4 GiB", module(sec(11, vec(cat([]byte{1}, max32)))), "data section: length 4294967295 is more than the 0 bytes left"},
		{"code of 4 GiB", module(sec(1, vec(cat([]byte{0x60}, vec(), vec()))), sec(3, vec([]byte{0})), sec(10, vec(max32))), "code section: length 4294967295 is more than"},
		{"custom section name of 4 GiB", module(sec(0, max32)), "custom section: length 4294967295 is more than"},
		{"local names", module(sec(0, name("name"), []byte{2, 5}, max32)), "custom section: vector of 4294967295 entries does not fit"},
		{"name subsection longer than its section", module(sec(0, name("name"), []byte{1, 100}, vec())), "length 100 is more than"},
		{"name subsection with bytes after its map", module(sec(0, name("name"), []byte{1, 2}, vec(), []byte{0})), "name subsection 1: 1 bytes after its end"},
		{"section out of order", module(sec(3, vec()), sec(1, vec())), "type section out of order"},
		{"unknown section", module(sec(13, vec())), "unknown section id 13"},
		{"bytes after a section's end", module(sec(1, vec(), []byte{0})), "type section: 1 bytes after its end"},
		{"integer too long", module([]byte{1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}), "integer too large"},
		{"integer too large", module([]byte{1, 0xff, 0xff, 0xff, 0xff, 0x1f}), "integer too large"},
		{"code after the end", oneFunction([]byte{0}, []byte{opEnd, 0x01}), "function 0: 2 bytes after the function's end"},
		{"no end", module(sec(1, vec(cat([]byte{0x60}, vec(), vec()))), sec(3, vec([]byte{0})), sec(10, vec([]byte{2, 0, 0x01}))), "function 0: unexpected end"},
		{"unknown instruction", oneFunction([]byte{0}, []byte{0x12, 0}), "unknown instruction 0x12"},
		{"unknown prefixed instruction", oneFunction([]byte{0}, []byte{0xfc, 18}), "unknown instruction 0xfc 18"},
		{"else without if", oneFunction([]byte{0}, []byte{0x05}), "else without if"},
		{"bodies and functions differ", module(sec(1, vec(cat([]byte{0x60}, vec(), vec()))), sec(3, vec([]byte{0})), sec(10, vec())), "0 function bodies for 1 functions"},
		{"functions without code", module(sec(1, vec(cat([]byte{0x60}, vec(), vec()))), sec(3, vec([]byte{0}))), "1 functions but no code section"},
		{"shared memory", module(sec(5, vec([]byte{3, 1, 1}))), "unknown limits flag 0x03"},
		{"GC types", module(sec(1, vec([]byte{0x5f, 0, 0}))), "type 0 is not a function type (0x5f)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := wasmhooks.Prescan(tt.wasm)
			if err == nil || !strings.HasPrefix(err.Error(), "module does not compile: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Prescan = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestPrescanAcceptsGoodModules checks that what the other tests upload passes: the Go
// modules of testdata and the hand-assembled ones. (TestPrescanRealModules logs the figures of
// the Go modules against the limits.)
func TestPrescanAcceptsGoodModules(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "*.wasm"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no modules in testdata: %v", err)
	}
	modules := map[string][]byte{
		"minimal": minimalModule(), "parity": parityModule(), "clock": clockModule(),
		"stderr-trap": stderrTrapModule(), "abi-version": abiVersionModule(1), "loop-above": loopAboveModule(),
		"clock-loop": clockLoopModule(),
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".wasm")
		modules[name] = readModule(t, name)
	}
	for name, wasm := range modules {
		if err := wasmhooks.Prescan(wasm); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
