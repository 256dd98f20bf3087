// Package wasmhooks runs user-uploaded WebAssembly validation hooks through hook ABI v1 on the
// wazero runtime. It deals only in module bytes: storing uploaded modules and serving HTTP are
// done elsewhere.
//
// # API
//
// A [Host] is built once per process with [New], which is cheap: the wazero runtime is created on
// first use. [Host.Check] vets an uploaded module (size, imports, exports, a smoke call) and
// returns its [Info]; [Host.Validate] asks a module, named by its sha256, whether one field value
// is valid; [Host.Close] releases everything. A Host is safe for concurrent use. Compiled modules
// are kept by sha256 (the least recently used are dropped beyond 64), with up to
// [Options.PoolSize] idle instances each; a module that breaks the ABI is remembered as broken,
// so it is not compiled again on every call.
//
// Errors are [*content.Error]. Check reports a bad module as Invalid with a message the uploader
// can act on. Validate reports a request that is too large as Invalid, and any failure of the
// guest (trap, timeout, exit, bad pointer, malformed response) as Internal with the generic
// message "validation hook failed" and the cause, including the guest's stderr, in Err. The
// instance that failed is closed, never reused.
//
// # Hook ABI v1
//
// This is a contract third parties write modules against; it changes only with a new version.
//
// A hook is a WebAssembly module in binary format version 1, using at most the features of the
// WebAssembly 2.0 core specification (bulk memory, multi-value, sign extension, non-trapping
// float-to-int conversion, reference types, SIMD), with one 32-bit memory. It must export
//
//	memory                                    its linear memory
//	alloc(size i32) -> i32                    a buffer of size bytes for the request; 0 on failure
//	validate(ptr i32, len i32) -> i64         (respPtr << 32) | respLen, or 0 for a guest error
//
// and may export
//
//	_initialize()                             called once after instantiation (Go guests need it)
//	dealloc(ptr i32, size i32)                frees a buffer from alloc; the host does not call it today
//	abi_version() -> i32                      must return 1
//
// Exports with these names and other signatures are refused. The only imports allowed come from
// wasi_snapshot_preview1, and they are served with an empty configuration: no preopened
// directories, no environment, no arguments, no sockets, stdin at end of file, stdout discarded,
// stderr kept (the first [Limits.StderrBytes]) for the log, deterministic random numbers, and a
// clock fixed at 2022-01-01T00:00:00Z that advances 1 ms per reading unless [Options.Now] is
// set. _start is never called.
//
// For each call the host calls alloc(len), writes the request there and calls validate(ptr, len).
// The request buffer then belongs to the guest. The response must lie inside memory and stays
// valid only until the next call into the instance; the host copies it at once. An instance is
// called by one goroutine at a time.
//
// The request is UTF-8 JSON:
//
//	{"abi":1,"form":"contact","field":"email","value":<as submitted>,
//	 "params":{"arg":"EU"},"data":{<all submitted values>},"locale":"en"}
//
// params.arg is the text after the second colon of the rule, as in hook:vat-number:EU, and is
// omitted when empty. The response is UTF-8 JSON:
//
//	{"valid":true}
//	{"valid":false,"message":"plain text for the user","code":"invalid_vat"}
//
// valid is required. message is plain text (the site escapes it) of at most 512 Unicode code
// points.
// code is at most 64 ASCII letters, digits, '_', '-' or '.'. Other fields are ignored, so later
// versions can add some.
//
// Limits, configurable in [Limits] (defaults in brackets): module size [8 MiB], memory per
// instance [1024 pages, 64 MiB], time per call [100 ms], time to instantiate including
// _initialize and abi_version [1 s], time to compile [1 min], request [64 KiB], response
// [4 KiB]. A module that grows its memory beyond the limit sees memory.grow fail; a call that
// runs too long is stopped.
//
// Before wazero sees a module, a pre-scan of its binary refuses one that would make wazero
// allocate or compute out of proportion to its size, with a message that names the limit:
// locals, functions, types, tables, globals, segments, code size, block nesting and an
// estimate of the compile time (docs/hooks.md lists them; prescan.go says why). Every module
// passes it, whether checked on upload or loaded by Validate. A compile runs on a goroutine of
// its own: a caller whose context ends stops waiting for it, and Close stops it.
//
// # Go guests
//
// Package [cms/wasmhooks/guest] implements the guest side for Go; examples/ holds two hooks
// built with it. The modules in testdata are rebuilt by go generate (see generate.go).
package wasmhooks
