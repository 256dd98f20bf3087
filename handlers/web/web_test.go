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
		method, origin, referer string
		want                    bool
	}{
		{"GET", "", "", true},
		{"POST", "http://example.com", "", true},
		{"POST", "https://evil.test", "", false},
		{"POST", "", "http://example.com/cp/entries", true},
		{"POST", "", "http://evil.test/x", false},
		{"POST", "", "", false},
		{"DELETE", "null", "", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(tt.method, "http://example.com/api/x", nil)
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		if tt.referer != "" {
			r.Header.Set("Referer", tt.referer)
		}
		if got := web.SameOrigin(r); got != tt.want {
			t.Errorf("%s origin=%q referer=%q: %v, want %v", tt.method, tt.origin, tt.referer, got, tt.want)
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

func TestIfMatchAndNoneMatch(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		header, want string
		bad          bool
	}{{"", "", false}, {"*", "", false}, {`"abc"`, "abc", false}, {`W/"abc"`, "abc", false}, {"abc", "", true}, {`"a","b"`, "", true}} {
		r := httptest.NewRequest("PUT", "/", nil)
		r.Header.Set("If-Match", tt.header)
		got, err := web.IfMatch(r)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("IfMatch(%q) = %q, %v", tt.header, got, err)
		}
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("If-None-Match", `"x", W/"abc"`)
	if !web.NoneMatch(r, `"abc"`) || web.NoneMatch(r, `"zzz"`) {
		t.Error("NoneMatch does not match a listed ETag")
	}
}
