//go:build wasip1

// Command garbage is a test hook that breaks the response rules of ABI v1 on request. The value
// picks the fault:
//
//	"notjson"   a response that is not JSON
//	"novalid"   JSON without the valid field
//	"longmsg"   a message of 513 characters
//	"badcode"   a code with a space in it
//	"outside"   a pointer past the end of memory
//	"huge"      a length of 1 MiB, above the response limit
//	"zero"      0, the guest-error result
//
// Anything else gets {"valid":true}.
package main

import (
	"bytes"
	"strings"
	"unsafe"
)

var (
	buffers  = map[uint32][]byte{}
	response []byte
)

//go:wasmexport alloc
func alloc(size uint32) uint32 {
	b := make([]byte, size+1)
	p := uint32(uintptr(unsafe.Pointer(&b[0])))
	buffers[p] = b
	return p
}

//go:wasmexport dealloc
func dealloc(ptr, _ uint32) { delete(buffers, ptr) }

//go:wasmexport abi_version
func abiVersion() int32 { return 1 }

//go:wasmexport validate
func validate(ptr, size uint32) uint64 {
	req := buffers[ptr][:size]
	delete(buffers, ptr)
	asked := func(v string) bool { return bytes.Contains(req, []byte(`"value":"`+v+`"`)) }
	switch {
	case asked("notjson"):
		return answer("this is not JSON")
	case asked("novalid"):
		return answer(`{"message":"no verdict"}`)
	case asked("longmsg"):
		return answer(`{"valid":false,"message":"` + strings.Repeat("x", 513) + `"}`)
	case asked("badcode"):
		return answer(`{"valid":false,"code":"not a code"}`)
	case asked("outside"):
		return 0xFFFF_FF00<<32 | 512
	case asked("huge"):
		return answer(`{"valid":true}`)&^0xFFFF_FFFF | 1<<20
	case asked("zero"):
		return 0
	}
	return answer(`{"valid":true}`)
}

// answer keeps s alive until the next call and returns its packed pointer and length.
func answer(s string) uint64 {
	response = []byte(s)
	return uint64(uintptr(unsafe.Pointer(&response[0])))<<32 | uint64(len(response))
}

func main() {}
