// Command limits writes the minimal hooks that the pre-scan of package wasmhooks must refuse,
// each over one limit, into the folder given as its argument (default: the working folder).
// go generate in wasmhooks runs it; the modules it writes are committed beside it. They are
// written byte by byte here, from nothing but this file.
//
// Each module is a hook as ABI v1 asks: it exports memory (2 pages), alloc and validate, and
// would answer {"valid":true} if it compiled. Only validate's body differs:
//
//	locals-4g.wasm     validate declares 2^32-1 i64 locals. wazero without the pre-scan
//	                   allocates 4 GiB to decode it and 32 GiB to compile it: the process dies.
//	locals-50m.wasm    50,000,000 i64 locals: 1.3 GB of memory to compile.
//	nested.wasm        40,000 nested blocks: seconds of compile time, growing with the square.
//	branches.wasm      a loop with 1,000 locals read in it and 1,000 br_ifs back to it, 8 KB:
//	                   seconds of compile time (see prescan_code.go).
//	table-grow.wasm    a table without a maximum that validate grows by 2^31-1 elements: 16 GiB
//	                   at the first call.
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	modules := map[string][]byte{
		"locals-4g.wasm":  hook(localDecl(1<<32-1, i64), nil, nil),
		"locals-50m.wasm": hook(localDecl(50_000_000, i64), nil, nil),
		"nested.wasm":     hook([]byte{0}, nested(40_000), nil),
		"branches.wasm":   hook(localDecl(1000, i32), branches(1000, 1000), nil),
		"table-grow.wasm": hook([]byte{0}, tableGrow(), []byte{0x70, 0x00, 0x00}), // funcref, min 0, no max
	}
	for name, b := range modules {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

const (
	i32 = 0x7f
	i64 = 0x7e

	validJSON = `{"valid":true}`
	validAt   = 16
)

// hook returns the module with validate's locals and instructions (before its final end and
// the i64.const of the response). table, if not nil, is the type of one table.
func hook(locals, code, table []byte) []byte {
	types := vec(
		cat([]byte{0x60}, vec([]byte{i32}), vec([]byte{i32})),              // alloc
		cat([]byte{0x60}, vec([]byte{i32}, []byte{i32}), vec([]byte{i64})), // validate
	)
	funcs := vec([]byte{0}, []byte{1})
	memory := vec([]byte{0x00, 0x02}) // min 2 pages: the response and a request of 64 KiB
	exports := vec(
		cat(name("memory"), []byte{0x02, 0}),
		cat(name("alloc"), []byte{0x00, 0}),
		cat(name("validate"), []byte{0x00, 1}),
	)
	alloc := body([]byte{0}, cat([]byte{0x41}, sleb(1024))) // i32.const 1024
	validate := body(locals, cat(code, []byte{0x42}, sleb(validAt<<32|int64(len(validJSON)))))
	data := vec(cat([]byte{0x00, 0x41}, sleb(validAt), []byte{0x0b}, vec(bytesOf(validJSON)...)))

	out := []byte("\x00asm\x01\x00\x00\x00")
	out = append(out, section(1, types)...)
	out = append(out, section(3, funcs)...)
	if table != nil {
		out = append(out, section(4, vec(table))...)
	}
	out = append(out, section(5, memory)...)
	out = append(out, section(7, exports)...)
	out = append(out, section(10, vec(alloc, validate))...)
	out = append(out, section(11, data)...)
	return out
}

// localDecl declares n locals of type t in one group.
func localDecl(n uint64, t byte) []byte { return cat([]byte{1}, uleb(n), []byte{t}) }

// nested is n blocks, each inside the one before.
func nested(n int) []byte {
	var b []byte
	for range n {
		b = append(b, 0x02, 0x40) // block
	}
	for range n {
		b = append(b, 0x0b) // end
	}
	return b
}

// branches reads each of n locals in a loop and then branches back to its start m times:
//
//	(loop (drop (local.get 0)) ... (drop (local.get n-1))
//	      (br_if 0 (i32.const 0)) ... m times)
func branches(n, m int) []byte {
	b := []byte{0x03, 0x40}
	for i := range n {
		b = append(b, 0x20)
		b = append(b, uleb(uint64(i))...)
		b = append(b, 0x1a)
	}
	for range m {
		b = append(b, 0x41, 0x00, 0x0d, 0x00)
	}
	return append(b, 0x0b)
}

// tableGrow is (drop (table.grow 0 (ref.null func) (i32.const 0x7fffffff))).
func tableGrow() []byte {
	return cat([]byte{0xd0, 0x70, 0x41}, sleb(0x7fffffff), []byte{0xfc, 15, 0, 0x1a})
}

func body(locals, code []byte) []byte {
	b := cat(locals, code, []byte{0x0b})
	return cat(uleb(uint64(len(b))), b)
}

func section(id byte, payload []byte) []byte {
	return cat([]byte{id}, uleb(uint64(len(payload))), payload)
}

func vec(items ...[]byte) []byte {
	return cat(append([][]byte{uleb(uint64(len(items)))}, items...)...)
}

func name(s string) []byte { return cat(uleb(uint64(len(s))), []byte(s)) }

func bytesOf(s string) [][]byte {
	out := make([][]byte, len(s))
	for i := range len(s) {
		out[i] = []byte{s[i]}
	}
	return out
}

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
