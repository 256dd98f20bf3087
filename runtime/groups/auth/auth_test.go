package auth_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/auth/authtest"
	"cms/runtime/config"
	"cms/runtime/groups/auth"
	"cms/runtime/groups/users"
	"cms/runtime/wire"
)

const site = `
-- cms.config.yaml --
watch: none
auth:
  storeConfig:
    sessionsDir: var/sessions
-- resources/roles/admin.yaml --
permissions:
  - resource: users
    actions: [view, create, edit, delete]
-- users/root.yaml --
id: root
email: root@example.com
name: Root
roles: [admin]
password_hash: ` + authtest.PasswordHash + `
`

func services(t *testing.T, env map[string]string, mod func(*config.Config)) (*wire.Services, string, error) {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	cfg, _, err := config.Load(dir, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if mod != nil {
		mod(&cfg)
	}
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, dir, err
}

// Login through the wired groups in production: the cookie is Secure, the session file lands in
// the configured folder (0700), and the token works on another group through Services.Auth.
func TestWiringProduction(t *testing.T) {
	t.Parallel()
	s, dir, err := services(t, map[string]string{"NODE_ENV": "production"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := wire.Mount(s, auth.Group(), users.Group())
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("POST", "/api/auth/login", strings.NewReader(`{"email":"root@example.com","password":"`+authtest.Password+`"}`))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	set := w.Header().Get("Set-Cookie")
	for _, attr := range []string{"cms_session=", "HttpOnly", "Secure", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(set, attr) {
			t.Errorf("Set-Cookie %q lacks %s", set, attr)
		}
	}
	ents, err := os.ReadDir(filepath.Join(dir, "var/sessions"))
	if err != nil || len(ents) != 1 {
		t.Fatalf("sessions folder: %v, %d files", err, len(ents))
	}
	if fi, _ := os.Stat(filepath.Join(dir, "var/sessions")); fi.Mode().Perm() != 0o700 {
		t.Errorf("sessions folder mode %v", fi.Mode().Perm())
	}
	var c *http.Cookie
	for _, ck := range w.Result().Cookies() {
		c = ck
	}
	r = httptest.NewRequest("GET", "/api/users/me", nil)
	r.AddCookie(c)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"id":"root"`) {
		t.Errorf("me with the cookie: %d %s", w.Code, w.Body)
	}
	// Every group sees the same sessions: Services.Auth validates the token.
	r = httptest.NewRequest("GET", "/", nil)
	r.AddCookie(c)
	if p, err := s.Auth.Authenticate(r); err != nil || p.User.ID != "root" {
		t.Errorf("Services.Auth: %+v, %v", p, err)
	}
	st1, _ := wire.Sessions(s)
	st2, _ := wire.Sessions(s)
	if st1 != st2 {
		t.Error("the session store is built more than once")
	}
}

func TestUnknownContractNames(t *testing.T) {
	t.Parallel()
	cases := map[string]func(*config.Config){
		"store":    func(c *config.Config) { c.Auth.Store = "redis" },
		"driver":   func(c *config.Config) { c.Auth.Driver = "ldap" },
		"provider": func(c *config.Config) { c.Auth.Provider = "sql" },
	}
	for name, mod := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, _, err := services(t, nil, mod)
			if err == nil {
				// The driver is only needed by the groups that check passwords.
				_, err = auth.Build(s)
			}
			if err == nil || !strings.Contains(err.Error(), "auth."+name) {
				t.Errorf("err = %v, want one naming auth.%s", err, name)
			}
		})
	}
	// config.Load refuses the names before any of this runs.
	dir := contenttest.WriteSite(t, site)
	if _, _, err := config.Load(dir, func(k string) string {
		if k == "CMS_AUTH_STORE" {
			return "redis"
		}
		return ""
	}); err == nil || !strings.Contains(err.Error(), "auth.store") {
		t.Errorf("config.Load = %v", err)
	}
}
