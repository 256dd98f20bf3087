package web_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web"
	"cms/handlers/web/webtest"
)

type depth struct {
	MaxDepth    int `json:"maxDepth"`
	ActualDepth int `json:"actualDepth"`
}

type refs struct {
	References []string `json:"references"`
}

type clash struct {
	Code  string `json:"code"`
	Extra int    `json:"extra"`
}

func TestWriteError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantBody   string
	}{
		{"invalid with fields", content.InvalidFields("op", "Validation failed", map[string][]string{"email": {"Must be a valid email address"}}),
			422, `{"error":{"code":"VALIDATION_ERROR","details":{"fieldErrors":{"email":["Must be a valid email address"]}},"fields":{"email":["Must be a valid email address"]},"message":"Validation failed"}}`},
		{"not found", content.NotFoundf("op", "p", "Entry %q not found", "blog/x"), 404, `{"error":{"code":"NOT_FOUND","message":"Entry \"blog/x\" not found"}}`},
		{"anything wrapping fs.ErrNotExist", fmt.Errorf("read: %w", fs.ErrNotExist), 404, `{"error":{"code":"NOT_FOUND","message":"Not found"}}`},
		{"code override with details inline", &content.Error{Kind: content.Invalid, Code: "DEPTH_EXCEEDED", Message: "too deep", Details: depth{1, 3}},
			422, `{"error":{"actualDepth":3,"code":"DEPTH_EXCEEDED","details":{"actualDepth":3,"maxDepth":1},"maxDepth":1,"message":"too deep"}}`},
		{"conflict", content.Conflictf("op", "dup"), 409, `{"error":{"code":"CONFLICT","message":"dup"}}`},
		{"unauthenticated", content.Unauthenticatedf("op", "Invalid or expired session"), 401, `{"error":{"code":"AUTHENTICATION_ERROR","message":"Invalid or expired session"}}`},
		{"forbidden", content.Forbiddenf("op", "Insufficient permissions to edit entries"), 403, `{"error":{"code":"AUTHORIZATION_ERROR","message":"Insufficient permissions to edit entries"}}`},
		{"internal hides the cause", content.Internalf("op", "/secret/path", errors.New("disk on fire")), 500, `{"error":{"code":"INTERNAL_ERROR","message":"An unexpected error occurred"}}`},
		{"plain error", errors.New("boom"), 500, `{"error":{"code":"INTERNAL_ERROR","message":"An unexpected error occurred"}}`},
		{"transport error", &web.Error{Status: 429, Code: "RATE_LIMITED", Message: "slow down", Header: http.Header{"Retry-After": {"7"}}}, 429, `{"error":{"code":"RATE_LIMITED","message":"slow down"}}`},
		{"hook unavailable", &content.Error{Kind: content.Unavailable, Code: "HOOK_UNAVAILABLE", Message: "hook x is not installed"}, 503, `{"error":{"code":"HOOK_UNAVAILABLE","message":"hook x is not installed"}}`},
		{"fields and details together", &content.Error{Kind: content.Invalid, Code: "INVALID_ENTRY_REFERENCE", Message: "bad refs",
			Fields: map[string][]string{"items[0].entry": {"no such entry"}}, Details: refs{References: []string{"blog/x"}}},
			422, `{"error":{"code":"INVALID_ENTRY_REFERENCE","details":{"fieldErrors":{"items[0].entry":["no such entry"]},"references":["blog/x"]},"fields":{"items[0].entry":["no such entry"]},"message":"bad refs","references":["blog/x"]}}`},
		{"transport error with details", &web.Error{Status: 413, Code: "PAYLOAD_TOO_LARGE", Message: "big", Details: content.LimitDetails{Limit: 9}},
			413, `{"error":{"code":"PAYLOAD_TOO_LARGE","details":{"limit":9},"limit":9,"message":"big"}}`},
		{"a fact never replaces the error's own members", &content.Error{Kind: content.Conflict, Message: "dup", Details: clash{Code: "X", Extra: 1}},
			409, `{"error":{"code":"CONFLICT","details":{"code":"X","extra":1},"extra":1,"message":"dup"}}`},
		{"facts that are not an object", &content.Error{Kind: content.Conflict, Message: "dup", Details: []int{1, 2}},
			409, `{"error":{"code":"CONFLICT","details":[1,2],"message":"dup"}}`},
		{"internal drops its facts", &content.Error{Kind: content.Internal, Message: "/secret", Details: content.LimitDetails{Limit: 9}},
			500, `{"error":{"code":"INTERNAL_ERROR","message":"An unexpected error occurred"}}`},
		{"facts that cannot be encoded are left out", &web.Error{Status: 409, Code: "CONFLICT", Message: "dup", Details: map[string]any{"bad": make(chan int)}},
			409, `{"error":{"code":"CONFLICT","message":"dup"}}`},
		{"empty message gets the status text", &content.Error{Kind: content.NotFound}, 404, `{"error":{"code":"NOT_FOUND","message":"Not Found"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := httptest.NewRecorder()
			web.WriteError(w, httptest.NewRequest("GET", "/", nil), tt.err)
			if w.Code != tt.wantStatus || strings.TrimSpace(w.Body.String()) != tt.wantBody {
				t.Errorf("got %d %s\nwant %d %s", w.Code, w.Body, tt.wantStatus, tt.wantBody)
			}
			if w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
				t.Errorf("content type = %q", w.Header().Get("Content-Type"))
			}
			if tt.wantStatus == 429 && w.Header().Get("Retry-After") != "7" {
				t.Error("Retry-After header not written")
			}
		})
	}
}

func TestClientGoneWritesNothing(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	web.WriteError(w, httptest.NewRequest("GET", "/", nil).WithContext(ctx), fmt.Errorf("read: %w", context.Canceled))
	if w.Body.Len() != 0 {
		t.Errorf("wrote %q for a gone client", w.Body)
	}
}

func TestRouter(t *testing.T) {
	t.Parallel()
	rt := web.NewRouter()
	ok := func(w http.ResponseWriter, r *http.Request) error {
		web.WriteJSON(w, 200, web.Data{Data: r.PathValue("id")})
		return nil
	}
	rt.HandleFunc("GET /api/things/{id}", ok)
	rt.HandleFunc("PUT /api/things/{id}", ok)
	rt.NotFound("/api/things/")
	tests := []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/api/things/7", 200, ""},
		{"HEAD", "/api/things/7", 200, ""},
		{"PUT", "/api/things/7", 200, ""},
		{"DELETE", "/api/things/7", 405, "GET, HEAD, PUT"},
		{"GET", "/api/things/7/extra", 404, ""},
	}
	for _, tt := range tests {
		w := webtest.Do(t, rt, webtest.Request{Method: tt.method, Path: tt.path})
		if w.Code != tt.status || w.Header().Get("Allow") != tt.allow {
			t.Errorf("%s %s = %d (Allow %q), want %d (Allow %q)", tt.method, tt.path, w.Code, w.Header().Get("Allow"), tt.status, tt.allow)
		}
		if tt.status >= 400 {
			webtest.DecodeError(t, w)
		}
	}
}

func TestDecodeJSON(t *testing.T) {
	t.Parallel()
	type body struct {
		Name string `json:"name"`
	}
	tests := []struct {
		name, ct, body string
		status         int
	}{
		{"ok", "application/json", `{"name":"x"}`, 200},
		{"malformed", "application/json", `{"name":`, 400},
		{"wrong type", "application/json", `{"name":5}`, 400},
		{"empty", "application/json", ``, 400},
		{"too large", "application/json", `{"name":"` + strings.Repeat("x", 2000) + `"}`, 413},
		{"not json", "text/plain", `{"name":"x"}`, 415},
	}
	for _, tt := range tests {
		h := web.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
			var b body
			if err := web.DecodeJSON(w, r, 1024, &b); err != nil {
				return err
			}
			web.WriteJSON(w, 200, b)
			return nil
		})
		w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/", Body: tt.body, Header: http.Header{"Content-Type": {tt.ct}}})
		if w.Code != tt.status {
			t.Errorf("%s: status %d, want %d: %s", tt.name, w.Code, tt.status, w.Body)
		}
	}
}

func TestSameOrigin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		method string
		url    string      // the request's own URL: https:// gives it a TLS connection
		header http.Header // Origin, Referer, X-Forwarded-Proto, Sec-Fetch-Site
		want   bool
	}{
		{"GET needs nothing", "GET", "http://example.com/api/x", nil, true},
		{"same origin", "POST", "http://example.com/api/x", http.Header{"Origin": {"http://example.com"}}, true},
		{"host case", "POST", "http://example.com/api/x", http.Header{"Origin": {"http://EXAMPLE.com"}}, true},
		{"other host", "POST", "http://example.com/api/x", http.Header{"Origin": {"https://evil.test"}}, false},
		{"same-origin Referer", "POST", "http://example.com/api/x", http.Header{"Referer": {"http://example.com/cp/entries"}}, true},
		{"cross-site Referer", "POST", "http://example.com/api/x", http.Header{"Referer": {"http://evil.test/x"}}, false},
		{"neither", "POST", "http://example.com/api/x", nil, false},
		{"null", "DELETE", "http://example.com/api/x", http.Header{"Origin": {"null"}}, false},
		{"null with a same-origin Referer", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"null"}, "Referer": {"http://example.com/cp/entries"}}, false},
		{"garbage", "POST", "http://example.com/api/x", http.Header{"Origin": {"example.com"}}, false},
		{"user info", "POST", "http://example.com/api/x", http.Header{"Referer": {"http://evil@example.com/"}}, false},

		// The scheme is part of the origin.
		{"https page to a plain server", "POST", "http://example.com/api/x", http.Header{"Origin": {"https://example.com"}}, false},
		{"http page to a TLS server", "POST", "https://example.com/api/x", http.Header{"Origin": {"http://example.com"}}, false},
		{"https to TLS", "POST", "https://example.com/api/x", http.Header{"Origin": {"https://example.com"}}, true},
		{"http Referer to TLS", "POST", "https://example.com/api/x", http.Header{"Referer": {"http://example.com/cp"}}, false},
		{"behind a TLS proxy", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"https://example.com"}, "X-Forwarded-Proto": {"https"}}, true},
		{"http page behind a TLS proxy", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"http://example.com"}, "X-Forwarded-Proto": {"https"}}, false},
		{"first proxy wins", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"http://example.com"}, "X-Forwarded-Proto": {"https, http"}}, false},

		// So is the port, with the scheme's default when it is left out.
		{"same port", "POST", "http://localhost:3000/api/x", http.Header{"Origin": {"http://localhost:3000"}}, true},
		{"other port", "POST", "http://localhost:3000/api/x", http.Header{"Origin": {"http://localhost:3001"}}, false},
		{"no port in Origin", "POST", "http://localhost:3000/api/x", http.Header{"Origin": {"http://localhost"}}, false},
		{"explicit default port", "POST", "http://example.com:80/api/x", http.Header{"Origin": {"http://example.com"}}, true},
		{"explicit 443", "POST", "https://example.com/api/x", http.Header{"Origin": {"https://example.com:443"}}, true},
		{"443 over plain http", "POST", "http://example.com/api/x", http.Header{"Origin": {"http://example.com:443"}}, false},
		{"IPv6", "POST", "http://[::1]:3000/api/x", http.Header{"Origin": {"http://[::1]:3000"}}, true},

		// A browser's Sec-Fetch-Site is authoritative when present.
		{"cross-site fetch with a matching Origin", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"http://example.com"}, "Sec-Fetch-Site": {"cross-site"}}, false},
		{"same-site fetch", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"http://example.com"}, "Sec-Fetch-Site": {"same-site"}}, false},
		{"same-origin fetch", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"http://example.com"}, "Sec-Fetch-Site": {"same-origin"}}, true},
		{"same-origin fetch through a proxy that hides the scheme", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"https://example.com"}, "Sec-Fetch-Site": {"same-origin"}}, true},
		{"same-origin fetch, other host", "POST", "http://example.com/api/x",
			http.Header{"Origin": {"https://evil.test"}, "Sec-Fetch-Site": {"same-origin"}}, false},
		{"same-origin fetch, scheme known to differ", "POST", "https://example.com/api/x",
			http.Header{"Origin": {"http://example.com"}, "Sec-Fetch-Site": {"same-origin"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(tt.method, tt.url, nil)
			for k, vs := range tt.header {
				r.Header[k] = vs
			}
			if got := web.SameOrigin(r); got != tt.want {
				t.Errorf("%s %s %v: %v, want %v", tt.method, tt.url, tt.header, got, tt.want)
			}
		})
	}
}

// JSON bodies must say so: a request without Content-Type, or with a type a cross-site form or
// a fetch without preflight can send, never reaches the decoder.
func TestDecodeJSONContentType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ct     []string // nil: no header
		status int
	}{
		{[]string{"application/json"}, 200},
		{[]string{"application/json; charset=utf-8"}, 200},
		{[]string{"Application/JSON"}, 200},
		{[]string{"application/merge-patch+json"}, 200},
		{nil, 415},
		{[]string{""}, 415},
		{[]string{"text/plain"}, 415},
		{[]string{"text/plain; charset=json"}, 415},
		{[]string{"multipart/form-data; boundary=json"}, 415},
		{[]string{"application/x-www-form-urlencoded"}, 415},
		{[]string{"application/jsonp"}, 415},
		{[]string{"application/json; ="}, 415},
	}
	h := web.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		var v map[string]any
		if err := web.DecodeJSON(w, r, 1024, &v); err != nil {
			return err
		}
		web.WriteJSON(w, 200, v)
		return nil
	})
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/", strings.NewReader(`{"name":"x"}`))
		if tt.ct != nil {
			r.Header["Content-Type"] = tt.ct
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status {
			t.Errorf("Content-Type %q: status %d, want %d: %s", tt.ct, w.Code, tt.status, w.Body)
			continue
		}
		if tt.status == 415 {
			if e := webtest.DecodeError(t, w); e.Error.Code != "UNSUPPORTED_MEDIA_TYPE" {
				t.Errorf("Content-Type %q: code %s", tt.ct, e.Error.Code)
			}
		}
	}
}

func TestClientAddress(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"192.0.2.1:1234":            "192.0.2.1",
		"[2001:db8:1:2:3::4]:80":    "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::9]:80": "2001:db8:1:2::/64",
		"[::ffff:192.0.2.7]:1":      "192.0.2.7",
		"not-an-address":            "not-an-address",
		"[fe80::1%eth0]:1":          "fe80::/64",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = addr
		r.Header.Set("X-Forwarded-For", "203.0.113.9") // not trusted
		if got := web.ClientAddress(r); got != want {
			t.Errorf("ClientAddress(%q) = %q, want %q", addr, got, want)
		}
	}
}

// IfMatch is the one reader of If-Match, for entries as for every other resource with an ETag.
func TestIfMatchAndNoneMatch(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		header, want string
		bad          bool
	}{
		{"", "", false},
		{"*", "", false},   // any version: no check
		{" * ", "", false}, // spaces around are not part of it
		{`"abc"`, "abc", false},
		{`W/"abc"`, "abc", false}, // a proxy that compresses weakens the ETag it passes on
		{` "abc" `, "abc", false},
		{"abc", "", true}, // a bare hash is not an ETag
		{`""`, "", true},
		{`W/`, "", true},
		{`"a","b"`, "", true}, // one version, not a list
		{`"a"b"`, "", true},
		{`"abc`, "", true},
	} {
		r := httptest.NewRequest("PUT", "/", nil)
		r.Header.Set("If-Match", tt.header)
		got, err := web.IfMatch(r)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("IfMatch(%q) = %q, %v", tt.header, got, err)
		}
		if we, ok := errors.AsType[*web.Error](err); tt.bad && (!ok || we.Status != http.StatusBadRequest) {
			t.Errorf("IfMatch(%q) error = %v, want a 400", tt.header, err)
		}
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("If-None-Match", `"x", W/"abc"`)
	if !web.NoneMatch(r, `"abc"`) || web.NoneMatch(r, `"zzz"`) {
		t.Error("NoneMatch does not match a listed ETag")
	}
}
