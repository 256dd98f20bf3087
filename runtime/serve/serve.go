// Package serve runs a handler: Stack wraps it once with recovery, request IDs, security headers
// and the access log, and Local serves it over net/http (Lambda lives in lambda.go). Both runners
// get exactly the same Stack, so a request behaves the same locally and on Lambda.
package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"cms/handlers/web"
)

// Stack wraps h with panic recovery, a request ID, baseline security headers and one access log
// line per request. Groups never wrap themselves.
//
// It runs on every request, so it allocates little: the recorder and the request info are one
// object, the fixed headers share one backing array, and request IDs come from a counter.
func Stack(h http.Handler, log *slog.Logger) http.Handler {
	ids := newIDs()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		st := &state{recorder: recorder{ResponseWriter: w}}
		info, rec := &st.info, &st.recorder
		info.ID = ids.id(r)
		// Canonical keys set directly, each value a capped slice: an Add appends to a copy.
		// X-Frame-Options and Referrer-Policy concern documents only, so they are added when
		// the response turns out not to be JSON (recorder.documentHeaders): an API response
		// keeps to eight headers, which a map holds without growing (twice: net/http copies
		// the headers when they are written).
		hdr := w.Header()
		st.id[0] = info.ID
		hdr["X-Request-Id"] = st.id[:1:1]
		hdr["X-Content-Type-Options"] = nosniff
		r = r.WithContext(web.WithInfo(r.Context(), info))
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				info.Err = fmt.Errorf("panic: %v", p)
				if !rec.wrote {
					web.WriteError(rec, r, info.Err)
				}
			}
			status := rec.status
			if info.Status != 0 && !rec.wrote {
				status = info.Status
			}
			if status == 0 {
				status = http.StatusOK
			}
			var buf [12]slog.Attr
			attrs := append(buf[:0],
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("route", info.Route),
				slog.Int("status", status),
				slog.Duration("duration", time.Since(start)),
				slog.String("request_id", info.ID),
			)
			if lc := lambdaRequestID(r.Context()); lc != "" {
				attrs = append(attrs, slog.String("lambda_request_id", lc))
			}
			if info.Code != "" {
				attrs = append(attrs, slog.String("code", info.Code))
			}
			attrs = append(attrs, info.Attrs...)
			level := slog.LevelInfo
			switch {
			case status >= 500:
				level = slog.LevelError
				if info.Err != nil {
					attrs = append(attrs, slog.String("err", info.Err.Error()))
				}
			case status >= 400 && info.Err != nil:
				attrs = append(attrs, slog.String("err", info.Err.Error()))
			}
			// The record is built here rather than by log.LogAttrs, which looks up its
			// caller's program counter on every call for a source no access line shows; the
			// process's own handler writes the line directly.
			if hd := log.Handler(); hd.Enabled(r.Context(), level) {
				now := time.Now()
				if lh, ok := hd.(*LogHandler); !ok || !lh.writeLine(now, level, "request", attrs) {
					rec := slog.NewRecord(now, level, "request", 0)
					rec.AddAttrs(attrs...)
					_ = hd.Handle(r.Context(), rec)
				}
			}
		}()
		h.ServeHTTP(rec, r)
	})
}

// state is what Stack keeps per request, in one allocation.
type state struct {
	recorder recorder
	info     web.RequestInfo
	id       [1]string // the X-Request-Id header's value
}

// ids makes request IDs: a random prefix per Stack (so IDs of different processes, such as
// Lambda instances, do not collide) and a counter, with no system call per request. IDs need
// to be unique, not secret.
type ids struct {
	prefix [8]byte // hex of 4 random bytes
	n      atomic.Uint64
}

func newIDs() *ids {
	var b [4]byte
	_, _ = rand.Read(b[:])
	g := &ids{}
	hex.Encode(g.prefix[:], b[:])
	g.n.Store(uint64(time.Now().UnixNano())) // a restarted process does not repeat its IDs either
	return g
}

// id is the client's X-Request-Id when it is a short token, else a new 16-hex-digit ID.
func (g *ids) id(r *http.Request) string {
	if v := r.Header["X-Request-Id"]; len(v) > 0 && v[0] != "" && len(v[0]) <= 64 && isToken(v[0]) {
		return v[0]
	}
	var b [16]byte
	copy(b[:], g.prefix[:])
	n := uint32(g.n.Add(1))
	const digits = "0123456789abcdef"
	for i := 15; i >= 8; i-- {
		b[i] = digits[n&15]
		n >>= 4
	}
	return string(b[:])
}

func isToken(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

type recorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

// Shared header values, capped so that an Add appends to a copy.
var (
	nosniff        = []string{"nosniff"}[:1:1]
	frameDeny      = []string{"DENY"}[:1:1]
	referrerPolicy = []string{"strict-origin-when-cross-origin"}[:1:1]
)

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
		r.documentHeaders()
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.status, r.wrote = http.StatusOK, true
		r.documentHeaders()
	}
	return r.ResponseWriter.Write(b)
}

// WriteString writes s without copying it to a byte slice first, when the writer can.
func (r *recorder) WriteString(s string) (int, error) {
	if !r.wrote {
		r.status, r.wrote = http.StatusOK, true
		r.documentHeaders()
	}
	return io.WriteString(r.ResponseWriter, s)
}

// documentHeaders adds X-Frame-Options: DENY and Referrer-Policy:
// strict-origin-when-cross-origin, unless the handler set its own, to every response that is
// not JSON (pages, files, errors of unknown type): what a browser could render as a document.
func (r *recorder) documentHeaders() {
	h := r.ResponseWriter.Header()
	if ct := h["Content-Type"]; len(ct) > 0 && isJSON(ct[0]) {
		return
	}
	if _, ok := h["X-Frame-Options"]; !ok {
		h["X-Frame-Options"] = frameDeny
	}
	if _, ok := h["Referrer-Policy"]; !ok {
		h["Referrer-Policy"] = referrerPolicy
	}
}

// isJSON reports whether a Content-Type is JSON (application/json, or a +json type).
func isJSON(ct string) bool {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = strings.TrimSpace(ct)
	return strings.EqualFold(ct, "application/json") || len(ct) > 5 && strings.EqualFold(ct[len(ct)-5:], "+json")
}

// Unwrap lets http.ResponseController reach the underlying writer (flush, deadlines).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// ShutdownTimeout bounds how long Local waits for in-flight requests when ctx ends.
const ShutdownTimeout = 10 * time.Second

// Local serves h on addr within lim until ctx ends, then shuts down gracefully. ready, if not
// nil, receives the bound address once the listener is open (useful with ":0").
func Local(ctx context.Context, addr string, h http.Handler, log *slog.Logger, lim Limits, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	srv := newServer(ctx, h, log, lim)
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	// Serve rather than ListenAndServe: the listener is already bound, so ":0" works and the
	// address is known before the first request.
	go func() { errc <- srv.Serve(listener(ln, lim, log)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return fmt.Errorf("shutdown: %w", err)
		}
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// newServer is Local's server for h.
func newServer(ctx context.Context, h http.Handler, log *slog.Logger, lim Limits) *http.Server {
	// What a slow client holds is bounded: headers by ReadHeaderTimeout, a small body by
	// lim.BodyTimeout (web.ReadBody), any body by ReadTimeout, an idle connection by IdleTimeout,
	// and the number of its connections by LimitListener.
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext: func(net.Listener) context.Context {
			return web.WithBodyReadTimeout(context.WithoutCancel(ctx), lim.BodyTimeout)
		},
		// Each connection can send a whole response in one write (web.SendBody).
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if bc, ok := c.(*batchConn); ok {
				return web.WithBatcher(ctx, bc)
			}
			return ctx
		},
	}
}

// listener is what Local serves on: ln within lim's connection caps, each connection able to
// send a whole response in one write.
func listener(ln net.Listener, lim Limits, log *slog.Logger) net.Listener {
	return batchListener{LimitListener(ln, lim, log)}
}
