package cp_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"cms/handlers/cp"
)

// FuzzServe feeds the handler arbitrary paths, methods and cookies (the only untrusted input it
// reads): it answers one of its few statuses, always with the security headers, and a redirect
// only ever points at the sign-in page, or at the clean form of an unclean path on this origin
// (as every ServeMux answers, the runners' included).
func FuzzServe(f *testing.F) {
	for _, p := range []string{"/cp", "/cp/", "/cp/login", "/cp/assets/app.js", "/cp/assets/../login", "/cp/x.js", "/cpx", "/cp/%2e%2e/", "/cp//assets/app.js"} {
		f.Add("GET", p, "")
		f.Add("GET", p, "abc")
	}
	f.Add("POST", "/cp", "x")
	h, err := cp.New(cp.Deps{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, method, path, cookie string) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		u, err := url.ParseRequestURI(path)
		if err != nil || !validMethod(method) {
			return
		}
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Method, r.URL, r.RequestURI = method, u, path
		if cookie != "" {
			r.Header.Set("Cookie", "cms_session="+cookie)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case 200, 206, 304, 307, 404, 405, 412, 416:
		default:
			t.Fatalf("%s %q: status %d", method, path, w.Code)
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" || w.Header().Get("Content-Security-Policy") == "" {
			t.Fatalf("%s %q: security headers missing", method, path)
		}
		if loc := w.Header().Get("Location"); w.Code == 307 && loc != "/cp/login" && !cleaned(u, loc) {
			t.Fatalf("%s %q: redirect to %q", method, path, loc)
		}
	})
}

func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, c := range m {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// cleaned reports whether loc is a path on this origin other than u's: where ServeMux sends an
// unclean path (its escaping of the clean form has quirks, so only the origin is checked).
func cleaned(u *url.URL, loc string) bool {
	l, err := url.Parse(loc)
	return err == nil && l.Scheme == "" && l.Host == "" && strings.HasPrefix(loc, "/") &&
		!strings.HasPrefix(loc, "//") && !strings.HasPrefix(loc, "/\\") && l.Path != u.Path
}
