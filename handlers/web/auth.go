package web

import (
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

// SameOrigin reports whether a state-changing request comes from this site: Origin must match the
// request's own scheme and host, or, when Origin is absent, Referer must. Safe methods always pass.
func SameOrigin(r *http.Request) bool {
	if SafeMethod(r.Method) {
		return true
	}
	src := r.Header.Get("Origin")
	if src == "" || src == "null" {
		src = r.Header.Get("Referer")
	}
	if src == "" {
		return false
	}
	u, err := url.Parse(src)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
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
