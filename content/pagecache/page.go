package pagecache

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"math/bits"
	"net/http"
	"strings"
	"time"

	"github.com/andybalholm/brotli"
)

// Page is one stored response.
type Page struct {
	Key     string      `json:"key"`
	Header  [][2]string `json:"header"` // response headers worth replaying, in order
	ETag    string      `json:"etag"`   // quoted; weak (W/) when the page has placeholders
	Deps    []Dep       `json:"deps,omitempty"`
	Stored  time.Time   `json:"stored"`
	Expires time.Time   `json:"expires,omitzero"` // zero = until purged
	// Placeholders is set when Body holds per-response markers: the page is then served
	// uncompressed with the markers filled, and the file driver does not export it to the front
	// web server (which could not fill them).
	Placeholders bool `json:"placeholders,omitempty"`

	Body   []byte `json:"-"`
	Gzip   []byte `json:"-"` // nil when compressing did not pay or the page has placeholders
	Brotli []byte `json:"-"`
}

// size is what the page costs in memory.
func (p *Page) size() int64 {
	n := len(p.Key) + len(p.Body) + len(p.Gzip) + len(p.Brotli) + 256
	for _, h := range p.Header {
		n += len(h[0]) + len(h[1]) + 32
	}
	return int64(n + len(p.Deps)*48)
}

// skipHeaders are response headers never stored: per-response, hop-by-hop, or set by the cache.
var skipHeaders = map[string]bool{
	"Date": true, "Content-Length": true, "Set-Cookie": true, "Etag": true, "Connection": true,
	"Keep-Alive": true, "Transfer-Encoding": true, "Trailer": true, "Vary": true, "X-Cache": true,
	"Content-Encoding": true, "Age": true, "Upgrade": true, "Proxy-Connection": true,
}

// newPage builds the stored form of a response: the headers to replay, its ETag, and its gzip
// and Brotli variants (compressed once, here).
func newPage(key string, h http.Header, body []byte, deps []Dep, expires time.Time, ph bool, now time.Time) *Page {
	p := &Page{Key: key, Body: body, Deps: deps, Expires: expires, Stored: now, Placeholders: ph && hasPlaceholder(body)}
	for k, vs := range h {
		if skipHeaders[http.CanonicalHeaderKey(k)] {
			continue
		}
		for _, v := range vs {
			p.Header = append(p.Header, [2]string{http.CanonicalHeaderKey(k), v})
		}
	}
	sortHeader(p.Header)
	sum := sha256.Sum256(body)
	tag := `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
	if p.Placeholders {
		tag = "W/" + tag
	}
	p.ETag = tag
	if !p.Placeholders && len(body) >= minCompress {
		p.Gzip = gzipBytes(body)
		p.Brotli = brotliBytes(body)
	}
	return p
}

// minCompress is the smallest body worth compressing.
const minCompress = 256

func sortHeader(h [][2]string) {
	for i := 1; i < len(h); i++ { // insertion sort: few headers, stable
		for j := i; j > 0 && h[j][0] < h[j-1][0]; j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	if buf.Len() >= len(b) {
		return nil
	}
	return buf.Bytes()
}

func brotliBytes(b []byte) []byte {
	var buf bytes.Buffer
	// A window no larger than the page keeps the encoder's tables (and its allocation) small.
	lgwin := max(bits.Len(uint(len(b))), 10)
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 9, LGWin: min(lgwin, 24)})
	_, _ = w.Write(b)
	_ = w.Close()
	if buf.Len() >= len(b) {
		return nil
	}
	return buf.Bytes()
}

// Encoding picks the stored variant a request's Accept-Encoding admits: "br", "gzip" or ""
// (identity), preferring Brotli. A coding listed with q=0 is refused.
func (p *Page) Encoding(acceptEncoding string) (string, []byte) {
	br, gz := false, false
	for part := range strings.SplitSeq(acceptEncoding, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		ok := !zeroQuality(params)
		switch name {
		case "br":
			br = ok
		case "gzip", "x-gzip":
			gz = ok
		case "*":
			br, gz = ok, ok
		}
	}
	switch {
	case br && p.Brotli != nil:
		return "br", p.Brotli
	case gz && p.Gzip != nil:
		return "gzip", p.Gzip
	}
	return "", p.Body
}

// Placeholders are written into a stored page as placeholderPrefix + name + placeholderSuffix:
// plain characters that HTML escaping leaves alone, in text and attribute values alike.
const (
	placeholderPrefix = "__CMS_PLACEHOLDER_"
	placeholderSuffix = "__"
)

func validPlaceholderName(name string) bool {
	if name == "" || len(name) > 32 {
		return false
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func hasPlaceholder(b []byte) bool { return bytes.Contains(b, []byte(placeholderPrefix)) }

// Fill returns body with every placeholder replaced by fill(name); markers of names fill does
// not know (fill returns ok=false) are replaced by "". The body itself is not modified.
func Fill(body []byte, fill func(name string) (string, bool)) []byte {
	if !hasPlaceholder(body) {
		return body
	}
	out := make([]byte, 0, len(body)+64)
	rest := body
	for {
		i := bytes.Index(rest, []byte(placeholderPrefix))
		if i < 0 {
			break
		}
		after := rest[i+len(placeholderPrefix):]
		j := bytes.Index(after, []byte(placeholderSuffix))
		if j < 0 || !validPlaceholderName(string(after[:j])) {
			out = append(out, rest[:i+len(placeholderPrefix)]...)
			rest = after
			continue
		}
		out = append(out, rest[:i]...)
		if v, ok := fill(string(after[:j])); ok {
			out = append(out, v...)
		}
		rest = after[j+len(placeholderSuffix):]
	}
	return append(out, rest...)
}
