package web

import (
	"context"
	"net/http"
	"time"
)

// DefaultBodyReadTimeout is how long ReadBody waits for a small body, plus a second for every
// 64 KiB it may hold: a client that sends its headers and then stalls must not hold a connection
// for the server's whole read timeout.
const DefaultBodyReadTimeout = 10 * time.Second

// bodyReadRate is the slowest upload rate a small body is given time for.
const bodyReadRate = 64 << 10 // bytes per second

type bodyTimeoutKey struct{}

// WithBodyReadTimeout returns ctx carrying the body-read timeout of the requests served under it
// (a server's base context); d <= 0 keeps DefaultBodyReadTimeout.
func WithBodyReadTimeout(ctx context.Context, d time.Duration) context.Context {
	if d <= 0 {
		return ctx
	}
	return context.WithValue(ctx, bodyTimeoutKey{}, d)
}

// bodyDeadline puts a read deadline on the connection while a body of at most limit bytes
// (DefaultBodyLimit or less; larger bodies keep the server's read timeout) is read. net/http
// lifts it when the body reaches its end, before the background read that notices a client
// going away. Writers without deadlines (Lambda, whose bodies arrive whole, and test recorders)
// are left alone.
func bodyDeadline(w http.ResponseWriter, r *http.Request, limit int64) {
	if limit > DefaultBodyLimit {
		return
	}
	d, ok := r.Context().Value(bodyTimeoutKey{}).(time.Duration)
	if !ok {
		d = DefaultBodyReadTimeout
	}
	n := limit
	if r.ContentLength >= 0 && r.ContentLength < n {
		n = r.ContentLength
	}
	d += time.Duration(n) * time.Second / bodyReadRate
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
}

// bodyTimedOut is the 408 of a body that did not arrive in time. The connection is closed after
// it: the rest of the body may still come and must not be read as a next request.
func bodyTimedOut() *Error {
	return &Error{Status: http.StatusRequestTimeout, Code: "REQUEST_TIMEOUT", Message: "The request body did not arrive in time",
		Header: http.Header{"Connection": {"close"}}}
}
