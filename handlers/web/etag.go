package web

import (
	"net/http"
	"strings"
)

// IfMatch returns the version a client expects a resource to have: the ETag it read, without
// quotes or a weak prefix. It returns "" when the request sent no If-Match or "*" (which any
// existing resource satisfies), and a 400 when the header is not one quoted ETag.
func IfMatch(r *http.Request) (string, error) {
	v := strings.TrimSpace(r.Header.Get("If-Match"))
	if v == "" || v == "*" {
		return "", nil
	}
	v = strings.TrimPrefix(v, "W/")
	if len(v) < 3 || v[0] != '"' || v[len(v)-1] != '"' || strings.ContainsAny(v[1:len(v)-1], `",`) {
		return "", BadRequest(`If-Match must hold one ETag as returned by GET, e.g. "3a7bd3e2..."`)
	}
	return v[1 : len(v)-1], nil
}

// NoneMatch reports whether an If-None-Match header lists etag (or "*"), so a 304 can be sent.
func NoneMatch(r *http.Request, etag string) bool {
	h := r.Header.Get("If-None-Match")
	if h == "" {
		return false
	}
	for _, part := range strings.Split(h, ",") {
		p := strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if p == "*" || p == etag {
			return true
		}
	}
	return false
}
