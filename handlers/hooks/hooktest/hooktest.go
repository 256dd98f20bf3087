// Package hooktest builds tiny WebAssembly validation hooks (hook ABI v1) for tests, so that
// tests of forms and uploads need no Go guest: a Go module takes seconds to compile, and about
// sixteen under the race detector, while these take microseconds.
//
// A module built here exports memory (2 pages), alloc (always the same buffer, at 4096),
// validate and abi_version. validate answers a fixed response, and can be told to trap, to
// loop for ever or to grow its memory without bound when the request is longer than a threshold: Check's smoke request is short, so
// such a module is installed like any other and misbehaves only on real submissions.
package hooktest

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"cms/content"
)

// Module describes a test hook.
type Module struct {
	// Response is what validate answers, e.g. {"valid":true}.
	Response string
	// TrapAbove makes validate trap (unreachable) when the request is longer than this many
	// bytes; 0 never traps.
	TrapAbove int
	// LoopAbove makes validate loop for ever when the request is longer; 0 never loops.
	LoopAbove int
	// GrowAbove makes validate grow its memory by 1 MiB at a time, without bound, when the
	// request is longer; when the host's memory limit refuses to grow it further it traps.
	GrowAbove int
	// ImportEnv adds an import env.now, which ABI v1 forbids.
	ImportEnv bool
	// NoValidate leaves out the validate export, which ABI v1 requires.
	NoValidate bool
}

// Answer returns a hook that always answers resp.
func Answer(resp string) []byte { return Module{Response: resp}.Bytes() }

// Valid and Invalid are the two answers of ABI v1.
const (
	Valid   = `{"valid":true}`
	Invalid = `{"valid":false,"message":"Rejected by the test hook","code":"test_reject"}`
)

// SmokeSafe is a request length no Check smoke request reaches, for TrapAbove and LoopAbove.
const SmokeSafe = 200

// respOffset is where the response lies in memory; bufOffset where requests are written.
const (
	respOffset = 16
	bufOffset  = 4096
)

// Bytes encodes the module in the WebAssembly binary format.
func (m Module) Bytes() []byte {
	var types, imports, funcs, exports, code [][]byte
	typ := func(params, results []byte) uint64 {
		types = append(types, cat([]byte{0x60}, uleb(uint64(len(params))), params, uleb(uint64(len(results))), results))
		return uint64(len(types) - 1)
	}
	const i32, i64 = 0x7f, 0x7e
	nfunc := uint64(0)
	if m.ImportEnv {
		t := typ(nil, []byte{i64})
		imports = append(imports, cat(name("env"), name("now"), []byte{0x00}, uleb(t)))
		nfunc++
	}
	addFunc := func(export string, params, results, body []byte) {
		t := typ(params, results)
		funcs = append(funcs, uleb(t))
		code = append(code, sized(cat([]byte{0x00}, body, []byte{0x0b})))
		if export != "" {
			exports = append(exports, cat(name(export), []byte{0x00}, uleb(nfunc)))
		}
		nfunc++
	}
	// alloc(size) -> 4096
	addFunc("alloc", []byte{i32}, []byte{i32}, cat([]byte{0x41}, sleb(bufOffset)))
	// validate(ptr, len) -> (16 << 32) | len(resp), after the optional trap and loop checks.
	var body []byte
	if m.TrapAbove > 0 {
		// local.get 1; i32.const N; i32.gt_u; if; unreachable; end
		body = cat(body, []byte{0x20, 0x01, 0x41}, sleb(int64(m.TrapAbove)), []byte{0x4b, 0x04, 0x40, 0x00, 0x0b})
	}
	if m.LoopAbove > 0 {
		// local.get 1; i32.const N; i32.gt_u; if; loop; br 0; end; end
		body = cat(body, []byte{0x20, 0x01, 0x41}, sleb(int64(m.LoopAbove)), []byte{0x4b, 0x04, 0x40, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b})
	}
	if m.GrowAbove > 0 {
		// local.get 1; i32.const N; i32.gt_u; if
		//   block; loop; i32.const 16; memory.grow; i32.const -1; i32.eq; br_if 1; br 0; end; end
		//   unreachable
		// end
		body = cat(body, []byte{0x20, 0x01, 0x41}, sleb(int64(m.GrowAbove)), []byte{0x4b, 0x04, 0x40,
			0x02, 0x40, 0x03, 0x40, 0x41, 0x10, 0x40, 0x00, 0x41, 0x7f, 0x46, 0x0d, 0x01, 0x0c, 0x00, 0x0b, 0x0b,
			0x00, 0x0b})
	}
	body = cat(body, []byte{0x42}, sleb(int64(respOffset)<<32|int64(len(m.Response))))
	validateExport := "validate"
	if m.NoValidate {
		validateExport = ""
	}
	addFunc(validateExport, []byte{i32, i32}, []byte{i64}, body)
	addFunc("abi_version", nil, []byte{i32}, []byte{0x41, 0x01})
	exports = append(exports, cat(name("memory"), []byte{0x02, 0x00}))

	out := []byte("\x00asm\x01\x00\x00\x00")
	section := func(id byte, items [][]byte) {
		if len(items) == 0 {
			return
		}
		payload := cat(uleb(uint64(len(items))), cat(items...))
		out = append(out, id)
		out = append(out, uleb(uint64(len(payload)))...)
		out = append(out, payload...)
	}
	section(1, types)
	section(2, imports)
	section(3, funcs)
	section(5, [][]byte{{0x00, 0x02}}) // one memory, at least 2 pages
	section(7, exports)
	section(10, code)
	data := cat([]byte{0x00, 0x41}, sleb(respOffset), []byte{0x0b}, uleb(uint64(len(m.Response))), []byte(m.Response))
	section(11, [][]byte{data})
	return out
}

// Install stores wasm as hook name without checking it, as if it had passed an upload.
// st is the store the test opened (an *fsstore.Store).
func Install(t testing.TB, st interface {
	PutHook(h content.Hook, wasm []byte) (bool, error)
}, name string, wasm []byte) content.Hook {
	t.Helper()
	sum := sha256.Sum256(wasm)
	h := content.Hook{Name: name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(wasm)), UploadedBy: "test",
		UploadedAt: time.Now().UTC().Format(time.RFC3339), ABIVersion: 1}
	if _, err := st.PutHook(h, wasm); err != nil {
		t.Fatalf("install hook %s: %v", name, err)
	}
	return h
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func name(s string) []byte { return cat(uleb(uint64(len(s))), []byte(s)) }

func sized(b []byte) []byte { return cat(uleb(uint64(len(b))), b) }

func uleb(v uint64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			out = append(out, b|0x80)
			continue
		}
		return append(out, b)
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
