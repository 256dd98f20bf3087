package web

import (
	"context"
	"log/slog"
	"net/http"
)

// RequestInfo is filled in while a request is handled and read by the access log: the route
// pattern that matched, the error returned, and the code written.
type RequestInfo struct {
	ID     string
	Route  string
	Status int
	Code   string
	Err    error
	Attrs  []slog.Attr // extra attributes a handler wants on the access line
}

type infoKey struct{}

// WithInfo returns a context carrying info.
func WithInfo(ctx context.Context, info *RequestInfo) context.Context {
	return context.WithValue(ctx, infoKey{}, info)
}

// InfoFrom returns the request's info, or nil outside serve.Stack.
func InfoFrom(ctx context.Context) *RequestInfo {
	i, _ := ctx.Value(infoKey{}).(*RequestInfo)
	return i
}

// RequestID returns the request ID assigned by serve.Stack, or "".
func RequestID(r *http.Request) string {
	if i := InfoFrom(r.Context()); i != nil {
		return i.ID
	}
	return ""
}

func userAttr(id string) slog.Attr { return slog.String("user", id) }
