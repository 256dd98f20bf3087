//go:build wasip1

// Command hog is a test hook, built with the guest SDK, that allocates memory without bound when
// the value is "hog" and answers valid otherwise, so a test can check that the memory limit
// stops it.
package main

import "cms/wasmhooks/guest"

func init() { guest.Handle(check) }

// kept holds every allocation, so none can be collected.
var kept [][]byte

func check(req guest.Request) guest.Response {
	if s, _ := req.StringValue(); s == "hog" {
		for {
			kept = append(kept, make([]byte, 1<<20))
		}
	}
	return guest.Valid()
}

func main() {}
