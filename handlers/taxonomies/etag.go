package taxonomies

import (
	"net/http"
	"strings"

	"cms/handlers/web"
)

// ifMatch returns the hash a client expects the file to have (the ETag it read, without quotes
// or a weak prefix), or "" when it sent no If-Match or "*" (which any existing term satisfies).
func ifMatch(r *http.Request) (string, error) {
	v := strings.TrimSpace(r.Header.Get("If-Match"))
	if v == "" || v == "*" {
		return "", nil
	}
	v = strings.TrimPrefix(v, "W/")
	if len(v) < 3 || v[0] != '"' || v[len(v)-1] != '"' || strings.ContainsAny(v[1:len(v)-1], `",`) {
		return "", web.BadRequest(`If-Match must hold one ETag as returned by GET, e.g. "3a7bd3e2..."`)
	}
	return v[1 : len(v)-1], nil
}
