package wasmhooks_test

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/wasmhooks"
)

// abiVersionModule is a hand-assembled hook whose abi_version returns v:
//
//	(func (export "abi_version") (result i32) (i32.const <v>))
func abiVersionModule(v int32) []byte {
	return hookModule(i64Const(validAt<<32|int64(len(validJSON))),
		asmFunc{export: "abi_version", results: []byte{tI32}, body: i32Const(v)}).bytes()
}

// stderrTrapModule writes "boom\n" to stderr and then traps:
//
//	(import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
//	(memory (export "memory") 2)
//	(data (i32.const 16) "{\"valid\":true}\00\00" "\40\00\00\00\05\00\00\00" ... "boom\n") ;; iovec at 32, text at 64
//	(func (export "alloc") (param i32) (result i32) (i32.const 1024))
//	(func (export "validate") (param i32 i32) (result i64)
//	  (drop (call $fd_write (i32.const 2) (i32.const 32) (i32.const 1) (i32.const 48)))
//	  unreachable)
func stderrTrapModule() []byte {
	data := make([]byte, 64-validAt+5)
	copy(data, validJSON)
	copy(data[32-validAt:], []byte{64, 0, 0, 0, 5, 0, 0, 0}) // iovec{buf: 64, len: 5}
	copy(data[64-validAt:], "boom\n")
	body := cat(i32Const(2), i32Const(32), i32Const(1), i32Const(48), []byte{opCall, 0, 0x1a /* drop */, opUnreachable})
	m := hookModule(body)
	m.imports = []asmImport{{module: "wasi_snapshot_preview1", name: "fd_write", params: []byte{tI32, tI32, tI32, tI32}, results: []byte{tI32}}}
	m.data = data
	return m.bytes()
}

func TestCheck(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})

	oversized := make([]byte, 8<<20+1)
	copy(oversized, "\x00asm\x01\x00\x00\x00")

	noMemory := hookModule(i64Const(0))
	noMemory.memExport = ""

	badValidate := hookModule(i64Const(0))
	badValidate.funcs[1].results = []byte{tI32}
	badValidate.funcs[1].body = i32Const(0)

	unknownWASI := hookModule(i64Const(0))
	unknownWASI.imports = []asmImport{{module: "wasi_snapshot_preview1", name: "open_sesame"}}

	wrongWASI := hookModule(i64Const(0))
	wrongWASI.imports = []asmImport{{module: "wasi_snapshot_preview1", name: "fd_write"}}

	// The modules that loop for ever read the clock first, which runs out their time limit:
	// see the cases marked loops.
	initLoop := hookModule(i64Const(0), asmFunc{export: "_initialize", body: clockThenLoop()})
	initLoop.imports = []asmImport{clockImport}
	validateLoop := hookModule(clockThenLoop())
	validateLoop.imports = []asmImport{clockImport}

	// command is a WASI command whose validate cannot work before _start has run.
	command := hookModule([]byte{opUnreachable}, asmFunc{export: "_start"})

	// smokeSize traps on a request longer than the documented smoke request of 89 bytes:
	//	(if (i32.gt_u (local.get 1) (i32.const 89)) (then unreachable))
	//	(i64.const 0x10_0000_000e)
	smokeSize := hookModule(cat(
		[]byte{0x20, 1}, i32Const(89), []byte{0x4b, 0x04, blockEmpty, opUnreachable, opEnd},
		i64Const(validAt<<32|int64(len(validJSON))),
	))

	tests := []struct {
		name    string
		loops   bool   // run on a host of its own whose time limits run out when the guest reads the clock
		wasm    []byte // nil: testdata/{name}.wasm
		want    string // the error message; "" for success
		prefix  bool   // want is only the start of the message
		wantErr string // the start of the guest's stderr in CheckDetails
	}{
		{name: "vat-number"},
		{name: "garbage"}, // answers well to the smoke call's empty value
		{name: "minimal", wasm: minimalModule()},
		{name: "parity", wasm: parityModule()},
		{name: "abi_version 1", wasm: abiVersionModule(1)},
		{name: "smoke request size", wasm: smokeSize.bytes()},

		{name: "noalloc", want: "module does not export alloc"},
		{name: "badimport", want: "import env.foo is not allowed: only wasi_snapshot_preview1"},
		{name: "oversized", wasm: oversized, want: "module is larger than 8 MiB"},
		{name: "empty", wasm: []byte{}, want: "not a WebAssembly module"},
		{name: "text", wasm: []byte("(module)"), want: "not a WebAssembly module"},
		{name: "elf", wasm: []byte("\x7fELF\x02\x01\x01\x00\x00\x00"), want: "not a WebAssembly module"},
		{name: "version 2", wasm: []byte("\x00asm\x02\x00\x00\x00"), want: "unsupported WebAssembly binary version 2 (want 1)"},
		{name: "corrupt", wasm: []byte("\x00asm\x01\x00\x00\x00\x01\xff\xff"), want: "module does not compile: ", prefix: true},
		{name: "abi_version 2", wasm: abiVersionModule(2), want: "abi_version returned 2, but this host speaks ABI 1"},
		{name: "no memory", wasm: noMemory.bytes(), want: "module does not export memory"},
		{name: "validate type", wasm: badValidate.bytes(), want: "export validate has type (i32, i32) -> (i32), want (i32, i32) -> (i64)"},
		{name: "unknown WASI import", wasm: unknownWASI.bytes(), want: "import wasi_snapshot_preview1.open_sesame is not provided: the host has no such WASI function"},
		{name: "WASI import type", wasm: wrongWASI.bytes(), want: "import wasi_snapshot_preview1.fd_write has type () -> (), want (i32, i32, i32, i32) -> (i32)"},
		{name: "endless _initialize", loops: true, wasm: initLoop.bytes(), want: "initialisation timed out after " + callTimeout.String()},
		{name: "endless validate", loops: true, wasm: validateLoop.bytes(), want: "smoke call timed out after " + callTimeout.String()},
		{name: "trap", wasm: hookModule([]byte{opUnreachable}).bytes(), want: "smoke call trapped in validate: wasm error: unreachable"},
		{name: "command", wasm: command.bytes(), want: "smoke call trapped in validate: wasm error: unreachable (the module is a WASI command: it exports _start, which this host never calls; build a Go hook with -buildmode=c-shared)"},
		{name: "trap with stderr", wasm: stderrTrapModule(), want: "smoke call trapped in validate: wasm error: unreachable", wantErr: "boom\n"},
		{name: "guest error", wasm: hookModule(i64Const(0)).bytes(), want: "smoke call failed: validate reported a guest error"},
		{name: "outside memory", wasm: hookModule(i64Const(0x7fff_0000<<32 | 14)).bytes(), want: "smoke call failed: response at 0x7fff0000+14 lies outside memory of 131072 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, wasm := h, tt.wasm
			if tt.loops {
				tr := newTrigger()
				h = hostWithTrigger(t, wasmhooks.Options{Now: func() time.Time {
					tr.fire()
					return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
				}}, tr)
			}
			if wasm == nil {
				wasm = readModule(t, tt.name)
			}
			info, err := h.Check(t.Context(), wasm)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				sum := sha256.Sum256(wasm)
				if info.SHA256 != hex.EncodeToString(sum[:]) || info.Size != len(wasm) || info.ABIVersion != 1 {
					t.Errorf("Info = %+v, want sha256 %x, size %d, ABI 1", info, sum, len(wasm))
				}
				for _, x := range []string{"alloc", "memory", "validate"} {
					if !slices.Contains(info.Exports, x) {
						t.Errorf("Exports = %v, want %s among them", info.Exports, x)
					}
				}
				return
			}
			ce := wantError(t, err, content.Invalid)
			if got := ce.Message; got != tt.want && !(tt.prefix && strings.HasPrefix(got, tt.want)) {
				t.Errorf("Message = %q, want %q", got, tt.want)
			}
			details, _ := ce.Details.(wasmhooks.CheckDetails)
			if !strings.HasPrefix(details.Stderr, tt.wantErr) {
				t.Errorf("Details.Stderr = %q, want it to start with %q", details.Stderr, tt.wantErr)
			}
		})
	}
}

func TestCheckSmallModuleLimit(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{Limits: wasmhooks.Limits{MaxModuleBytes: 1 << 20}})
	_, err := h.Check(t.Context(), readModule(t, "vat-number"))
	if ce := wantError(t, err, content.Invalid); ce.Message != "module is larger than 1 MiB" {
		t.Errorf("Message = %q", ce.Message)
	}
}

// TestCheckThenValidate checks that a checked module stays compiled: Validate must not load it.
func TestCheckThenValidate(t *testing.T) {
	t.Parallel()
	h := newHost(t, wasmhooks.Options{})
	wasm := minimalModule()
	if _, err := h.Check(t.Context(), wasm); err != nil {
		t.Fatalf("Check: %v", err)
	}
	m := moduleOf("minimal", wasm)
	m.Load = func() ([]byte, error) {
		t.Error("Load called for a module Check has compiled")
		return wasm, nil
	}
	if got := validate(t, h, m, "x", ""); !got.Valid {
		t.Errorf("Validate = %+v, want valid", got)
	}
}
