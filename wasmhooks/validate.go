package wasmhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"cms/content"
)

// Module names a stored hook module.
type Module struct {
	// Name is the hook's name, as in hook:{name}; it appears in errors and logs.
	Name string
	// SHA256 is the hex sha256 of the module bytes. Compiled code is cached by it.
	SHA256 string
	// Load returns the module bytes. It is called only when SHA256 is not cached, and the
	// bytes must hash to SHA256.
	Load func() ([]byte, error)
}

// Request is the question put to a hook; it is sent as the JSON of ABI v1.
type Request struct {
	ABI    int    `json:"abi"`    // set by Validate to ABIVersion
	Form   string `json:"form"`   // the form or collection handle
	Field  string `json:"field"`  // the field handle
	Value  any    `json:"value"`  // the submitted value
	Params Params `json:"params"` // from the blueprint rule
	Data   any    `json:"data"`   // all submitted values by field handle; nil is sent as {}
	Locale string `json:"locale"` // e.g. "en"
}

// Params are the parameters of a hook rule.
type Params struct {
	Arg string `json:"arg,omitempty"` // the text after the second colon of hook:name:arg
}

// Response is a hook's answer.
type Response struct {
	Valid   bool   `json:"valid"`
	Message string `json:"message,omitempty"` // plain text for the user, at most 512 characters
	Code    string `json:"code,omitempty"`    // a short machine-readable code
}

// Validate asks module m about req, within Limits.CallTimeout. It compiles m on first use (see
// [Module]) and reuses an idle instance when there is one.
//
// It returns an Invalid error if req is larger than Limits.MaxRequestBytes. Any failure of the
// hook, including a module that no longer passes [Host.Check], is an Internal error with the
// message "validation hook failed" and the cause in Err; the instance is then discarded. An
// error from m.Load keeps its Kind, so a missing file can stay NotFound. If ctx ends during the
// call, the error wraps ctx.Err().
func (h *Host) Validate(ctx context.Context, m Module, req Request) (Response, error) {
	const op = "wasmhooks.Validate"
	failed := func(err error) error {
		return &content.Error{Kind: content.Internal, Op: op, Path: m.Name, Message: "validation hook failed", Err: err}
	}
	if m.Load == nil || len(m.SHA256) != 64 {
		return Response{}, failed(errors.New("module needs a Load function and a 64-digit hex SHA256"))
	}
	body, err := encodeRequest(req)
	if err != nil {
		return Response{}, failed(err)
	}
	if len(body) > h.limits.MaxRequestBytes {
		return Response{}, &content.Error{
			Kind:    content.Invalid,
			Op:      op,
			Path:    m.Name,
			Message: "the submitted data is too large for validation hook " + m.Name + ": the limit is " + formatBytes(h.limits.MaxRequestBytes),
			Err:     fmt.Errorf("request of %d bytes", len(body)),
		}
	}
	e, err := h.start()
	if err != nil {
		return Response{}, failed(err)
	}
	mod, err := h.module(ctx, e, strings.ToLower(m.SHA256), m.Load)
	if err != nil {
		if ce, ok := errors.AsType[*content.Error](err); ok {
			// A failure of Load keeps its kind and message, e.g. NotFound for a missing file.
			return Response{}, &content.Error{Kind: ce.Kind, Op: op, Path: m.Name, Message: ce.Message, Err: err}
		}
		return Response{}, failed(err)
	}
	in, err := h.instance(ctx, e, mod)
	if err != nil {
		return Response{}, failed(err)
	}
	resp, err := h.call(ctx, in, "call", body)
	if err != nil {
		in.close()
		return Response{}, failed(err)
	}
	h.release(mod, in)
	return resp, nil
}

// encodeRequest returns the JSON of req for ABI v1.
func encodeRequest(req Request) ([]byte, error) {
	req.ABI = ABIVersion
	if req.Data == nil {
		req.Data = struct{}{}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	return body, nil
}

// ABI v1 limits on a response's fields.
const (
	maxMessageRunes = 512
	maxCodeBytes    = 64
)

// decodeResponse parses and checks a guest's response. The bytes are untrusted.
func decodeResponse(b []byte) (Response, error) {
	var raw struct {
		Valid   *bool   `json:"valid"`
		Message *string `json:"message"`
		Code    *string `json:"code"`
	}
	if !utf8.Valid(b) {
		return Response{}, errors.New("response is not UTF-8")
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return Response{}, fmt.Errorf("response is not a JSON object of ABI v1: %w", err)
	}
	if raw.Valid == nil {
		return Response{}, errors.New(`response has no "valid" field`)
	}
	r := Response{Valid: *raw.Valid}
	if raw.Message != nil {
		if n := utf8.RuneCountInString(*raw.Message); n > maxMessageRunes {
			return Response{}, fmt.Errorf("response message has %d characters, more than %d", n, maxMessageRunes)
		}
		r.Message = *raw.Message
	}
	if raw.Code != nil {
		if err := checkCode(*raw.Code); err != nil {
			return Response{}, err
		}
		r.Code = *raw.Code
	}
	return r, nil
}

func checkCode(c string) error {
	if len(c) > maxCodeBytes {
		return fmt.Errorf("response code has %d bytes, more than %d", len(c), maxCodeBytes)
	}
	for i := range len(c) {
		switch b := c[i]; {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', b == '_', b == '-', b == '.':
		default:
			return fmt.Errorf("response code %q has a character other than ASCII letters, digits, '_', '-' and '.'", c)
		}
	}
	return nil
}
