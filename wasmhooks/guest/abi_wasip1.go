//go:build wasip1

package guest

import (
	"fmt"
	"os"
	"unsafe"
)

// maxAlloc bounds one alloc; the host sends requests of 64 KiB by default.
const maxAlloc = 16 << 20

// The state below belongs to the one module instance this program runs in. Package variables are
// the only place a reactor can keep it between calls, and the host calls an instance from one
// goroutine at a time, so no lock is needed.
var (
	handler Handler

	// buffers keeps every buffer handed to the host reachable, keyed by its address, so the
	// garbage collector does not free memory the host is about to write to. Go's collector
	// does not move objects, so the address stays valid.
	buffers = map[uint32][]byte{}

	// response keeps the last answer alive until the next call, as the ABI promises.
	response []byte
)

// Handle registers the function that answers validate calls. Call it from an init function of
// package main: the host runs package initialisation, never main. A later call replaces h.
func Handle(h Handler) {
	if h == nil {
		panic("guest.Handle: nil handler")
	}
	handler = h
}

//go:wasmexport abi_version
func abiVersion() int32 { return ABIVersion }

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	if size > maxAlloc {
		return 0
	}
	b := make([]byte, max(size, 1))
	p := uint32(uintptr(unsafe.Pointer(&b[0])))
	buffers[p] = b
	return p
}

//go:wasmexport dealloc
func dealloc(ptr, _ uint32) {
	delete(buffers, ptr)
}

//go:wasmexport validate
func validate(ptr, size uint32) uint64 {
	// The request buffer belongs to the guest from here on: release it whatever happens.
	b, ok := buffers[ptr]
	delete(buffers, ptr)
	response = nil
	if !ok || int(size) > len(b) {
		fmt.Fprintf(os.Stderr, "guest: validate called with a buffer alloc did not return (%#x, %d)\n", ptr, size)
		return 0
	}
	out, err := serve(handler, b[:size])
	if err != nil {
		fmt.Fprintf(os.Stderr, "guest: %v\n", err)
		return 0
	}
	response = out
	p := uint32(uintptr(unsafe.Pointer(unsafe.SliceData(out))))
	return uint64(p)<<32 | uint64(len(out))
}
