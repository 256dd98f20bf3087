package web

import (
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"cms/content"
	"cms/content/access"
)

// Authenticator identifies the caller of a request from its Bearer token or session cookie. It
// returns an Unauthenticated error when there is no valid session.
type Authenticator interface {
	Authenticate(r *http.Request) (*access.Principal, error)
}

// Require authenticates the request and checks one permission before any read or write. A
// cookie-authenticated request that changes state must also come from the same origin.
func Require(a Authenticator, r *http.Request, resource, action, scope string) (*access.Principal, error) {
	p, err := Authenticated(a, r)
	if err != nil {
		return nil, err
	}
	if err := p.Require(resource, action, scope); err != nil {
		return nil, err
	}
	return p, nil
}

// Authenticated authenticates the request and applies the same-origin rule, without a
// permission check (for endpoints any signed-in user may call).
func Authenticated(a Authenticator, r *http.Request) (*access.Principal, error) {
	if a == nil {
		return nil, content.Unauthenticatedf("web.Authenticated", "Authentication required")
	}
	p, err := a.Authenticate(r)
	if err != nil {
		return nil, err
	}
	if p.ViaCookie && !SameOrigin(r) {
		return nil, &Error{Status: http.StatusForbidden, Code: "CSRF_REJECTED",
			Message: "Cross-site request refused: the Origin or Referer header must match this site"}
	}
	if info := InfoFrom(r.Context()); info != nil && p.User != nil {
		info.Attrs = append(info.Attrs, userAttr(p.User.ID))
	}
	return p, nil
}

// SafeMethod reports whether a method never changes state.
func SafeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// SameOrigin reports whether a state-changing request comes from this site. Safe methods always
// pass. Otherwise the browser's Sec-Fetch-Site, when sent, must be "same-origin", and the Origin
// (or, only when there is no Origin, the Referer) must equal the request's own origin: scheme,
// host and port. "Origin: null" (sandboxed frames, data: URLs, some redirects) never passes.
//
// The request's scheme is https over TLS, or when a TLS-terminating proxy says so in
// X-Forwarded-Proto (its first value: the hop the browser spoke to); otherwise http. A page
// cannot set that header on a cross-origin request without a CORS preflight, which this server
// never grants for it (CORS allows only a fixed list of request headers), so trusting it here
// helps no attacker. When no proxy says, but the browser
// vouches with Sec-Fetch-Site: same-origin, the Origin's scheme is taken as the request's.
func SameOrigin(r *http.Request) bool {
	if SafeMethod(r.Method) {
		return true
	}
	fetchSite := r.Header.Get("Sec-Fetch-Site")
	if fetchSite != "" && fetchSite != "same-origin" {
		return false
	}
	src := r.Header.Get("Origin")
	if src == "null" {
		return false
	}
	if src == "" {
		src = r.Header.Get("Referer")
	}
	u, err := url.Parse(src)
	if src == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return false
	}
	scheme, known := requestScheme(r)
	if !known && fetchSite == "same-origin" {
		scheme = u.Scheme
	}
	return u.Scheme == scheme && strings.EqualFold(hostPort(u.Host, u.Scheme), hostPort(r.Host, scheme))
}

// requestScheme returns the scheme the client used and whether the server knows it.
func requestScheme(r *http.Request) (string, bool) {
	if r.TLS != nil {
		return "https", true
	}
	if p, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ","); p != "" {
		if p = strings.ToLower(strings.TrimSpace(p)); p == "https" || p == "http" {
			return p, true
		}
	}
	return "http", false
}

// hostPort returns host with the scheme's default port added when it has none.
func hostPort(host, scheme string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	port := "80"
	if scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), port)
}

// RequireJSON refuses a request body that is not declared as JSON (application/json or a
// +json type). Besides saying what the body is, it is a CSRF defence: a cross-site form post or
// a fetch without preflight can only send no type, text/plain, urlencoded or multipart.
func RequireJSON(r *http.Request) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		return nil
	}
	return &Error{Status: http.StatusUnsupportedMediaType, Code: "UNSUPPORTED_MEDIA_TYPE",
		Message: "Request body must be JSON (Content-Type: application/json)"}
}

// ClientAddress is the rate-limit key of the request's client: its IP address, or for IPv6 its
// /64 network, which one client usually holds whole. Forwarding headers are not trusted: without
// a configured proxy anyone can write them. (On Lambda the adapter sets RemoteAddr from the
// source IP.)
func ClientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return ip.String()
}

// As returns the store whose writes name p's user as their editor (git sync attributes commits
// to them): as(editor) when the group was given as, else store itself.
func As[S any](store S, as func(content.Editor) S, p *access.Principal) S {
	if as == nil || p == nil {
		return store
	}
	return as(content.EditorOf(p.User))
}
