package site

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// Upstream proxy defaults: how long to connect, and to wait for the response's headers.
const (
	upstreamDialTimeout     = 5 * time.Second
	defaultUpstreamTimeout  = 30 * time.Second
	upstreamIdleConnections = 32
)

// newUpstream returns the proxy to a headless frontend (Deps.Upstream) that answers the page
// requests the site cannot route itself. The origin is fixed by configuration, never taken from
// the request. A failure is the site's error page with 502 (504 on a timeout), never stored.
func newUpstream(target *url.URL, timeout time.Duration, csp string) http.Handler {
	if timeout <= 0 {
		timeout = defaultUpstreamTimeout
	}
	tr := &http.Transport{
		Proxy:                 nil, // the configured origin, directly
		DialContext:           (&net.Dialer{Timeout: upstreamDialTimeout}).DialContext,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   upstreamIdleConnections,
		IdleConnTimeout:       90 * time.Second,
	}
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.SetXForwarded()
		},
		Transport: tr,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			status := http.StatusBadGateway
			var ne net.Error
			if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
				status = http.StatusGatewayTimeout
			}
			h := w.Header()
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Cache-Control", "no-store")
			if csp != "" {
				h.Set("Content-Security-Policy", csp)
			}
			w.WriteHeader(status)
			if r.Method != http.MethodHead {
				_, _ = w.Write([]byte(errorPage))
			}
		},
	}
}
