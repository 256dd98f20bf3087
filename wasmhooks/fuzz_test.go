package wasmhooks_test

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/tetratelabs/wazero"

	"cms/wasmhooks"
)

// FuzzDecodeResponse feeds the parser of guest output, which is untrusted, arbitrary bytes.
// Whatever it accepts must be JSON, within the limits of ABI v1, and survive a round trip.
func FuzzDecodeResponse(f *testing.F) {
	for _, seed := range []string{
		`{"valid":true}`,
		`{"valid":false,"message":"Please use a permanent address.","code":"disposable_email"}`,
		` {"code":"x","valid":false} `,
		`{"valid":true,"future":{"field":[1,2,3]}}`,
		`{"valid":false,"message":"` + strings.Repeat("é", 512) + `"}`,
		`{"valid":false,"message":"` + strings.Repeat("é", 513) + `"}`,
		`{"valid":false,"code":"` + strings.Repeat("c", 65) + `"}`,
		`{"valid":false,"code":"no spaces"}`,
		`{"valid":false,"message":"\u0000\ud800"}`,
		`{"valid":"yes"}`,
		`{"valid":null}`,
		`{"valid":true,"valid":false}`,
		`{"valid":true}{"valid":false}`,
		`{}`, `null`, `[]`, `true`, ``, "\xff", `{"valid":true,"message":"\xff"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := wasmhooks.DecodeResponse(b)
		if err != nil {
			return
		}
		if !json.Valid(b) || !utf8.Valid(b) {
			t.Fatalf("accepted %q, which is not UTF-8 JSON", b)
		}
		if n := utf8.RuneCountInString(r.Message); n > 512 {
			t.Fatalf("accepted a message of %d characters", n)
		}
		if len(r.Code) > 64 || strings.ContainsAny(r.Code, " \"<>&\x00") {
			t.Fatalf("accepted code %q", r.Code)
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		again, err := wasmhooks.DecodeResponse(out)
		if err != nil || again != r {
			t.Fatalf("round trip of %+v gave %+v, %v", r, again, err)
		}
	})
}

// FuzzPrescan feeds the pre-scan, which reads untrusted modules before wazero does, with what
// follows the header of a module. It must not panic; it must refuse with one of its two kinds
// of message; and what it accepts must be cheap for wazero to compile: no more than 64 MiB
// allocated, where a module it should have refused allocates gigabytes.
func FuzzPrescan(f *testing.F) {
	for _, m := range [][]byte{
		minimalModule(), parityModule(), clockModule(), stderrTrapModule(), loopAboveModule(),
		clockLoopModule(), abiVersionModule(2),
		oneFunction([]byte{1, 3, tI32}, cat(nestedBlocks(20), brIfs(10))),
		oneFunction([]byte{0}, []byte{ // br_table, typed select, if/else, SIMD, a prefixed instruction
			0x02, blockEmpty, opI32Const, 0, 0x0e, 2, 0, 0, 0, opEnd,
			opI32Const, 1, opI32Const, 2, opI32Const, 0, 0x1c, 1, tI32, 0x1a,
			opI32Const, 0, 0x04, tI32, opI32Const, 1, 0x05, opI32Const, 2, opEnd, 0x1a,
			0xfd, 0x0c, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0xfd, 0x80, 0x01, 0x1a,
			0x43, 0, 0, 0, 0, 0xfc, 0, 0x1a, // i32.trunc_sat_f32_s
		}),
	} {
		f.Add(m[8:])
	}
	for _, name := range []string{"locals-4g", "locals-50m", "branches", "table-grow"} {
		f.Add(readLimitModule(f, name)[8:])
	}
	rt := sync.OnceValue(func() wazero.Runtime { return wazero.NewRuntime(context.Background()) })
	f.Fuzz(func(t *testing.T, b []byte) {
		wasm := append([]byte("\x00asm\x01\x00\x00\x00"), b...)
		if err := wasmhooks.Prescan(wasm); err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "module does not compile: ") && !strings.HasPrefix(msg, "module exceeds a limit: ") {
				t.Fatalf("Prescan refused with %q", msg)
			}
			return
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, err := rt().CompileModule(t.Context(), wasm)
		runtime.ReadMemStats(&after)
		if err == nil {
			code.Close(t.Context())
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
			t.Fatalf("a module the pre-scan accepts made wazero allocate %d MiB to compile", n>>20)
		}
	})
}

// FuzzPrescanCode is FuzzPrescan for the instructions of one function, in a module with the
// memory, table, global and data segment they may use, so that most inputs reach the scan of
// instructions, the part of the pre-scan that must read them exactly as wazero does.
func FuzzPrescanCode(f *testing.F) {
	for _, code := range [][]byte{
		nil,
		cat(nestedBlocks(30), brIfs(20)),
		{0x03, blockEmpty, opI32Const, 0, 0x0d, 0, opEnd},                            // loop with a back edge
		{opI32Const, 0, 0x04, tI32, opI32Const, 1, 0x05, opI32Const, 2, opEnd, 0x1a}, // if/else
		{0x02, blockEmpty, opI32Const, 0, 0x0e, 2, 0, 0, 0, opEnd},                   // br_table
		{opI32Const, 0, 0x28, 2, 0, 0x1a, opI32Const, 0, 0xfd, 0x00, 4, 0, 0x1a},     // i32.load, v128.load
		{opI32Const, 0, opI32Const, 0, opI32Const, 1, 0xfc, 11, 0},                   // memory.fill
		{0xd0, 0x70, opI32Const, 1, 0xfc, 15, 0, 0x1a, 0x23, 0, 0x1a},                // table.grow, global.get
		{0x20, 0, 0x20, 1, 0x6a, 0x21, 0, 0x0f},                                      // locals, return
		{0xd0, 0x69, 0x1a},                                                           // ref.null exn, which wazero reads
	} {
		f.Add(code)
	}
	rt := sync.OnceValue(func() wazero.Runtime { return wazero.NewRuntime(context.Background()) })
	f.Fuzz(func(t *testing.T, code []byte) {
		body := cat([]byte{1, 2, tI32}, code, []byte{opEnd}) // two i32 locals
		wasm := module(
			sec(1, vec(cat([]byte{0x60}, vec(), vec()))),
			sec(3, vec([]byte{0})),
			sec(4, vec([]byte{0x70, 0x01, 1, 16})),             // funcref table of 1 to 16
			sec(5, vec([]byte{0x00, 1})),                       // memory of 1 page
			sec(6, vec([]byte{tI32, 1, opI32Const, 0, opEnd})), // mutable i32 global
			sec(12, uleb(1)),                                   // data count
			sec(10, vec(cat(uleb(uint64(len(body))), body))),
			sec(11, vec([]byte{1, 1, 'x'})), // passive data segment
		)
		if err := wasmhooks.Prescan(wasm); err != nil {
			msg := err.Error()
			switch {
			case strings.HasPrefix(msg, "module exceeds a limit: "):
			case strings.HasPrefix(msg, "module does not compile: "):
				// Code the pre-scan finds malformed must be code wazero refuses too, or the
				// pre-scan misreads valid code. This input is small: wazero may try it.
				if compiled, err := rt().CompileModule(t.Context(), wasm); err == nil {
					compiled.Close(t.Context())
					t.Fatalf("the pre-scan refuses code that wazero compiles: %s", msg)
				}
			default:
				t.Fatalf("Prescan refused with %q", msg)
			}
			return
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		compiled, err := rt().CompileModule(t.Context(), wasm)
		runtime.ReadMemStats(&after)
		if err == nil {
			compiled.Close(t.Context())
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
			t.Fatalf("a module the pre-scan accepts made wazero allocate %d MiB to compile", n>>20)
		}
	})
}
