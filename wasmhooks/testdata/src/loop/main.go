//go:build wasip1

// Command loop is a test hook, built with the guest SDK, that never returns when the value is
// "loop" and answers valid otherwise, so a test can check that the call is stopped and that the
// module still serves the next call.
package main

import "cms/wasmhooks/guest"

func init() { guest.Handle(check) }

// spins counts loop iterations, so the compiler cannot drop the loop.
var spins uint64

func check(req guest.Request) guest.Response {
	if s, _ := req.StringValue(); s == "loop" {
		for {
			spins++
		}
	}
	return guest.Valid()
}

func main() {}
