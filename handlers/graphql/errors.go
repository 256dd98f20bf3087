package graphql

import (
	"context"
	"errors"
	"fmt"

	"cms/content"
)

// Codes of GraphQL errors (extensions.code). The HTTP status stays 200 for all of them.
const (
	CodeUnauthenticated       = "UNAUTHENTICATED"
	CodeForbidden             = "FORBIDDEN"
	CodeNotFound              = "NOT_FOUND"
	CodeBadRequest            = "BAD_REQUEST"
	CodeInternal              = "INTERNAL_ERROR"
	CodeTooDeep               = "QUERY_TOO_DEEP"
	CodeTooComplex            = "QUERY_TOO_COMPLEX"
	CodeTimeout               = "TIMEOUT"
	CodeIntrospectionDisabled = "INTROSPECTION_DISABLED"
	CodeParseFailed           = "GRAPHQL_PARSE_FAILED"
	CodeValidationFailed      = "GRAPHQL_VALIDATION_FAILED"
)

const internalMessage = "Internal server error"

// gqlError is an error a resolver or a pre-execution check reports. Its Error text is what the
// client sees; cause is logged and never sent. graphql-go copies Extensions into the response.
type gqlError struct {
	code  string
	msg   string
	cause error
}

func (e *gqlError) Error() string { return e.msg }

// Extensions implements gqlerrors.ExtendedError.
func (e *gqlError) Extensions() map[string]any { return map[string]any{"code": e.code} }

func newError(code, format string, args ...any) *gqlError {
	return &gqlError{code: code, msg: fmt.Sprintf(format, args...)}
}

// codeOf maps a domain error kind to extensions.code:
//
//	Unauthenticated -> UNAUTHENTICATED
//	Forbidden       -> FORBIDDEN
//	NotFound        -> NOT_FOUND
//	Invalid         -> BAD_REQUEST
//	anything else   -> INTERNAL_ERROR, with a generic message (the cause is logged)
func codeOf(k content.Kind) string {
	switch k {
	case content.Unauthenticated:
		return CodeUnauthenticated
	case content.Forbidden:
		return CodeForbidden
	case content.NotFound:
		return CodeNotFound
	case content.Invalid:
		return CodeBadRequest
	}
	return CodeInternal
}

// asGQL converts any resolver error into a *gqlError with a client-safe message.
func asGQL(err error) *gqlError {
	if err == nil {
		return nil
	}
	if ge, ok := errors.AsType[*gqlError](err); ok {
		return ge
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &gqlError{code: CodeTimeout, msg: "The query took too long and was stopped", cause: err}
	}
	if ce, ok := errors.AsType[*content.Error](err); ok && ce.Kind != content.Internal {
		msg := ce.Message
		if msg == "" {
			msg = ce.Kind.String()
		}
		return &gqlError{code: codeOf(ce.Kind), msg: msg, cause: err}
	}
	return &gqlError{code: CodeInternal, msg: internalMessage, cause: err}
}
