package authn_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/handlers/auth/authtest"
	"cms/handlers/authn"
)

func TestTokenFrom(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, auth, cookie string
		want               string
		viaCookie          bool
	}{
		{"bearer", "Bearer abc", "", "abc", false},
		{"bearer wins over cookie", "Bearer abc", "def", "abc", false},
		{"scheme is case-insensitive", "bearer abc", "", "abc", false},
		{"cookie", "", "def", "def", true},
		{"other scheme falls back to the cookie", "Basic xyz", "def", "def", true},
		{"empty bearer falls back to the cookie", "Bearer  ", "def", "def", true},
		{"nothing", "", "", "", false},
		{"empty cookie", "", "", "", false},
		{"scheme only", "Bearer", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("GET", "/", nil)
			if c.auth != "" {
				r.Header.Set("Authorization", c.auth)
			}
			if c.cookie != "" || c.name == "empty cookie" {
				r.AddCookie(&http.Cookie{Name: authn.CookieName, Value: c.cookie})
			}
			got, via := authn.TokenFrom(r)
			if got != c.want || via != c.viaCookie {
				t.Errorf("TokenFrom(%q, cookie %q) = %q, %v; want %q, %v", c.auth, c.cookie, got, via, c.want, c.viaCookie)
			}
		})
	}
}

func TestCookies(t *testing.T) {
	t.Parallel()
	exp := time.Date(2026, 6, 2, 12, 0, 0, 0, time.UTC)
	for _, secure := range []bool{false, true} {
		set := authn.SessionCookie("tok", exp, secure).String()
		clear := authn.ClearCookie(secure).String()
		for _, c := range []string{set, clear} {
			for _, attr := range []string{"cms_session=", "Path=/", "HttpOnly", "SameSite=Lax"} {
				if !strings.Contains(c, attr) {
					t.Errorf("%q lacks %s", c, attr)
				}
			}
			if strings.Contains(c, "Secure") != secure {
				t.Errorf("%q: Secure should be %v", c, secure)
			}
		}
		if !strings.Contains(set, "Expires=Tue, 02 Jun 2026 12:00:00 GMT") {
			t.Errorf("session cookie %q", set)
		}
		if !strings.Contains(clear, "Max-Age=0") || !strings.Contains(clear, "cms_session=;") {
			t.Errorf("clearing cookie %q", clear)
		}
	}
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	env := authtest.New(t, contenttest.WriteSite(t, "-- resources/roles/editor.yaml --\npermissions:\n  - resource: entries\n    actions: [view]\n"))
	env.AddUser(t, "ed", "editor")
	r := httptest.NewRequest("GET", "/", nil)
	r.AddCookie(&http.Cookie{Name: authn.CookieName, Value: env.Token(t, "ed")})
	p, err := env.Auth.Authenticate(r)
	if err != nil || p.User.ID != "ed" || !p.ViaCookie || !p.Can("entries", "view", "") {
		t.Fatalf("Authenticate = %+v, %v", p, err)
	}
	r = httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer "+env.ExpiredToken(t, "ed"))
	if _, err := env.Auth.Authenticate(r); content.KindOf(err) != content.Unauthenticated {
		t.Errorf("expired: %v", err)
	}
	if _, err := authn.NewAuthenticator(nil, nil, nil); err == nil {
		t.Error("NewAuthenticator accepted nils")
	}
}
