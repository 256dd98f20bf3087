// Package pagecache is the static page cache of the public website (docs/static-cache.md): which
// requests and responses may be cached, the keys, the memory and file drivers, the compressed
// variants and per-response placeholders, and exact invalidation from what each page read while
// it rendered. It knows nothing of HTTP handlers or templates: handlers/pagecache wraps a page
// handler with it, and the renderer records its reads through a Recorder.
package pagecache

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Query string modes (staticCache.queryStrings).
const (
	QueryIgnore   = "ignore"   // /p?a=1 and /p are one page
	QuerySeparate = "separate" // each sorted query string is its own page
)

// Bypass reasons, as a request that is not served from the cache reports them (logs, tests).
const (
	ReasonMethod        = "method"
	ReasonCookie        = "cookie"
	ReasonAuthorization = "authorization"
	ReasonAccept        = "accept"
	ReasonExcluded      = "excluded"
	ReasonReserved      = "reserved path"
	ReasonUnknownSite   = "unknown site"
	ReasonBypassHeader  = "bypass header"
	ReasonPrefetch      = "prefetch"
	ReasonKey           = "uncacheable path"
	ReasonPreview       = "draft preview"
)

// BypassHeader set to 1 makes a request skip the cache (an upstream fetch of the cache itself,
// a debugging client).
const BypassHeader = "X-Cms-Cache-Bypass"

// Rules decide which requests the cache answers and how they are keyed.
type Rules struct {
	// Exclude are path globs never cached; "*" matches any characters, "/" included.
	Exclude []string
	// Reserved are path prefixes of everything that is not a page: the API, the control panel,
	// assets. A prefix matches itself and what lies below it ("/api" matches "/api/x", not "/apix").
	Reserved []string
	// QueryStrings is QueryIgnore (default) or QuerySeparate.
	QueryStrings string
}

// Bypass returns why a request must not be served from or stored in the cache, or "" when it
// may be. site is the handle of the configured site the request's host matched; known is false
// when it matched none. Only GET and HEAD are cacheable; HEAD never fills the cache (the caller's
// concern: it has no body to store).
func (r *Rules) Bypass(method, path string, h http.Header, known bool) string {
	if method != http.MethodGet && method != http.MethodHead {
		return ReasonMethod
	}
	if !known {
		return ReasonUnknownSite
	}
	// One pass over the headers, whose keys net/http keeps canonical: this runs on every hit.
	var cookie, auth, bypass, pre bool
	var accept []string
	for k, v := range h {
		if len(v) == 0 {
			continue
		}
		switch k {
		case "Cookie":
			cookie = v[0] != ""
		case "Authorization":
			auth = v[0] != ""
		case BypassHeader:
			bypass = v[0] == "1"
		case "Accept":
			accept = v
		case "Sec-Purpose", "Purpose", "X-Purpose": // speculative loads (browser prefetch)
			pre = pre || strings.Contains(strings.ToLower(v[0]), "prefetch")
		case "Rsc", "Next-Router-Prefetch", "Next-Router-State-Tree", "Next-Url": // framework fragments
			pre = true
		}
	}
	switch {
	case cookie:
		return ReasonCookie
	case auth:
		return ReasonAuthorization
	case bypass:
		return ReasonBypassHeader
	case pre:
		return ReasonPrefetch
	case !acceptsHTML(accept):
		return ReasonAccept
	}
	for _, p := range r.Reserved {
		p = strings.TrimSuffix(p, "/")
		if p == "" {
			continue
		}
		if path == p || strings.HasPrefix(path, p+"/") {
			return ReasonReserved
		}
	}
	for _, g := range r.Exclude {
		if Glob(g, path) {
			return ReasonExcluded
		}
	}
	return ""
}

// acceptsHTML reports whether Accept is absent or admits text/html (text/html, text/*, */*)
// with a non-zero quality.
func acceptsHTML(vals []string) bool {
	if len(vals) == 0 {
		return true
	}
	for _, v := range vals {
		for part := range strings.SplitSeq(v, ",") {
			typ, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			typ = strings.ToLower(strings.TrimSpace(typ))
			if typ != "text/html" && typ != "text/*" && typ != "*/*" {
				continue
			}
			if zeroQuality(params) {
				continue
			}
			return true
		}
	}
	return false
}

func zeroQuality(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			v = strings.TrimSpace(v)
			return strings.Trim(v, "0.") == "" // 0, 0.0, 0.000
		}
	}
	return false
}

// Glob matches path against pattern, where "*" matches any run of characters, "/" included,
// and every other character matches itself.
func Glob(pattern, path string) bool {
	// Iterative matching with one backtrack point: linear in practice, no recursion to blow up.
	p, s := 0, 0
	star, mark := -1, 0
	for s < len(path) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, s
			p++
		case p < len(pattern) && pattern[p] == path[s]:
			p++
			s++
		case star >= 0:
			p = star + 1
			mark++
			s = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// Storable reports whether a response may be stored: a 200 HTML page that sets no cookie and
// does not forbid shared caching. Vary beyond Accept-Encoding makes it unstorable too, since
// the cache keys on the URL alone.
func Storable(status int, h http.Header) bool {
	if status != http.StatusOK || len(h.Values("Set-Cookie")) > 0 {
		return false
	}
	ct := strings.ToLower(h.Get("Content-Type"))
	if !strings.HasPrefix(strings.TrimSpace(ct), "text/html") {
		return false
	}
	if h.Get("Content-Encoding") != "" && !strings.EqualFold(h.Get("Content-Encoding"), "identity") {
		return false // the cache compresses itself; it stores the page as written
	}
	for _, v := range h.Values("Cache-Control") {
		for d := range strings.SplitSeq(strings.ToLower(v), ",") {
			d, _, _ = strings.Cut(strings.TrimSpace(d), "=")
			if d == "private" || d == "no-store" || d == "no-cache" {
				return false
			}
		}
	}
	for _, v := range h.Values("Vary") {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f != "" && !strings.EqualFold(f, "Accept-Encoding") {
				return false
			}
		}
	}
	return true
}

// Key returns the cache key of a page of site: the site handle, the path without trailing
// slashes ("/" for the root) and, with QuerySeparate, "?" and the query sorted by name then
// value. ok is false for a path the cache will not hold (not absolute, a "." or ".." segment,
// a segment starting with "." or named index.html, control characters, "?" or "\\", too long or
// too deep), so the
// file driver's layout is always a plain folder per page.
func (r *Rules) Key(site, path, rawQuery string) (key string, ok bool) {
	if !validPath(path) {
		return "", false
	}
	p := strings.TrimRight(path, "/")
	if p == "" {
		p = "/"
	}
	k := site + "|" + p
	if r.QueryStrings == QuerySeparate && rawQuery != "" {
		q, err := url.ParseQuery(rawQuery)
		if err != nil {
			return "", false
		}
		type kv struct{ k, v string }
		var all []kv
		for name, vs := range q {
			for _, v := range vs {
				all = append(all, kv{name, v})
			}
		}
		slices.SortFunc(all, func(a, b kv) int {
			if c := strings.Compare(a.k, b.k); c != 0 {
				return c
			}
			return strings.Compare(a.v, b.v)
		})
		var b strings.Builder
		for i, e := range all {
			if i > 0 {
				b.WriteByte('&')
			}
			b.WriteString(url.QueryEscape(e.k))
			b.WriteByte('=')
			b.WriteString(url.QueryEscape(e.v))
		}
		if b.Len() > 0 {
			k += "?" + b.String()
		}
	}
	if len(k) > maxKeyLen {
		return "", false
	}
	return k, true
}

// maxKeyLen bounds a key (and so a file driver path); maxDepth, a path's segments.
const (
	maxKeyLen = 1024
	maxDepth  = 24
)

func validPath(p string) bool {
	if !strings.HasPrefix(p, "/") || len(p) > maxKeyLen || strings.Count(p, "/") > maxDepth {
		return false
	}
	for seg := range strings.SplitSeq(strings.Trim(p, "/"), "/") {
		if seg == "" && p != "/" && strings.Trim(p, "/") != "" {
			return false // "//" inside the path
		}
		if strings.HasPrefix(seg, ".") || seg == "index.html" || len(seg) > 200 {
			return false
		}
		for _, c := range []byte(seg) {
			if c < 0x20 || c == 0x7f || c == '\\' || c == '?' {
				return false
			}
		}
	}
	return true
}

// SplitKey returns the site and the path (with any "?query") of a key.
func SplitKey(key string) (site, path string) {
	site, path, _ = strings.Cut(key, "|")
	return site, path
}
