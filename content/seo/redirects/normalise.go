package redirects

import (
	"errors"
	"net/url"
	"strings"
)

// MaxPathLen bounds a source or destination, in bytes after normalisation.
const MaxPathLen = 2048

// The ways a path or destination is refused; the messages are shown to authors.
var (
	errEmpty      = errors.New("must not be empty")
	errNotPath    = errors.New("must be a path starting with /")
	errHostLike   = errors.New("must not start with // or /\\ (a browser reads that as another host)")
	errTraversal  = errors.New("must not contain . or .. segments")
	errQuery      = errors.New("must not contain a query (?) or fragment (#)")
	errControl    = errors.New("must not contain control characters")
	errEscape     = errors.New("has an invalid percent-encoding")
	errTooLong    = errors.New("is too long")
	errScheme     = errors.New("must be a path or an http(s) URL")
	errCredential = errors.New("must not contain credentials (user:password@)")
	errOrigin     = errors.New("is on an origin not listed in seo.allowedRedirectOrigins")
)

// NormalizePath returns the canonical form of a public path: leading "/", every segment
// percent-decoded and re-encoded one way (so /caf%C3%A9, /café and /caf%c3%a9 are one path),
// no trailing slash but for "/" itself, no empty, "." or ".." segments (also when encoded), no
// query or fragment, no backslash or control character. Matching compares these forms.
func NormalizePath(p string) (string, error) {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return "", errEmpty
	case p[0] != '/':
		return "", errNotPath
	case strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\"):
		return "", errHostLike
	case strings.ContainsAny(p, "?#"):
		return "", errQuery
	case len(p) > MaxPathLen:
		return "", errTooLong
	}
	return normaliseSegments(p)
}

// normaliseSegments normalises an absolute path without query or fragment.
func normaliseSegments(p string) (string, error) {
	if p == "/" {
		return "/", nil
	}
	segs := strings.Split(strings.TrimSuffix(p[1:], "/"), "/")
	var b strings.Builder
	b.Grow(len(p))
	for _, s := range segs {
		raw, err := url.PathUnescape(s)
		if err != nil {
			return "", errEscape
		}
		switch {
		case raw == "":
			return "", errHostLike // an empty segment: "//" inside the path
		case raw == "." || raw == "..":
			return "", errTraversal
		case strings.ContainsFunc(raw, isControl):
			return "", errControl
		case strings.ContainsRune(raw, '\\'):
			return "", errHostLike
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(raw))
	}
	if b.Len() > MaxPathLen {
		return "", errTooLong
	}
	return b.String(), nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }

// NormalizeDestination returns the canonical form of a redirect destination: a path as
// NormalizePath (with an optional query of its own, kept as written when it is well formed),
// or an absolute http(s) URL without credentials whose origin is one of allowed ("https://a.b"
// forms, compared lower-case without a default port). Other schemes (javascript:, data:) and
// scheme-relative //host forms are refused.
func NormalizeDestination(d string, allowed []string) (string, error) {
	d = strings.TrimSpace(d)
	if d == "" {
		return "", errEmpty
	}
	if strings.ContainsFunc(d, isControl) {
		return "", errControl
	}
	if len(d) > MaxPathLen {
		return "", errTooLong
	}
	if d[0] == '/' {
		if strings.HasPrefix(d, "//") || strings.HasPrefix(d, "/\\") {
			return "", errHostLike
		}
		path, rest := d, ""
		if i := strings.IndexAny(d, "?#"); i >= 0 {
			path, rest = d[:i], d[i:]
		}
		p, err := normaliseSegments(path)
		if err != nil {
			return "", err
		}
		q, err := tail(rest)
		if err != nil {
			return "", err
		}
		return p + q, nil
	}
	u, err := url.Parse(d)
	if err != nil || u.Opaque != "" {
		return "", errScheme
	}
	if u.Scheme = strings.ToLower(u.Scheme); u.Scheme != "http" && u.Scheme != "https" {
		return "", errScheme
	}
	if u.User != nil {
		return "", errCredential
	}
	if u.Host == "" || strings.ContainsAny(u.Host, "\\ ") {
		return "", errScheme
	}
	u.Host = strings.ToLower(u.Host)
	if !originAllowed(Origin(u), allowed) {
		return "", errOrigin
	}
	p := "/"
	if ep := u.EscapedPath(); ep != "" && ep != "/" {
		if p, err = normaliseSegments(ep); err != nil {
			return "", err
		}
	}
	q := ""
	if u.RawQuery != "" {
		q = "?" + u.RawQuery
	}
	if u.Fragment != "" {
		q += "#" + u.EscapedFragment()
	}
	if strings.ContainsAny(q, " \\") {
		return "", errQuery
	}
	return u.Scheme + "://" + u.Host + p + q, nil
}

// tail checks a destination's "?query#fragment" part: it must parse, and have no space.
func tail(rest string) (string, error) {
	if rest == "" {
		return "", nil
	}
	if strings.ContainsAny(rest, " \\") {
		return "", errQuery
	}
	if _, err := url.Parse("/x" + rest); err != nil {
		return "", errEscape
	}
	return rest, nil
}

// Origin is scheme://host[:port] of u, lower-case, without a default port.
func Origin(u *url.URL) string {
	host := strings.ToLower(u.Host)
	switch {
	case u.Scheme == "http" && strings.HasSuffix(host, ":80"):
		host = strings.TrimSuffix(host, ":80")
	case u.Scheme == "https" && strings.HasSuffix(host, ":443"):
		host = strings.TrimSuffix(host, ":443")
	}
	return strings.ToLower(u.Scheme) + "://" + host
}

func originAllowed(o string, allowed []string) bool {
	for _, a := range allowed {
		u, err := url.Parse(strings.TrimSpace(a))
		if err == nil && Origin(u) == o {
			return true
		}
	}
	return false
}

// isNormal reports, without allocating, whether p is surely already what NormalizePath makes
// of it: "/" or segments of characters never escaped, none empty, "." or "..", no trailing
// slash. A false answer only means "normalise to know".
func isNormal(p string) bool {
	if p == "/" {
		return true
	}
	if len(p) < 2 || p[0] != '/' || p[len(p)-1] == '/' || len(p) > MaxPathLen {
		return false
	}
	start := 1
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			seg := p[start:i]
			if seg == "" || seg == "." || seg == ".." {
				return false
			}
			start = i + 1
			continue
		}
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~$&+:=@", c) >= 0) {
			return false
		}
	}
	return true
}
