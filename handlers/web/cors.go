package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// CORSMode says which cross-origin callers a route admits (cors.origins).
type CORSMode uint8

const (
	// CORSPrivate is the Control Panel API's mode, the default: only origins listed exactly
	// (never "*", never a port pattern), with credentials. Everything else stays same-origin.
	CORSPrivate CORSMode = iota
	// CORSAuthenticated is for authenticated APIs meant for frontends (GraphQL): listed origins
	// and port patterns; never "*". Credentials only for an exactly listed origin.
	CORSAuthenticated
	// CORSPublic is for anonymous routes (public API, asset files, form submission): any listed
	// origin, "*" included; never credentials, which these routes do not read.
	CORSPublic
)

// CORS is the cross-origin policy of cors.origins and cors.maxAgeSeconds. It is built once at
// start-up and wraps every group's handler ([CORS.Wrap]); the zero policy (no origins) changes
// nothing, so without configuration every route stays same-origin.
type CORS struct {
	any      bool     // "*" is listed
	exact    []string // origins listed exactly, as browsers send them (lowercase scheme and host)
	patterns []string // "scheme://host:" of "scheme://host:*" entries: any port
	maxAge   string   // Access-Control-Max-Age, "" = the browser's default
}

// The request headers a preflight may ask for: anonymous routes take no credentials, so not
// Authorization; the others also take If-Match for their writes. Nothing that a server trusts
// (X-Forwarded-Proto, Forwarded) is ever allowed.
var (
	corsPublicHeaders = []string{"accept", "accept-language", "content-language", "content-type", "if-none-match", "if-modified-since", "x-request-id"}
	corsAuthHeaders   = []string{"accept", "accept-language", "authorization", "content-language", "content-type", "if-match", "if-none-match", "if-modified-since", "x-request-id"}
)

func corsRequestHeaders(m CORSMode) []string {
	if m == CORSPublic {
		return corsPublicHeaders
	}
	return corsAuthHeaders
}

// varyOrigin is the Vary value of every response under a policy, shared so that the requests
// without an Origin (most, and every same-origin GET) allocate nothing here.
var varyOrigin = []string{"Origin"}[:1:1]

// corsExposed are the response headers a cross-origin script may read besides the safelisted ones.
const corsExposed = "ETag, X-Request-Id, Retry-After, Allow, Location, X-Robots-Tag"

// NewCORS builds a policy. An origin is "*", an exact origin "scheme://host[:port]" (http or
// https, no path, no user), or "scheme://host:*" for any port of that host.
func NewCORS(origins []string, maxAgeSeconds int) (*CORS, error) {
	c := &CORS{}
	if maxAgeSeconds > 0 {
		c.maxAge = strconv.Itoa(maxAgeSeconds)
	}
	for _, o := range origins {
		o = strings.TrimSpace(o)
		if o == "*" {
			c.any = true
			continue
		}
		pattern := false
		if base, ok := strings.CutSuffix(o, ":*"); ok {
			o, pattern = base, true
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Contains(u.Host, "*") || u.User != nil ||
			u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(o, "/") {
			return nil, fmt.Errorf("origin %q must be *, scheme://host[:port] or scheme://host:* (no path)", o)
		}
		if pattern && u.Port() != "" {
			return nil, fmt.Errorf("origin %q: a port pattern takes a host without a port", o+":*")
		}
		norm := strings.ToLower(u.Scheme + "://" + u.Host)
		if pattern {
			c.patterns = append(c.patterns, norm+":")
		} else {
			c.exact = append(c.exact, norm)
		}
	}
	return c, nil
}

// Enabled reports whether any origin is listed.
func (c *CORS) Enabled() bool {
	return c != nil && (c.any || len(c.exact) > 0 || len(c.patterns) > 0)
}

// match returns the Access-Control-Allow-Origin value for origin under mode ("" = not allowed)
// and whether credentials may be allowed (exactly listed origins on non-public routes only).
func (c *CORS) match(origin string, mode CORSMode) (allow string, credentials bool) {
	if origin == "" || origin == "null" {
		return "", false
	}
	lower := strings.ToLower(origin)
	if slices.Contains(c.exact, lower) {
		return origin, mode != CORSPublic
	}
	if mode != CORSPrivate {
		for _, p := range c.patterns {
			if port, ok := strings.CutPrefix(lower, p); ok && validPort(port) {
				return origin, false
			}
		}
	}
	if c.any && mode == CORSPublic {
		return "*", false
	}
	return "", false
}

func validPort(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0 && n < 65536 && strconv.Itoa(n) == s
}

// allower is what a route table tells about a path: its methods (web.Router).
type allower interface {
	Allowed(r *http.Request) (allow string, ok bool)
}

// Wrap applies the policy to h. mode picks the route's mode from the request path (nil: every
// path is CORSPrivate). A preflight (OPTIONS with Origin and Access-Control-Request-Method) is
// answered here, from h's route table when h has one: 204 with the allowed methods and
// headers, or a JSON 403 for an origin, method or header the policy refuses, 404 for an unknown
// path. Other requests reach h, with Access-Control-Allow-Origin added for an allowed origin.
// Every response varies by Origin. A policy without origins returns h unchanged.
func (c *CORS) Wrap(h http.Handler, mode func(path string) CORSMode) http.Handler {
	if !c.Enabled() {
		return h
	}
	if mode == nil {
		mode = func(string) CORSMode { return CORSPrivate }
	}
	routes, _ := h.(allower)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		if len(hdr["Vary"]) == 0 {
			hdr["Vary"] = varyOrigin // shared and capped: an Add appends to a copy
		} else {
			hdr.Add("Vary", "Origin")
		}
		origin := r.Header.Get("Origin")
		if origin == "" {
			h.ServeHTTP(w, r)
			return
		}
		m := mode(r.URL.Path)
		allow, creds := c.match(origin, m)
		reqMethod := r.Header.Get("Access-Control-Request-Method")
		if r.Method == http.MethodOptions && reqMethod != "" {
			c.preflight(w, r, routes, m, allow, creds, reqMethod)
			return
		}
		if allow != "" {
			hdr.Set("Access-Control-Allow-Origin", allow)
			hdr.Set("Access-Control-Expose-Headers", corsExposed)
			if creds {
				hdr.Set("Access-Control-Allow-Credentials", "true")
			}
		}
		h.ServeHTTP(w, r)
	})
}

func (c *CORS) preflight(w http.ResponseWriter, r *http.Request, routes allower, m CORSMode, allow string, creds bool, reqMethod string) {
	hdr := w.Header()
	hdr.Add("Vary", "Access-Control-Request-Method")
	hdr.Add("Vary", "Access-Control-Request-Headers")
	setRoute(r, "OPTIONS (CORS preflight)")
	if allow == "" {
		WriteError(w, r, &Error{Status: http.StatusForbidden, Code: "CORS_REJECTED",
			Message: fmt.Sprintf("Origin %s may not call %s (cors.origins)", r.Header.Get("Origin"), r.URL.Path)})
		return
	}
	methods := "GET, HEAD, POST, PUT, PATCH, DELETE"
	if routes != nil {
		var ok bool
		if methods, ok = routes.Allowed(r); !ok {
			WriteError(w, r, NotFound("Route not found: %s %s", reqMethod, r.URL.Path))
			return
		}
	}
	if !slices.Contains(strings.Split(methods, ", "), reqMethod) {
		WriteError(w, r, &Error{Status: http.StatusMethodNotAllowed, Code: "METHOD_NOT_ALLOWED",
			Message: "Method not allowed; use " + methods, Header: http.Header{"Allow": {methods}}})
		return
	}
	var headers []string
	for _, f := range strings.Split(r.Header.Get("Access-Control-Request-Headers"), ",") {
		if f = strings.ToLower(strings.TrimSpace(f)); f == "" {
			continue
		}
		if !slices.Contains(corsRequestHeaders(m), f) {
			WriteError(w, r, &Error{Status: http.StatusForbidden, Code: "CORS_REJECTED",
				Message: fmt.Sprintf("Request header %s is not allowed on %s", f, r.URL.Path)})
			return
		}
		headers = append(headers, f)
	}
	hdr.Set("Access-Control-Allow-Origin", allow)
	hdr.Set("Access-Control-Allow-Methods", methods)
	if len(headers) > 0 {
		hdr.Set("Access-Control-Allow-Headers", strings.Join(headers, ", "))
	}
	if creds {
		hdr.Set("Access-Control-Allow-Credentials", "true")
	}
	if c.maxAge != "" {
		hdr.Set("Access-Control-Max-Age", c.maxAge)
	}
	w.WriteHeader(http.StatusNoContent)
}
