//go:build wasip1

// Command badimport is a test hook that imports env.foo, a function outside
// wasi_snapshot_preview1, so Check must refuse it.
package main

import "unsafe"

var response = []byte(`{"valid":true}`)

//go:wasmimport env foo
func foo()

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	b := make([]byte, size+1)
	return uint32(uintptr(unsafe.Pointer(&b[0])))
}

//go:wasmexport validate
func validate(_, _ uint32) uint64 {
	foo()
	return uint64(uintptr(unsafe.Pointer(&response[0])))<<32 | uint64(len(response))
}

func main() {}
