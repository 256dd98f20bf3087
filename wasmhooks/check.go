package wasmhooks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"cms/content"
)

// Info describes a module that passed [Host.Check], for its metadata file.
type Info struct {
	SHA256     string   `json:"sha256"`     // hex sha256 of the module bytes
	Size       int      `json:"size"`       // bytes
	Exports    []string `json:"exports"`    // export names, sorted
	ABIVersion int      `json:"abiVersion"` // always ABIVersion today
}

// CheckDetails are the extra facts of a failed [Host.Check], in content.Error.Details.
type CheckDetails struct {
	// Stderr is what the module wrote to stderr during the failed call, cut to
	// Limits.StderrBytes. It comes from the uploader's own module, so it is theirs to see.
	Stderr string `json:"stderr,omitempty"`
	// Limit names the limit the module exceeds, e.g. "locals per function", as docs/hooks.md
	// lists them; Max is its value. Both are empty for other problems.
	Limit string `json:"limit,omitempty"`
	Max   uint64 `json:"max,omitempty"`
}

// smokeRequest is the request of Check's smoke call: empty, but well formed. Its JSON is
// documented on Check, as modules may depend on its being short.
func smokeRequest() Request {
	return Request{Form: "_check", Field: "_check", Value: "", Locale: "en"}
}

// Check vets an uploaded module: its size, that it is WebAssembly, that it compiles, that its
// imports and exports follow ABI v1, that it initialises and, if it exports abi_version, returns
// 1, and that a smoke call answers in time with a well-formed response (valid or not). The
// smoke request is always these 89 bytes:
//
//	{"abi":1,"form":"_check","field":"_check","value":"","params":{},"data":{},"locale":"en"}
//
// A module that passes stays compiled, so a following [Host.Validate] of the same bytes is fast.
//
// Any problem with the module is an Invalid error whose Message says what is wrong, e.g.
// "module does not export alloc" or "smoke call timed out after 100ms"; if the module wrote to
// stderr, Details is a [CheckDetails]. A failure of the host itself is Internal.
func (h *Host) Check(ctx context.Context, wasm []byte) (Info, error) {
	const op = "wasmhooks.Check"
	var hint string // added to the message once the module is known to be a command
	fail := func(err error) (Info, error) {
		if ctx.Err() != nil {
			return Info{}, content.Internalf(op, "", fmt.Errorf("check stopped: %w", err))
		}
		if he, ok := errors.AsType[*hookError](err); ok {
			// The message says it all; the cause, without it, is for the log.
			ce := &content.Error{Kind: content.Invalid, Op: op, Message: he.msg + hint, Err: he.err}
			if he.stderr != "" || he.limit != "" {
				ce.Details = CheckDetails{Stderr: he.stderr, Limit: he.limit, Max: he.max}
			}
			return Info{}, ce
		}
		return Info{}, content.Internalf(op, "", err)
	}
	if err := checkBytes(wasm, h.limits.MaxModuleBytes); err != nil {
		return fail(err)
	}
	sum := sha256.Sum256(wasm)
	sha := hex.EncodeToString(sum[:])

	e, err := h.start()
	if err != nil {
		return fail(err)
	}
	m, err := h.module(ctx, e, sha, func() ([]byte, error) { return wasm, nil })
	if err != nil {
		return fail(err)
	}
	if slices.Contains(m.exports, "_start") && !slices.Contains(m.exports, "_initialize") {
		// The exports of a Go command fail because main has not run: say how to build a reactor.
		hint = " (the module is a WASI command: it exports _start, which this host never calls; build a Go hook with -buildmode=c-shared)"
	}
	in, err := h.instance(ctx, e, m)
	if err != nil {
		return fail(err)
	}
	body, err := encodeRequest(smokeRequest())
	if err != nil {
		in.close()
		return fail(err)
	}
	if _, err := h.call(ctx, in, "smoke call", body); err != nil {
		in.close()
		return fail(err)
	}
	h.release(m, in)
	return Info{SHA256: sha, Size: len(wasm), Exports: slices.Clone(m.exports), ABIVersion: ABIVersion}, nil
}
