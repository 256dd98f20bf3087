package web

import (
	"context"
	"net/http"
	"strconv"
)

// Batcher joins the writes of a response into one system call: runtime/serve's connections
// are Batchers, placed in each request's context (WithBatcher). Between Hold and Release the
// connection keeps what is written; Release writes it.
type Batcher interface {
	Hold()
	Release() error
}

type batcherKey struct{}

// WithBatcher returns ctx carrying the connection's Batcher.
func WithBatcher(ctx context.Context, b Batcher) context.Context {
	return context.WithValue(ctx, batcherKey{}, b)
}

// SendBody writes a response whose body is known whole: status, Content-Length (unless set)
// and parts one after the other, none of them copied or joined. Over a connection that can
// batch (HTTP/1.x under runtime/serve), headers and body leave in one write system call rather
// than one per 4 KB of net/http's buffer; elsewhere (Lambda, tests) it writes as usual. A HEAD
// request gets the headers only. An error means the client went away.
func SendBody(w http.ResponseWriter, r *http.Request, status int, parts ...[]byte) error {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	h := w.Header()
	if _, ok := h["Content-Length"]; !ok {
		h["Content-Length"] = []string{strconv.Itoa(n)}
	}
	b, _ := r.Context().Value(batcherKey{}).(Batcher)
	if b == nil || r.ProtoMajor != 1 || r.Method == http.MethodHead || n == 0 {
		w.WriteHeader(status)
		if r.Method == http.MethodHead {
			return nil
		}
		return writeParts(w, parts)
	}
	b.Hold()
	released := false
	defer func() { // even if a write panics: a connection left holding would stall what follows
		if !released {
			_ = b.Release()
		}
	}()
	w.WriteHeader(status)
	err := writeParts(w, parts)
	if err == nil {
		// Everything net/http buffered goes to the connection now (Content-Length is set, so
		// this is no chunked stream), and Release sends it at once.
		err = http.NewResponseController(w).Flush()
	}
	released = true
	if rerr := b.Release(); err == nil {
		err = rerr
	}
	return err
}

func writeParts(w http.ResponseWriter, parts [][]byte) error {
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
}
