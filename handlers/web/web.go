// Package web is the HTTP plumbing every endpoint group shares: handlers that return errors, the
// one function that maps errors to responses, JSON in and out with size limits, a router that
// answers unknown paths and wrong methods in the error envelope, and request-scoped values.
package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"

	"cms/content"
)

// HandlerFunc is an endpoint that returns its error instead of writing it.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// ServeHTTP runs f and writes any error it returns.
func (f HandlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := f(w, r); err != nil {
		WriteError(w, r, err)
	}
}

// Error is a transport-level error: it carries its own status and code.
type Error struct {
	Status  int
	Code    string
	Message string
	Details any         // typed struct of extra facts, written inside the error object
	Header  http.Header // extra response headers, e.g. Retry-After
	Err     error       // cause, logged only
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %s: %v", e.Status, e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// BadRequest returns a 400 BAD_REQUEST error.
func BadRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "BAD_REQUEST", Message: fmt.Sprintf(format, args...)}
}

// NotFound returns a 404 NOT_FOUND error.
func NotFound(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotFound, Code: "NOT_FOUND", Message: fmt.Sprintf(format, args...)}
}

// StatusClientClosed is logged (never sent) when the client went away before the response.
const StatusClientClosed = 499

// Codes and statuses of domain error kinds (the codes the README lists under the error envelope).
func kindStatus(k content.Kind) (int, string) {
	switch k {
	case content.Invalid:
		return http.StatusUnprocessableEntity, "VALIDATION_ERROR"
	case content.NotFound:
		return http.StatusNotFound, "NOT_FOUND"
	case content.Conflict:
		return http.StatusConflict, "CONFLICT"
	case content.Unauthenticated:
		return http.StatusUnauthorized, "AUTHENTICATION_ERROR"
	case content.Forbidden:
		return http.StatusForbidden, "AUTHORIZATION_ERROR"
	case content.Unavailable:
		return http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE"
	case content.TooLarge:
		return http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE"
	}
	return http.StatusInternalServerError, "INTERNAL_ERROR"
}

const internalMessage = "An unexpected error occurred"

// Envelope is the body of every error response.
type Envelope struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody is the object inside the envelope: {"code","message"}, for validation errors
// "fields" and "details":{"fieldErrors"}, and the facts of Details written twice, once among the
// error's own members and once inside "details", which is where Madori clients read them.
type ErrorBody struct {
	Code    string
	Message string
	Fields  map[string][]string // messages by field
	Details any                 // a typed struct of extra facts
}

// MarshalJSON writes the members in key order, so one error always reads the same. A member of
// Details never replaces one of the error's own; inside "details" it joins fieldErrors. Details
// that cannot be encoded are left out rather than turning the error into another.
func (b ErrorBody) MarshalJSON() ([]byte, error) {
	raw := func(v any) json.RawMessage {
		r, _ := json.Marshal(v) // strings and string lists always encode
		return r
	}
	top := map[string]json.RawMessage{"code": raw(b.Code), "message": raw(b.Message)}
	details := map[string]json.RawMessage{}
	if len(b.Fields) > 0 {
		top["fields"] = raw(b.Fields)
		details["fieldErrors"] = top["fields"]
	}
	if b.Details != nil {
		if facts, err := json.Marshal(b.Details); err == nil {
			var m map[string]json.RawMessage
			if json.Unmarshal(facts, &m) != nil { // not an object: it is the details, alone
				top["details"] = facts
				return json.Marshal(top)
			}
			for k, v := range m {
				if _, taken := top[k]; !taken && k != "details" {
					top[k] = v
				}
				details[k] = v
			}
		}
	}
	if len(details) > 0 {
		top["details"] = raw(details)
	}
	return json.Marshal(top)
}

// Describe returns the status, error body and extra headers WriteError would send for err.
func Describe(err error) (int, ErrorBody, http.Header) {
	if we, ok := errors.AsType[*Error](err); ok {
		return we.Status, ErrorBody{Code: we.Code, Message: we.Message, Details: we.Details}, we.Header
	}
	if ce, ok := errors.AsType[*content.Error](err); ok {
		status, code := kindStatus(ce.Kind)
		if ce.Code != "" {
			code = ce.Code
		}
		body := ErrorBody{Code: code, Message: ce.Message, Fields: ce.Fields, Details: ce.Details}
		switch {
		case ce.Kind == content.Internal: // the message and facts may name files
			body.Message, body.Details = internalMessage, nil
		case body.Message == "":
			body.Message = http.StatusText(status)
		}
		return status, body, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return http.StatusNotFound, ErrorBody{Code: "NOT_FOUND", Message: "Not found"}, nil
	}
	return http.StatusInternalServerError, ErrorBody{Code: "INTERNAL_ERROR", Message: internalMessage}, nil
}

// WriteError writes err in the error envelope and hands it to the access log. A request whose
// client has gone away gets nothing written.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	info := InfoFrom(r.Context())
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		if info != nil {
			info.Err, info.Status = err, StatusClientClosed
		}
		return
	}
	status, body, hdr := Describe(err)
	if info != nil {
		info.Err, info.Code = err, body.Code
	}
	for k, vs := range hdr {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	WriteJSON(w, status, Envelope{Error: body})
}

// WriteJSON writes v as JSON with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":{"code":"INTERNAL_ERROR","message":"` + internalMessage + `"}}`)
	}
	WriteJSONBytes(w, status, b)
}

// WriteJSONBytes writes an already encoded JSON body.
func WriteJSONBytes(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Data wraps a payload as {"data": ...}.
type Data struct {
	Data any `json:"data"`
}

// DefaultBodyLimit is the request body limit when a group does not set its own.
const DefaultBodyLimit = 1 << 20

// DecodeJSON reads a JSON body of at most limit bytes into v. Malformed JSON is a 400
// BAD_REQUEST, an oversized body a 413, unknown trailing data a 400, a body nested deeper than
// content.MaxNesting a 422 NESTING_TOO_DEEP (checked before decoding).
func DecodeJSON(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	if limit <= 0 {
		limit = DefaultBodyLimit
	}
	if err := RequireJSON(r); err != nil {
		return err
	}
	body, err := ReadBody(w, r, limit)
	if err != nil {
		return err
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return BadRequest("Request body is empty; expected a JSON object")
	}
	if err := content.CheckJSONNesting("web.DecodeJSON", body); err != nil {
		return err
	}
	if m, ok := v.(*content.Map); ok {
		if err := m.UnmarshalJSON(body); err != nil {
			return BadRequest("Request body is not a valid JSON object: %v", err)
		}
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return BadRequest("Request body is not valid JSON: %v", jsonErrorText(err))
	}
	return nil
}

func jsonErrorText(err error) string {
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		if te.Field != "" {
			return fmt.Sprintf("field %q must be %s", te.Field, te.Type.String())
		}
		return fmt.Sprintf("expected %s", te.Type.String())
	}
	return err.Error()
}

// ReadBody reads at most limit bytes of the request body; more is a 413 PAYLOAD_TOO_LARGE. A
// small body must arrive within the body-read timeout (deadline.go), or it is a 408.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, TooLarge(limit)
	}
	bodyDeadline(w, r, limit)
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, TooLarge(limit)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, bodyTimedOut()
		}
		return nil, BadRequest("Could not read request body")
	}
	return b, nil
}

// TooLarge is the 413 error for a body over limit bytes.
func TooLarge(limit int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: "PAYLOAD_TOO_LARGE", Message: fmt.Sprintf("Request body is larger than %s", humanBytes(limit))}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
