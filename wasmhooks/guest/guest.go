// Package guest is the SDK for writing a cms validation hook in Go. It implements the guest side
// of hook ABI v1 (see package [cms/wasmhooks]): the hook author writes one function and the SDK
// exports alloc, dealloc, validate and abi_version, decodes the request and encodes the answer.
//
// A hook is a package main that registers its handler from init:
//
//	//go:build wasip1
//
//	package main
//
//	import "cms/wasmhooks/guest"
//
//	func init() { guest.Handle(check) }
//
//	func check(req guest.Request) guest.Response {
//		s, _ := req.Value.(string)
//		if s == "forbidden" {
//			return guest.Invalid("forbidden_value", "This value is not allowed.")
//		}
//		return guest.Valid()
//	}
//
//	func main() {}
//
// Build it as a WASI reactor:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags='-s -w' -o my-hook.wasm .
//
// With -buildmode=c-shared the module exports _initialize instead of _start: the host calls it
// once per instance, which runs package initialisation (so init functions run) but never main.
// That is why the handler is registered in init and main stays empty. A Go command module
// (built without c-shared) is rejected by the host, because its exports cannot be called after
// main returns.
//
// The host gives each instance an empty WASI environment: no files, no environment variables,
// no arguments, no network, a fixed clock unless the site configures one, and deterministic
// random numbers. Anything written to os.Stderr is kept (a few KiB) for the site's log when a
// call fails; os.Stdout is discarded. A call must finish within the host's time limit (100 ms by
// default) and the instance may use at most the host's memory limit (64 MiB by default).
//
// Only the functions that export the ABI need GOOS=wasip1; the types in this file build
// everywhere, so handlers can be unit-tested with plain go test.
package guest

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// ABIVersion is the hook ABI this SDK implements; it is what the exported abi_version returns.
const ABIVersion = 1

// MaxMessageRunes is the longest message the host accepts; longer messages are cut by the SDK.
const MaxMessageRunes = 512

// Request is the question the host asks: is Value, submitted for Field of Form, valid?
type Request struct {
	ABI    int            `json:"abi"`    // always ABIVersion
	Form   string         `json:"form"`   // the form or collection handle
	Field  string         `json:"field"`  // the field handle
	Value  any            `json:"value"`  // the submitted value as decoded from JSON
	Params Params         `json:"params"` // parameters from the blueprint rule
	Data   map[string]any `json:"data"`   // all submitted values, by field handle
	Locale string         `json:"locale"` // the locale of the submission, e.g. "en"
}

// Params holds the parameters of a rule such as hook:vat-number:EU.
type Params struct {
	Arg string `json:"arg,omitempty"` // the text after the second colon, here "EU"
}

// Response is the hook's answer. Message and Code matter only when Valid is false.
type Response struct {
	Valid   bool   `json:"valid"`
	Message string `json:"message,omitempty"` // plain text shown to the user, at most MaxMessageRunes
	Code    string `json:"code,omitempty"`    // a short machine-readable code, e.g. "invalid_vat"
}

// Handler decides one request. It must not block: there is no I/O to wait for.
type Handler func(Request) Response

// Valid returns the answer for a valid value.
func Valid() Response { return Response{Valid: true} }

// Invalid returns the answer for an invalid value, with a code and a message for the user.
func Invalid(code, message string) Response {
	return Response{Valid: false, Code: code, Message: message}
}

// StringValue returns Value when it is a string.
func (r Request) StringValue() (string, bool) {
	s, ok := r.Value.(string)
	return s, ok
}

// serve decodes one request, runs h and encodes its answer. It is the whole protocol apart from
// memory handling, so it is testable without WebAssembly. A panic in h becomes an error.
func serve(h Handler, in []byte) (out []byte, err error) {
	if h == nil {
		return nil, fmt.Errorf("no handler registered: call guest.Handle from an init function")
	}
	var req Request
	if err := json.Unmarshal(in, &req); err != nil {
		return nil, fmt.Errorf("decode request: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("handler panicked: %v", p)
		}
	}()
	resp := h(req)
	if resp.Valid {
		resp.Message, resp.Code = "", ""
	}
	resp.Message = truncate(resp.Message, MaxMessageRunes)
	out, err = json.Marshal(resp)
	if err != nil {
		return nil, fmt.Errorf("encode response: %w", err)
	}
	return out, nil
}

// truncate cuts s to at most n runes.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
