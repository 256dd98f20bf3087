package serve

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/akrylysov/algnhsa"
	"github.com/aws/aws-lambda-go/lambda"
)

// LambdaOptions configure the Lambda runner.
type LambdaOptions struct {
	// BasePath is a path prefix stripped from every request before routing, e.g. the mapping
	// path of an API Gateway custom domain ("/cms"). Requests without it are served unchanged.
	BasePath string
	// Log receives the runner's own warnings; nil discards them.
	Log *slog.Logger
}

// BinaryContentTypes are the response content types sent base64-encoded. algnhsa compares the
// whole Content-Type header value, so a type is listed as handlers and http.ServeContent write it.
// Any other body that is not valid UTF-8 is base64-encoded as well (see [LambdaHandler]), so the
// list only saves that check for the common binary types.
func BinaryContentTypes() []string {
	return []string{
		"application/octet-stream", "application/pdf", "application/zip", "application/gzip",
		"application/x-gzip", "application/wasm", "application/ogg", "application/postscript",
		"application/vnd.ms-fontobject", "application/x-rar-compressed", "application/x-7z-compressed",
		"application/x-tar",
		"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp", "image/tiff",
		"image/x-icon", "image/vnd.microsoft.icon", "image/heic",
		"font/woff", "font/woff2", "font/ttf", "font/otf", "font/collection",
		"audio/mpeg", "audio/ogg", "audio/wave", "audio/wav", "audio/aiff", "audio/basic", "audio/midi",
		"video/mp4", "video/webm", "video/ogg", "video/avi", "video/quicktime",
	}
}

// Lambda serves h as an AWS Lambda function behind an API Gateway HTTP API (payload format 2.0)
// and never returns. h should be wrapped in [Stack], exactly as for [Local]; the AWS runtime
// interface client logs and exits the process when AWS_LAMBDA_RUNTIME_API is not set.
func Lambda(h http.Handler, opts LambdaOptions) {
	lambda.Start(LambdaHandler(h, opts))
}

// LambdaHandler returns the Lambda handler [Lambda] starts, for tests that feed it recorded
// events through Invoke. It adapts algnhsa so that a request behaves as it does on the local
// server:
//
//   - the stage prefix API Gateway adds for a named (non-$default) stage and opts.BasePath are
//     stripped, so handlers see the same paths as locally;
//   - the cookies of the event become one Cookie header, Host moves to r.Host, and RemoteAddr is
//     "ip:0" (net/http always has a port);
//   - Set-Cookie headers go out as the v2 cookies array (algnhsa), binary bodies base64-encoded,
//     and HEAD responses carry no body.
func LambdaHandler(h http.Handler, opts LambdaOptions) lambda.Handler {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	opts.BasePath = strings.TrimSuffix(opts.BasePath, "/")
	binary := BinaryContentTypes()
	known := make(map[string]bool, len(binary))
	for _, t := range binary {
		known[t] = true
	}
	inner := algnhsa.New(adaptRequest(h, opts.BasePath, known), &algnhsa.Options{
		RequestType:        algnhsa.RequestTypeAPIGatewayV2,
		BinaryContentTypes: binary,
	})
	return &lambdaHandler{inner: inner, log: opts.Log}
}

type lambdaHandler struct {
	inner lambda.Handler
	log   *slog.Logger
}

// rawBodyKey carries a *rawBody from Invoke to the HTTP adapter through the request context.
type rawBodyKey struct{}

// rawBody holds a response body that algnhsa would send as text although it is not valid UTF-8
// (JSON strings cannot carry such bytes), so Invoke re-sends it base64-encoded.
type rawBody struct{ b []byte }

// MaxResponseBytes is Lambda's limit on a synchronous response (the JSON document, with the
// body base64-encoded when binary). A larger one fails at the Lambda service, after the handler
// ran; Invoke logs it so the cause is visible in the function's log.
const MaxResponseBytes = 6 << 20

// Invoke handles one event.
func (l *lambdaHandler) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	out, err := l.invoke(ctx, payload)
	if err == nil && len(out) > MaxResponseBytes {
		l.log.Warn("response exceeds the Lambda payload limit and will fail", "bytes", len(out), "limit", MaxResponseBytes)
	}
	return out, err
}

func (l *lambdaHandler) invoke(ctx context.Context, payload []byte) ([]byte, error) {
	rb := &rawBody{}
	out, err := l.inner.Invoke(context.WithValue(ctx, rawBodyKey{}, rb), payload)
	if err != nil || rb.b == nil {
		return out, err
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("lambda: re-encode binary body: %w", err)
	}
	body, _ := json.Marshal(base64.StdEncoding.EncodeToString(rb.b))
	resp["body"] = body
	resp["isBase64Encoded"] = json.RawMessage("true")
	return json.Marshal(resp)
}

// adaptRequest is the HTTP side of [LambdaHandler]: it runs inside algnhsa, between the event and
// h.
func adaptRequest(h http.Handler, basePath string, binary map[string]bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stage := ""
		if ev, ok := algnhsa.APIGatewayV2RequestFromContext(r.Context()); ok {
			stage = ev.RequestContext.Stage
			// algnhsa decodes rawPath and loses escapes such as %2F; net/http keeps them in RawPath.
			if p, err := url.PathUnescape(ev.RawPath); err == nil && p == r.URL.Path {
				r.URL.RawPath = ""
				if r.URL.EscapedPath() != ev.RawPath {
					r.URL.RawPath = ev.RawPath
				}
				r.RequestURI = r.URL.RequestURI()
			}
			if ip := ev.RequestContext.HTTP.SourceIP; ip != "" {
				r.RemoteAddr = net.JoinHostPort(ip, "0")
			}
		}
		if stage != "" && stage != "$default" {
			stripPrefix(r, "/"+stage)
		}
		if basePath != "" {
			stripPrefix(r, basePath)
		}
		if c := r.Header["Cookie"]; len(c) > 1 {
			r.Header["Cookie"] = []string{strings.Join(c, "; ")}
		}
		if host := r.Header.Get("Host"); host != "" {
			r.Host = host
			r.Header.Del("Host")
		}
		if r.ContentLength == 0 && r.Body != nil && r.Body != http.NoBody {
			if n, err := strconv.ParseInt(r.Header.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
				r.ContentLength = n
			} else {
				r.ContentLength = -1 // unknown, as net/http reports a body without a length
			}
		}
		rec, isRec := w.(*httptest.ResponseRecorder)
		if r.Method == http.MethodHead {
			w = &headWriter{ResponseWriter: w}
		}
		h.ServeHTTP(w, r)
		if !isRec || rec.Body == nil || rec.Body.Len() == 0 {
			return
		}
		ct := rec.Result().Header.Get("Content-Type")
		if binary[ct] || utf8.Valid(rec.Body.Bytes()) {
			return
		}
		if rb, ok := r.Context().Value(rawBodyKey{}).(*rawBody); ok {
			rb.b = rec.Body.Bytes()
		}
	})
}

// stripPrefix removes prefix from the request path when the path is prefix or starts with
// prefix + "/".
func stripPrefix(r *http.Request, prefix string) {
	esc := r.URL.EscapedPath()
	if esc != prefix && !strings.HasPrefix(esc, prefix+"/") {
		return
	}
	rest := strings.TrimPrefix(esc, prefix)
	if rest == "" {
		rest = "/"
	}
	p, err := url.PathUnescape(rest)
	if err != nil {
		return
	}
	r.URL.Path, r.URL.RawPath = p, ""
	if r.URL.EscapedPath() != rest {
		r.URL.RawPath = rest
	}
	r.RequestURI = r.URL.RequestURI()
}

// headWriter drops the body of a HEAD response, as net/http does (after sniffing the content
// type from it, as net/http does too).
type headWriter struct {
	http.ResponseWriter
	wrote bool
}

func (h *headWriter) WriteHeader(code int) {
	h.wrote = true
	h.ResponseWriter.WriteHeader(code)
}

func (h *headWriter) Write(b []byte) (int, error) {
	if !h.wrote {
		if hdr := h.Header(); hdr.Get("Content-Type") == "" && hdr.Get("Transfer-Encoding") == "" && len(b) > 0 {
			hdr.Set("Content-Type", http.DetectContentType(b))
		}
		h.WriteHeader(http.StatusOK)
	}
	return len(b), nil
}
