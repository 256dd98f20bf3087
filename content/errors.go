package content

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Kind says what failed, never how a transport reports it. The zero value is Internal.
type Kind uint8

// The kinds of failure a store or validator reports.
const (
	Internal        Kind = iota // an unexpected failure; its cause is logged, never shown
	Invalid                     // the input is malformed or fails validation
	NotFound                    // the named thing does not exist
	Conflict                    // the write clashes with the current state (duplicate, stale hash)
	Unauthenticated             // no valid credentials
	Forbidden                   // valid credentials, but not allowed
	Unavailable                 // a dependency the request needs is missing (e.g. a hook not installed)
	TooLarge                    // a stored document would pass a size limit (DocumentTooLarge)
)

// A request body over its limit (413, web.TooLarge) and rate limits (429 with Retry-After, built
// by the login and form limiters) are transport concerns of the handlers, so they have no Kind.

func (k Kind) String() string {
	switch k {
	case Invalid:
		return "invalid"
	case NotFound:
		return "not found"
	case Conflict:
		return "conflict"
	case Unauthenticated:
		return "unauthenticated"
	case Forbidden:
		return "forbidden"
	case Unavailable:
		return "unavailable"
	case TooLarge:
		return "too large"
	}
	return "internal"
}

// Error is the one domain error type. Message is safe to show a client; Err is the cause, logged
// but never sent.
type Error struct {
	Kind    Kind
	Op      string              // the operation, e.g. "fsstore.SaveEntry"
	Path    string              // the file or resource concerned, if any
	Message string              // client-safe text
	Fields  map[string][]string // field handle -> messages (Invalid)
	Code    string              // overrides the default code of Kind, e.g. DEPTH_EXCEEDED
	Details any                 // a typed struct of extra facts, written inside the error object
	Err     error               // the cause
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Message != "" {
		b.WriteString(e.Message)
	} else {
		b.WriteString(e.Kind.String())
	}
	if len(e.Fields) > 0 {
		keys := make([]string, 0, len(e.Fields))
		for k := range e.Fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString(" (")
		for i, k := range keys {
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s: %s", k, strings.Join(e.Fields[k], ", "))
		}
		b.WriteString(")")
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf reports the Kind of the first *Error in err's chain, or Internal.
func KindOf(err error) Kind {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Kind
	}
	return Internal
}

// IsNotFound reports whether err is a NotFound error.
func IsNotFound(err error) bool { return err != nil && KindOf(err) == NotFound }

// NotFoundf returns a NotFound error with a client-safe message.
func NotFoundf(op, path, format string, args ...any) *Error {
	return &Error{Kind: NotFound, Op: op, Path: path, Message: fmt.Sprintf(format, args...)}
}

// Invalidf returns an Invalid error without field details.
func Invalidf(op, format string, args ...any) *Error {
	return &Error{Kind: Invalid, Op: op, Message: fmt.Sprintf(format, args...)}
}

// InvalidFields returns an Invalid error carrying per-field messages.
func InvalidFields(op, message string, fields map[string][]string) *Error {
	return &Error{Kind: Invalid, Op: op, Message: message, Fields: fields}
}

// Conflictf returns a Conflict error.
func Conflictf(op, format string, args ...any) *Error {
	return &Error{Kind: Conflict, Op: op, Message: fmt.Sprintf(format, args...)}
}

// Forbiddenf returns a Forbidden error.
func Forbiddenf(op, format string, args ...any) *Error {
	return &Error{Kind: Forbidden, Op: op, Message: fmt.Sprintf(format, args...)}
}

// Unauthenticatedf returns an Unauthenticated error.
func Unauthenticatedf(op, format string, args ...any) *Error {
	return &Error{Kind: Unauthenticated, Op: op, Message: fmt.Sprintf(format, args...)}
}

// Internalf wraps an unexpected cause. The message shown to clients is generic.
func Internalf(op, path string, err error) *Error {
	return &Error{Kind: Internal, Op: op, Path: path, Err: err}
}

// FieldErrors collects per-field validation messages in insertion order of fields.
type FieldErrors map[string][]string

// Add appends a message for a field.
func (f FieldErrors) Add(field, msg string) { f[field] = append(f[field], msg) }

// Err returns an Invalid error when any message was added, else nil.
func (f FieldErrors) Err(op, message string) error {
	if len(f) == 0 {
		return nil
	}
	return InvalidFields(op, message, map[string][]string(f))
}

// Shorten bounds client text quoted in an error message: at most 64 bytes, cut between
// characters, with "…" where it was cut.
func Shorten(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
