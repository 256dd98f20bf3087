package wasmhooks_test

// A tiny assembler for the hand-written test modules: each is a few functions whose bodies are
// given as raw instructions, documented with the WAT they stand for. Only what the tests need
// is encoded: function types, function imports, one memory, exports, code and one data segment.

const (
	tI32 = 0x7f
	tI64 = 0x7e
)

// Instructions used by the test modules.
const (
	opUnreachable = 0x00
	opLoop        = 0x03
	opBr          = 0x0c
	opEnd         = 0x0b
	opCall        = 0x10
	opI32Const    = 0x41
	opI64Const    = 0x42
	blockEmpty    = 0x40
)

type asmImport struct {
	module, name    string
	params, results []byte
}

type asmFunc struct {
	export          string // "" for none
	params, results []byte
	body            []byte // instructions without the final end
}

type asmModule struct {
	imports    []asmImport
	memPages   uint32 // 0: no memory
	memExport  string // "" for none
	funcs      []asmFunc
	dataOffset uint32
	data       []byte
}

// bytes encodes m in the WebAssembly binary format.
func (m asmModule) bytes() []byte {
	out := []byte("\x00asm\x01\x00\x00\x00")
	section := func(id byte, items ...[]byte) {
		payload := vec(items...)
		out = append(out, id)
		out = append(out, uleb(uint64(len(payload)))...)
		out = append(out, payload...)
	}
	funcType := func(params, results []byte) []byte {
		return cat([]byte{0x60}, uleb(uint64(len(params))), params, uleb(uint64(len(results))), results)
	}

	var types, imports, funcs, exports, code [][]byte
	for _, im := range m.imports {
		imports = append(imports, cat(name(im.module), name(im.name), []byte{0x00}, uleb(uint64(len(types)))))
		types = append(types, funcType(im.params, im.results))
	}
	for i, f := range m.funcs {
		funcs = append(funcs, uleb(uint64(len(types))))
		types = append(types, funcType(f.params, f.results))
		if f.export != "" {
			exports = append(exports, cat(name(f.export), []byte{0x00}, uleb(uint64(len(m.imports)+i))))
		}
		body := cat([]byte{0x00}, f.body, []byte{opEnd}) // no locals
		code = append(code, cat(uleb(uint64(len(body))), body))
	}
	if m.memExport != "" {
		exports = append(exports, cat(name(m.memExport), []byte{0x02, 0x00}))
	}

	section(1, types...)
	if len(imports) > 0 {
		section(2, imports...)
	}
	section(3, funcs...)
	if m.memPages > 0 {
		section(5, cat([]byte{0x00}, uleb(uint64(m.memPages))))
	}
	section(7, exports...)
	section(10, code...)
	if len(m.data) > 0 {
		offset := cat([]byte{opI32Const}, sleb(int64(m.dataOffset)), []byte{opEnd})
		section(11, cat([]byte{0x00}, offset, uleb(uint64(len(m.data))), m.data))
	}
	return out
}

func vec(items ...[]byte) []byte { return cat(append([][]byte{uleb(uint64(len(items)))}, items...)...) }

func name(s string) []byte { return cat(uleb(uint64(len(s))), []byte(s)) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func uleb(v uint64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}

func sleb(v int64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}

func i32Const(v int32) []byte { return cat([]byte{opI32Const}, sleb(int64(v))) }
func i64Const(v int64) []byte { return cat([]byte{opI64Const}, sleb(v)) }

// endlessLoop is (loop (br 0)) unreachable; unreachable makes it fit any function type.
func endlessLoop() []byte { return []byte{opLoop, blockEmpty, opBr, 0, opEnd, opUnreachable} }

// clockImport is the WASI import the clock-reading modules use, as function 0.
var clockImport = asmImport{module: "wasi_snapshot_preview1", name: "clock_time_get", params: []byte{tI32, tI64, tI32}, results: []byte{tI32}}

// readClock reads the wall clock into memory at 64, which calls Options.Now:
//
//	(drop (call 0 (i32.const 0) (i64.const 1) (i32.const 64))) ;; realtime, in ns, to 64
func readClock() []byte {
	return cat(i32Const(0), i64Const(1), i32Const(64), []byte{opCall, 0, 0x1a /* drop */})
}

// clockThenLoop reads the clock and loops for ever, so that a test learns through Options.Now
// that the guest is about to loop.
func clockThenLoop() []byte { return cat(readClock(), endlessLoop()) }

// clockLoopModule answers {"valid":true} to a request of up to 200 bytes, and to a longer one
// reads the clock and loops for ever:
//
//	(import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))
//	(func (export "validate") (param i32 i32) (result i64)
//	  (if (i32.gt_u (local.get 1) (i32.const 200)) (then <readClock> (loop (br 0))))
//	  (i64.const 0x10_0000_000e))
func clockLoopModule() []byte {
	m := hookModule(cat(
		[]byte{0x20, 1}, i32Const(200), []byte{0x4b /* i32.gt_u */, 0x04, blockEmpty},
		readClock(),
		[]byte{opLoop, blockEmpty, opBr, 0, opEnd},
		[]byte{opEnd},
		i64Const(validAt<<32|int64(len(validJSON))),
	))
	m.imports = []asmImport{clockImport}
	return m.bytes()
}

// validJSON is the response of the hand-assembled modules, kept at validAt in their memory.
const (
	validJSON = `{"valid":true}`
	validAt   = 16
)

// hookModule returns a hand-assembled hook whose validate runs body. With the defaults of
// minimalModule it is:
//
//	(module
//	  (memory (export "memory") 2)
//	  (data (i32.const 16) "{\"valid\":true}")
//	  ;; one fixed request buffer after the response: 2 pages hold a 64 KiB request
//	  (func (export "alloc") (param i32) (result i32) (i32.const 1024))
//	  (func (export "validate") (param i32 i32) (result i64) <body>))
func hookModule(validate []byte, extra ...asmFunc) asmModule {
	return asmModule{
		memPages:   2,
		memExport:  "memory",
		dataOffset: validAt,
		data:       []byte(validJSON),
		funcs: append([]asmFunc{
			{export: "alloc", params: []byte{tI32}, results: []byte{tI32}, body: i32Const(1024)},
			{export: "validate", params: []byte{tI32, tI32}, results: []byte{tI64}, body: validate},
		}, extra...),
	}
}

// parityModule answers {"valid":true} to a request of even length and {"valid":false} to one
// of odd length, so that concurrent callers can tell whether they got their own answer:
//
//	(data (i32.const 16) "{\"valid\":true}\00\00{\"valid\":false}")
//	(func (export "validate") (param i32 i32) (result i64)
//	  (if (result i64) (i32.and (local.get 1) (i32.const 1))
//	    (then (i64.const 0x20_0000_000f)) ;; (32 << 32) | 15: {"valid":false}
//	    (else (i64.const 0x10_0000_000e)))) ;; (16 << 32) | 14: {"valid":true}
func parityModule() []byte {
	cond := cat([]byte{0x20, 1}, i32Const(1), []byte{0x71 /* i32.and */})
	return eitherModule(cond).bytes()
}

// eitherModule is a hook whose validate runs cond, which leaves an i32 on the stack, and
// answers {"valid":false} if it is true and {"valid":true} otherwise.
func eitherModule(cond []byte) asmModule {
	const invalidJSON, invalidAt = `{"valid":false}`, 32
	body := cat(
		cond,
		[]byte{0x04 /* if */, tI64},
		i64Const(invalidAt<<32|int64(len(invalidJSON))),
		[]byte{0x05 /* else */},
		i64Const(validAt<<32|int64(len(validJSON))),
		[]byte{opEnd},
	)
	m := hookModule(body)
	m.data = make([]byte, invalidAt-validAt+len(invalidJSON))
	copy(m.data, validJSON)
	copy(m.data[invalidAt-validAt:], invalidJSON)
	return m
}

// clockModule answers {"valid":false} if the wall clock it sees is before 2025-01-01 and
// {"valid":true} from then on:
//
//	(import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))
//	(func (export "validate") (param i32 i32) (result i64)
//	  (drop (call 0 (i32.const 0) (i64.const 1) (i32.const 64))) ;; realtime, in ns, to 64
//	  (if (result i64) (i64.lt_u (i64.load (i32.const 64)) (i64.const 1735689600000000000))
//	    (then <{"valid":false}>) (else <{"valid":true}>)))
func clockModule() []byte {
	cond := cat(
		i32Const(0), i64Const(1), i32Const(64), []byte{opCall, 0, 0x1a /* drop */},
		i32Const(64), []byte{0x29 /* i64.load */, 3, 0},
		i64Const(1735689600_000_000_000), []byte{0x54 /* i64.lt_u */},
	)
	m := eitherModule(cond)
	m.imports = []asmImport{{module: "wasi_snapshot_preview1", name: "clock_time_get", params: []byte{tI32, tI64, tI32}, results: []byte{tI32}}}
	return m.bytes()
}

// loopAboveModule loops for ever on a request longer than 200 bytes and answers
// {"valid":true} to shorter ones:
//
//	(func (export "validate") (param i32 i32) (result i64)
//	  (if (i32.gt_u (local.get 1) (i32.const 200)) (then (loop (br 0))))
//	  (i64.const 0x10_0000_000e))
func loopAboveModule() []byte {
	return hookModule(cat(
		[]byte{0x20, 1}, i32Const(200), []byte{0x4b /* i32.gt_u */, 0x04, blockEmpty},
		[]byte{opLoop, blockEmpty, opBr, 0, opEnd},
		[]byte{opEnd},
		i64Const(validAt<<32|int64(len(validJSON))),
	)).bytes()
}

// minimalModule answers {"valid":true} to everything, doing no work at all: it measures the
// host's own cost per call. Its validate is
//
//	(i64.const 0x10_0000_000e) ;; (16 << 32) | 14, the pointer and length of {"valid":true}
func minimalModule() []byte {
	return hookModule(i64Const(validAt<<32 | int64(len(validJSON)))).bytes()
}
