package cp_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/handlers/cp"
	"cms/handlers/web/webtest"
)

func newCP(t testing.TB, d cp.Deps) http.Handler {
	t.Helper()
	h, err := cp.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var session = []*http.Cookie{{Name: "cms_session", Value: "anything-at-all"}}

func TestServe(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	tests := []struct {
		name         string
		method, path string
		cookies      []*http.Cookie
		wantStatus   int
		wantType     string // Content-Type prefix
		wantLocation string
		wantCache    string // Cache-Control
		wantCode     string // error code of a JSON error
		wantBody     string // substring of the body
	}{
		{name: "shell without cookie redirects", path: "/cp", wantStatus: 307, wantLocation: "/cp/login", wantCache: "no-store"},
		{name: "shell with trailing slash without cookie", path: "/cp/", wantStatus: 307, wantLocation: "/cp/login"},
		{name: "deep link without cookie redirects", path: "/cp/entries/blog", wantStatus: 307, wantLocation: "/cp/login"},
		{name: "query kept out of Location", path: "/cp/entries/blog?status=draft", wantStatus: 307, wantLocation: "/cp/login"},
		{name: "empty cookie counts as absent", path: "/cp", cookies: []*http.Cookie{{Name: "cms_session", Value: ""}}, wantStatus: 307, wantLocation: "/cp/login"},
		{name: "other cookie does not count", path: "/cp", cookies: []*http.Cookie{{Name: "session", Value: "x"}}, wantStatus: 307, wantLocation: "/cp/login"},
		{name: "login page needs no cookie", path: "/cp/login", wantStatus: 200, wantType: "text/html", wantCache: "no-store", wantBody: `login.js`},
		{name: "login page with cookie", path: "/cp/login", cookies: session, wantStatus: 200, wantType: "text/html", wantBody: `id="login"`},
		{name: "shell with any cookie value", path: "/cp", cookies: session, wantStatus: 200, wantType: "text/html", wantCache: "no-store", wantBody: `app.js`},
		{name: "deep link with cookie gets the shell", path: "/cp/entries/blog/hello", cookies: session, wantStatus: 200, wantType: "text/html", wantBody: `id="main"`},
		{name: "script without cookie", path: "/cp/assets/app.js", wantStatus: 200, wantType: "text/javascript", wantCache: "public, max-age=300", wantBody: "import"},
		{name: "stylesheet", path: "/cp/assets/cp.css", wantStatus: 200, wantType: "text/css", wantBody: ":root"},
		{name: "image", path: "/cp/assets/logo.svg", wantStatus: 200, wantType: "image/svg+xml", wantBody: "<svg"},
		{name: "unknown asset", path: "/cp/assets/nope.js", wantStatus: 404, wantCode: "NOT_FOUND"},
		{name: "asset folder itself", path: "/cp/assets/", wantStatus: 404, wantCode: "NOT_FOUND"},
		{name: "page template is not an asset", path: "/cp/assets/index.html", cookies: session, wantStatus: 404, wantCode: "NOT_FOUND"},
		{name: "static extension outside assets is 404, not a redirect", path: "/cp/missing.js", wantStatus: 404, wantCode: "NOT_FOUND"},
		{name: "favicon probe is 404", path: "/cp/favicon.ico", wantStatus: 404, wantCode: "NOT_FOUND"},
		{name: "POST to the shell", method: "POST", path: "/cp", cookies: session, wantStatus: 405, wantCode: "METHOD_NOT_ALLOWED"},
		{name: "POST to the login page", method: "POST", path: "/cp/login", wantStatus: 405, wantCode: "METHOD_NOT_ALLOWED"},
		{name: "DELETE an asset", method: "DELETE", path: "/cp/assets/app.js", wantStatus: 405, wantCode: "METHOD_NOT_ALLOWED"},
		{name: "PUT a deep link without cookie", method: "PUT", path: "/cp/entries/blog", wantStatus: 405, wantCode: "METHOD_NOT_ALLOWED"},
		{name: "a path that only starts like the mount path", path: "/cpanel", cookies: session, wantStatus: 404, wantCode: "NOT_FOUND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			method := tt.method
			if method == "" {
				method = http.MethodGet
			}
			w := webtest.Do(t, h, webtest.Request{Method: method, Path: tt.path, Cookies: tt.cookies})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", w.Code, tt.wantStatus, w.Body.String())
			}
			hdr := w.Header()
			checkSecurityHeaders(t, hdr)
			if got := hdr.Get("Location"); got != tt.wantLocation {
				t.Errorf("Location = %q, want %q", got, tt.wantLocation)
			}
			if tt.wantType != "" && !strings.HasPrefix(hdr.Get("Content-Type"), tt.wantType) {
				t.Errorf("Content-Type = %q, want %s...", hdr.Get("Content-Type"), tt.wantType)
			}
			if tt.wantCache != "" && hdr.Get("Cache-Control") != tt.wantCache {
				t.Errorf("Cache-Control = %q, want %q", hdr.Get("Cache-Control"), tt.wantCache)
			}
			if tt.wantCode != "" {
				if got := webtest.DecodeError(t, w).Error.Code; got != tt.wantCode {
					t.Errorf("error code = %s, want %s", got, tt.wantCode)
				}
			}
			if tt.wantStatus == 405 && hdr.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow = %q, want GET, HEAD", hdr.Get("Allow"))
			}
			if !strings.Contains(w.Body.String(), tt.wantBody) {
				t.Errorf("body lacks %q:\n%s", tt.wantBody, w.Body.String())
			}
		})
	}
}

// checkSecurityHeaders asserts the headers every response carries, error or not.
func checkSecurityHeaders(t *testing.T, hdr http.Header) {
	t.Helper()
	csp := hdr.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("Content-Security-Policy allows inline code: %q", csp)
	}
	if got := hdr.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q", got)
	}
	if got := hdr.Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("X-Frame-Options = %q", got)
	}
}

// TestPagesVaryByCookie: a shared cache must not store a page or the redirect, and must key on
// the cookie if it ignores no-store.
func TestPagesVaryByCookie(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	for _, c := range [][]*http.Cookie{nil, session} {
		w := webtest.Do(t, h, webtest.Request{Path: "/cp/entries", Cookies: c})
		if w.Header().Get("Vary") != "Cookie" || w.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("status %d: Vary %q, Cache-Control %q", w.Code, w.Header().Get("Vary"), w.Header().Get("Cache-Control"))
		}
	}
}

func TestHead(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	for _, tt := range []struct {
		path    string
		cookies []*http.Cookie
		want    int
	}{
		{"/cp", session, 200},
		{"/cp/login", nil, 200},
		{"/cp/assets/app.js", nil, 200},
		{"/cp", nil, 307},
	} {
		w := webtest.Do(t, h, webtest.Request{Method: http.MethodHead, Path: tt.path, Cookies: tt.cookies})
		if w.Code != tt.want || w.Body.Len() != 0 {
			t.Errorf("HEAD %s: status %d (want %d), %d body bytes", tt.path, w.Code, tt.want, w.Body.Len())
		}
		if tt.want == 200 && w.Header().Get("Content-Length") == "" {
			t.Errorf("HEAD %s: no Content-Length", tt.path)
		}
	}
}

// TestAssetRevalidation: an asset comes with an ETag and a matching If-None-Match is a 304.
func TestAssetRevalidation(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	w := webtest.Do(t, h, webtest.Request{Path: "/cp/assets/app.js"})
	etag := w.Header().Get("ETag")
	if w.Code != 200 || !strings.HasPrefix(etag, `"`) {
		t.Fatalf("status %d, ETag %q", w.Code, etag)
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/cp/assets/app.js", Header: http.Header{"If-None-Match": {etag}}})
	if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("revalidation: status %d, %d body bytes; want 304 and none", w.Code, w.Body.Len())
	}
	checkSecurityHeaders(t, w.Header())
	w = webtest.Do(t, h, webtest.Request{Path: "/cp/assets/app.js", Header: http.Header{"If-None-Match": {`"stale"`}}})
	if w.Code != 200 {
		t.Errorf("stale ETag: status %d, want 200", w.Code)
	}
}

// TestMountPath: another mount path and a base path (an API Gateway stage) reach the redirect,
// the links and the API address the pages use.
func TestMountPath(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{Path: "/admin/panel", BasePath: "/prod", Secure: true})
	w := webtest.Do(t, h, webtest.Request{Path: "/admin/panel/entries/blog"})
	if w.Code != 307 || w.Header().Get("Location") != "/prod/admin/panel/login" {
		t.Errorf("redirect: %d to %q", w.Code, w.Header().Get("Location"))
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/admin/panel", Cookies: session})
	body := w.Body.String()
	for _, want := range []string{
		`<meta name="cms-cp" content="/prod/admin/panel">`,
		`<meta name="cms-api" content="/prod/api">`,
		`src="/prod/admin/panel/assets/app.js?v=`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("shell lacks %s:\n%s", want, body)
		}
	}
	w = webtest.Do(t, h, webtest.Request{Path: "/admin/panel/login"})
	if !strings.Contains(w.Body.String(), `<meta name="cms-secure" content="true">`) {
		t.Errorf("login page does not say the cookie is HTTPS-only:\n%s", w.Body.String())
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/cp", Cookies: session}); w.Code != 404 {
		t.Errorf("default path still served: %d", w.Code)
	}
}

func TestNewRefusesBadPaths(t *testing.T) {
	t.Parallel()
	for _, d := range []cp.Deps{
		{Path: "cp"},
		{Path: "/cp/"},
		{Path: "/"},
		{Path: "/api"},
		{Path: "/api/cp"},
		{Path: "/assets"},
		{Path: "/c p"},
		{Path: "/a/../cp"},
		{Path: "//cp"},
		{Path: "/{cp}"},
		{Path: "/cp", BasePath: "prod"},
		{Path: "/cp", BasePath: "/prod/"},
		{Path: "/cp", BasePath: `/"><script>`},
	} {
		if _, err := cp.New(d); err == nil {
			t.Errorf("New(%+v) accepted", d)
		}
	}
}

func TestPrefixes(t *testing.T) {
	t.Parallel()
	if got := strings.Join(cp.Prefixes("/cp"), " "); got != "/cp /cp/" {
		t.Errorf("Prefixes = %s", got)
	}
	if got := strings.Join(cp.Prefixes(""), " "); got != "/cp /cp/" {
		t.Errorf("Prefixes of the default = %s", got)
	}
}

// TestMounted: on a ServeMux at its prefixes, as the runners mount it, /cp and everything
// below it reach the group, and other paths do not.
func TestMounted(t *testing.T) {
	t.Parallel()
	h := newCP(t, cp.Deps{})
	mux := http.NewServeMux()
	for _, p := range cp.Prefixes("/cp") {
		mux.Handle(p, h)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for path, want := range map[string]int{"/cp": 307, "/cp/": 307, "/cp/x/y": 307, "/cp/assets/app.js": 200, "/cpx": 404} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s = %d, want %d", path, resp.StatusCode, want)
		}
	}
}
