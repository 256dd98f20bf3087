//go:build wasip1

// Command noalloc is a test hook that exports validate but not alloc, so Check must refuse it.
package main

import "unsafe"

var response = []byte(`{"valid":true}`)

//go:wasmexport validate
func validate(_, _ uint32) uint64 {
	return uint64(uintptr(unsafe.Pointer(&response[0])))<<32 | uint64(len(response))
}

func main() {}
