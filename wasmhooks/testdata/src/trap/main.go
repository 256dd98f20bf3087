//go:build wasip1

// Command trap is a test hook that implements ABI v1 by hand, without the guest SDK and its
// recover, so that a Go panic aborts the module: when the request contains "panic" it panics,
// the Go runtime prints the panic to stderr and exits with code 2. Otherwise it answers valid.
package main

import (
	"bytes"
	"unsafe"
)

var (
	buffers  = map[uint32][]byte{}
	response = []byte(`{"valid":true}`)
)

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	b := make([]byte, size+1)
	p := uint32(uintptr(unsafe.Pointer(&b[0])))
	buffers[p] = b
	return p
}

//go:wasmexport validate
func validate(ptr, size uint32) uint64 {
	req := buffers[ptr][:size]
	delete(buffers, ptr)
	if bytes.Contains(req, []byte(`"value":"panic"`)) {
		panic("trap: asked to panic")
	}
	return uint64(uintptr(unsafe.Pointer(&response[0])))<<32 | uint64(len(response))
}

func main() {}
