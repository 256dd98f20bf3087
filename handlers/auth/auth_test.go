package auth_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/sessions"
	"cms/handlers/auth"
	"cms/handlers/auth/authtest"
	"cms/handlers/authn"
	"cms/handlers/web"
	"cms/handlers/web/webtest"
)

const site = `
-- resources/roles/admin.yaml --
handle: admin
display: Administrator
permissions:
  - resource: users
    actions: [view, create, edit, delete]
-- resources/roles/viewer.yaml --
handle: viewer
display: Viewer
permissions:
  - resource: entries
    actions: [view]
`

func newEnv(t *testing.T) *authtest.Env {
	t.Helper()
	env := authtest.New(t, contenttest.WriteSite(t, site))
	env.AddUser(t, "alice", "admin")
	env.AddUser(t, "bob", "viewer")
	return env
}

func login(email, password string) webtest.Request {
	return webtest.Request{Method: http.MethodPost, Path: "/api/auth/login",
		Body: map[string]string{"email": email, "password": password}}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, nil)
	cases := []struct {
		name       string
		req        webtest.Request
		wantStatus int
		wantCode   string
		wantFields []string
	}{
		{name: "success", req: login("alice@example.com", authtest.Password), wantStatus: 200},
		{name: "email is trimmed and case-insensitive", req: login("  Alice@Example.COM ", authtest.Password), wantStatus: 200},
		{name: "missing password", req: webtest.Request{Method: "POST", Path: "/api/auth/login", Body: `{"email":"alice@example.com"}`},
			wantStatus: 422, wantCode: "VALIDATION_ERROR", wantFields: []string{"password"}},
		{name: "blank email", req: login("  ", "x"), wantStatus: 422, wantCode: "VALIDATION_ERROR", wantFields: []string{"email"}},
		{name: "numbers", req: webtest.Request{Method: "POST", Path: "/api/auth/login", Body: `{"email":1,"password":2}`},
			wantStatus: 422, wantCode: "VALIDATION_ERROR", wantFields: []string{"email", "password"}},
		{name: "array body", req: webtest.Request{Method: "POST", Path: "/api/auth/login", Body: `[]`},
			wantStatus: 422, wantCode: "VALIDATION_ERROR", wantFields: []string{"email", "password"}},
		{name: "malformed JSON", req: webtest.Request{Method: "POST", Path: "/api/auth/login", Body: `{"email":`},
			wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "empty body", req: webtest.Request{Method: "POST", Path: "/api/auth/login", Body: ``},
			wantStatus: 400, wantCode: "BAD_REQUEST"},
		{name: "form body", req: webtest.Request{Method: "POST", Path: "/api/auth/login", Body: "email=a",
			Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}}, wantStatus: 415, wantCode: "UNSUPPORTED_MEDIA_TYPE"},
		{name: "huge body", req: webtest.Request{Method: "POST", Path: "/api/auth/login", Body: `{"email":"` + strings.Repeat("a", 20<<10) + `"}`},
			wantStatus: 413, wantCode: "PAYLOAD_TOO_LARGE"},
		{name: "GET login", req: webtest.Request{Path: "/api/auth/login"}, wantStatus: 405, wantCode: "METHOD_NOT_ALLOWED"},
		{name: "unknown route", req: webtest.Request{Path: "/api/auth/whoami"}, wantStatus: 404, wantCode: "NOT_FOUND"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := webtest.Do(t, h, c.req)
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body.String())
			}
			if strings.Contains(w.Body.String(), "scrypt") || strings.Contains(w.Body.String(), "password_hash") {
				t.Errorf("response leaks the password hash: %s", w.Body.String())
			}
			if c.wantStatus != 200 {
				e := webtest.DecodeError(t, w)
				if e.Error.Code != c.wantCode {
					t.Errorf("code = %s, want %s", e.Error.Code, c.wantCode)
				}
				for _, f := range c.wantFields {
					if len(e.Error.Fields[f]) == 0 {
						t.Errorf("no field error for %s: %s", f, w.Body.String())
					}
				}
				if len(w.Result().Cookies()) != 0 {
					t.Errorf("failed login set a cookie")
				}
				return
			}
			var resp struct {
				Token     string         `json:"token"`
				ExpiresAt string         `json:"expiresAt"`
				User      map[string]any `json:"user"`
			}
			webtest.DecodeJSON(t, w, &resp)
			if len(resp.Token) != 64 {
				t.Errorf("token = %q", resp.Token)
			}
			if want := env.Clock.Now().Add(authtest.SessionDuration).Format(sessions.TimeFormat); resp.ExpiresAt != want {
				t.Errorf("expiresAt = %s, want %s", resp.ExpiresAt, want)
			}
			if resp.User["id"] != "alice" || resp.User["email"] != "alice@example.com" || resp.User["lastLogin"] == nil {
				t.Errorf("user = %v", resp.User)
			}
			if got := w.Header().Get("Cache-Control"); got != "no-store" {
				t.Errorf("Cache-Control = %q", got)
			}
			ck := sessionCookie(t, w)
			if ck.Value != resp.Token || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" || ck.Secure {
				t.Errorf("cookie = %+v; want HttpOnly, SameSite=Lax, Path=/, not Secure in development", ck)
			}
			if !ck.Expires.Equal(env.Clock.Now().Add(authtest.SessionDuration)) {
				t.Errorf("cookie expires %v", ck.Expires)
			}
			// The token works as a Bearer token and as the cookie.
			if w := webtest.Do(t, h, webtest.Request{Path: "/api/auth/validate", Token: resp.Token}); w.Code != 200 {
				t.Errorf("bearer validate = %d", w.Code)
			}
			if w := webtest.Do(t, h, webtest.Request{Path: "/api/auth/validate", Cookies: []*http.Cookie{ck}}); w.Code != 200 {
				t.Errorf("cookie validate = %d", w.Code)
			}
		})
	}
}

func sessionCookie(t *testing.T, w *httptest.ResponseRecorder) *http.Cookie {
	t.Helper()
	for _, c := range w.Result().Cookies() {
		if c.Name == authn.CookieName {
			return c
		}
	}
	t.Fatalf("no %s cookie in %v", authn.CookieName, w.Header()["Set-Cookie"])
	return nil
}

// The login body must be declared as JSON: without a Content-Type, or with one a cross-site form
// can send, the request is refused before any password is checked.
func TestLoginContentType(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, limited(env, auth.Limits{}))
	body := `{"email":"alice@example.com","password":"` + authtest.Password + `"}`
	for _, c := range []struct {
		ct   []string // nil: no header
		want int
	}{
		{[]string{"application/json"}, 200},
		{[]string{"application/json; charset=utf-8"}, 200},
		{nil, 415},
		{[]string{""}, 415},
		{[]string{"text/plain"}, 415},
		{[]string{"text/plain; charset=json"}, 415},
		{[]string{"application/x-www-form-urlencoded"}, 415},
		{[]string{"multipart/form-data; boundary=json"}, 415},
	} {
		r := httptest.NewRequest("POST", "/api/auth/login", strings.NewReader(body))
		if c.ct != nil {
			r.Header["Content-Type"] = c.ct
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("Content-Type %q: status %d, want %d: %s", c.ct, w.Code, c.want, w.Body)
			continue
		}
		if c.want == 415 {
			if e := webtest.DecodeError(t, w); e.Error.Code != "UNSUPPORTED_MEDIA_TYPE" {
				t.Errorf("Content-Type %q: code %s", c.ct, e.Error.Code)
			}
			if len(w.Result().Cookies()) != 0 {
				t.Errorf("Content-Type %q: refused login set a cookie", c.ct)
			}
		}
	}
}

// Unknown email and wrong password give byte-identical answers (and run the same scrypt work;
// see BenchmarkLogin for the times).
func TestLoginFailuresIndistinguishable(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, nil)
	a := webtest.Do(t, h, login("alice@example.com", "not the password"))
	b := webtest.Do(t, h, login("nobody@example.com", "not the password"))
	if a.Code != 401 || a.Body.String() != b.Body.String() || a.Code != b.Code {
		t.Errorf("wrong password: %d %s\nunknown email: %d %s", a.Code, a.Body, b.Code, b.Body)
	}
	if want := `{"error":{"code":"AUTHENTICATION_ERROR","message":"Invalid credentials"}}`; a.Body.String() != want {
		t.Errorf("body = %s, want %s", a.Body, want)
	}
}

func TestCookieFlagsProduction(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, func(d *auth.Deps) { d.SecureCookies = true })
	w := webtest.Do(t, h, login("alice@example.com", authtest.Password))
	ck := sessionCookie(t, w)
	if !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != "/" {
		t.Errorf("cookie = %+v, want Secure, HttpOnly, SameSite=Lax, Path=/", ck)
	}
	raw := w.Header().Get("Set-Cookie")
	for _, attr := range []string{"HttpOnly", "Secure", "SameSite=Lax", "Path=/", "Expires="} {
		if !strings.Contains(raw, attr) {
			t.Errorf("Set-Cookie %q lacks %s", raw, attr)
		}
	}
	lo := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/auth/logout", Token: ck.Value})
	if c := sessionCookie(t, lo); !c.Secure || c.MaxAge >= 0 || c.Value != "" {
		t.Errorf("clearing cookie = %+v", c)
	}
}

func TestLogout(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	h := env.Handler(t, nil)
	sameOrigin := http.Header{"Origin": {"http://example.com"}}
	crossOrigin := http.Header{"Origin": {"https://evil.example"}}
	cases := []struct {
		name       string
		req        func(tok string) webtest.Request
		wantStatus int
		wantCode   string
	}{
		{"bearer", func(tok string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Token: tok}
		}, 200, ""},
		{"bearer cross-origin is exempt", func(tok string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Token: tok, Header: crossOrigin}
		}, 200, ""},
		{"cookie same origin", func(tok string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Header: sameOrigin, Cookies: []*http.Cookie{{Name: authn.CookieName, Value: tok}}}
		}, 200, ""},
		{"cookie same origin by Referer", func(tok string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Header: http.Header{"Referer": {"http://example.com/cp/entries"}}, Cookies: []*http.Cookie{{Name: authn.CookieName, Value: tok}}}
		}, 200, ""},
		{"cookie cross-origin", func(tok string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Header: crossOrigin, Cookies: []*http.Cookie{{Name: authn.CookieName, Value: tok}}}
		}, 403, "CSRF_REJECTED"},
		{"cookie, Origin null with a same-origin Referer", func(tok string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Header: http.Header{"Origin": {"null"}, "Referer": {"http://example.com/cp/entries"}},
				Cookies: []*http.Cookie{{Name: authn.CookieName, Value: tok}}}
		}, 403, "CSRF_REJECTED"},
		{"cookie, https Origin to a plain http server", func(tok string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Header: http.Header{"Origin": {"https://example.com"}}, Cookies: []*http.Cookie{{Name: authn.CookieName, Value: tok}}}
		}, 403, "CSRF_REJECTED"},
		{"cookie without Origin or Referer", func(tok string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Cookies: []*http.Cookie{{Name: authn.CookieName, Value: tok}}}
		}, 403, "CSRF_REJECTED"},
		{"no token", func(string) webtest.Request { return webtest.Request{Method: "POST", Path: "/api/auth/logout"} }, 401, "AUTHENTICATION_ERROR"},
		{"invalid token", func(string) webtest.Request {
			return webtest.Request{Method: "POST", Path: "/api/auth/logout", Token: strings.Repeat("0", 64)}
		}, 401, "AUTHENTICATION_ERROR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tok := env.Token(t, "bob")
			w := webtest.Do(t, h, c.req(tok))
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			still := webtest.Do(t, h, webtest.Request{Path: "/api/auth/validate", Token: tok}).Code
			file := filepath.Join(env.Dir, ".sessions", sessions.HashToken(tok)+".json")
			_, statErr := os.Stat(file)
			if c.wantStatus != 200 {
				if e := webtest.DecodeError(t, w); e.Error.Code != c.wantCode {
					t.Errorf("code = %s, want %s", e.Error.Code, c.wantCode)
				}
				if still != 200 || statErr != nil {
					t.Errorf("refused logout ended the session (validate %d, file %v)", still, statErr)
				}
				return
			}
			if w.Body.String() != `{"success":true}` {
				t.Errorf("body = %s", w.Body)
			}
			if c := sessionCookie(t, w); c.Value != "" || c.MaxAge >= 0 {
				t.Errorf("cookie not cleared: %+v", c)
			}
			if still != 401 || statErr == nil {
				t.Errorf("session survives logout (validate %d, file err %v)", still, statErr)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.AddUser(t, "gone", "viewer")
	h := env.Handler(t, nil)
	goneTok := env.Token(t, "gone")
	if err := env.Store.DeleteUser("gone"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		req         webtest.Request
		wantStatus  int
		wantMessage string
	}{
		{"bearer", webtest.Request{Path: "/api/auth/validate", Token: env.Token(t, "bob")}, 200, ""},
		{"cookie", webtest.Request{Path: "/api/auth/validate", Cookies: []*http.Cookie{{Name: authn.CookieName, Value: env.Token(t, "bob")}}}, 200, ""},
		{"lower-case bearer scheme", webtest.Request{Path: "/api/auth/validate", Header: http.Header{"Authorization": {"bearer " + env.Token(t, "bob")}}}, 200, ""},
		{"no token", webtest.Request{Path: "/api/auth/validate"}, 401, "No token"},
		{"basic auth is no token", webtest.Request{Path: "/api/auth/validate", Header: http.Header{"Authorization": {"Basic YTpi"}}}, 401, "No token"},
		{"invalid", webtest.Request{Path: "/api/auth/validate", Token: "not-a-token"}, 401, "Invalid session"},
		{"unknown", webtest.Request{Path: "/api/auth/validate", Token: strings.Repeat("ab", 32)}, 401, "Invalid session"},
		{"expired", webtest.Request{Path: "/api/auth/validate", Token: env.ExpiredToken(t, "bob")}, 401, "Invalid session"},
		{"deleted user", webtest.Request{Path: "/api/auth/validate", Token: goneTok}, 401, "Invalid session"},
		{"POST", webtest.Request{Method: "POST", Path: "/api/auth/validate"}, 405, "Method not allowed; use GET, HEAD"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := webtest.Do(t, h, c.req)
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantStatus == 200 {
				if w.Body.String() != `{"valid":true,"userId":"bob"}` {
					t.Errorf("body = %s", w.Body)
				}
				return
			}
			if e := webtest.DecodeError(t, w); e.Error.Message != c.wantMessage {
				t.Errorf("message = %q, want %q", e.Error.Message, c.wantMessage)
			}
		})
	}
}

// The Authenticator prefers the Bearer token, marks cookie sessions and loads the user's roles.
func TestAuthenticator(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	alice, bob := env.Token(t, "alice"), env.Token(t, "bob")
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer "+alice)
	r.AddCookie(&http.Cookie{Name: authn.CookieName, Value: bob})
	p, err := env.Auth.Authenticate(r)
	if err != nil {
		t.Fatal(err)
	}
	if p.User.ID != "alice" || p.ViaCookie || !p.Can("users", "delete", "") || p.Can("entries", "view", "") {
		t.Errorf("principal = %+v", p)
	}
	if p.SessionID != sessions.HashToken(alice) || p.SessionID == alice {
		t.Errorf("SessionID = %q, want the token's hash", p.SessionID)
	}
	r = httptest.NewRequest("GET", "/", nil)
	r.AddCookie(&http.Cookie{Name: authn.CookieName, Value: bob})
	if p, err = env.Auth.Authenticate(r); err != nil || p.User.ID != "bob" || !p.ViaCookie || !p.Can("entries", "view", "blog") {
		t.Errorf("cookie principal = %+v, %v", p, err)
	}
	// A role file that disappears simply grants nothing.
	if err := env.Store.DeleteRole("viewer"); err != nil {
		t.Fatal(err)
	}
	if p, err = env.Auth.Authenticate(r); err != nil || p.Can("entries", "view", "") {
		t.Errorf("deleted role still grants: %+v, %v", p, err)
	}
	if _, err := web.Require(env.Auth, httptest.NewRequest("GET", "/", nil), "users", "view", ""); err == nil {
		t.Error("anonymous request passed Require")
	}
}

func TestNewChecksDeps(t *testing.T) {
	t.Parallel()
	if _, err := auth.New(auth.Deps{}); err == nil {
		t.Error("New accepted empty Deps")
	}
	if _, err := authn.NewAuthenticator(nil, nil, nil); err == nil {
		t.Error("NewAuthenticator accepted nils")
	}
}
