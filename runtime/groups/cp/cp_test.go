package cp_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content/contenttest"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/groups/cp"
	"cms/runtime/lambda/lambdamain"
	"cms/runtime/wire"
)

// services opens a small site with the given environment.
func services(t *testing.T, env map[string]string) *wire.Services {
	t.Helper()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\n")
	cfg, _, err := config.Load(dir, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func get(t *testing.T, h http.Handler, path string, cookie bool) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	if cookie {
		r.AddCookie(&http.Cookie{Name: "cms_session", Value: "x"})
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestEnabled(t *testing.T) {
	t.Parallel()
	s := services(t, map[string]string{"CMS_CP_PATH": "/admin"})
	h, err := groups.Mux(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path   string
		cookie bool
		want   int
	}{
		{"/admin", false, http.StatusTemporaryRedirect},
		{"/admin/entries/blog", false, http.StatusTemporaryRedirect},
		{"/admin", true, http.StatusOK},
		{"/admin/login", false, http.StatusOK},
		{"/admin/assets/app.js", false, http.StatusOK},
		{"/cp", true, http.StatusNotFound},
	} {
		if w := get(t, h, tt.path, tt.cookie); w.Code != tt.want {
			t.Errorf("GET %s (cookie %v) = %d, want %d", tt.path, tt.cookie, w.Code, tt.want)
		}
	}
	if w := get(t, h, "/admin", false); w.Header().Get("Location") != "/admin/login" {
		t.Errorf("Location = %q", w.Header().Get("Location"))
	}
}

// TestDisabled: cp.enabled false builds no handler, and the local mux then has nothing at /cp.
func TestDisabled(t *testing.T) {
	t.Parallel()
	s := services(t, map[string]string{"CMS_CP_ENABLED": "false"})
	h, err := cp.Build(s)
	if err != nil || h != nil {
		t.Fatalf("Build = %v, %v; want nil, nil", h, err)
	}
	mux, err := groups.Mux(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/cp", "/cp/", "/cp/login", "/cp/assets/app.js"} {
		if w := get(t, mux, p, true); w.Code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, w.Code)
		}
	}
}

// TestBadPath: a cp.path the handler cannot mount fails at start-up, naming the problem.
func TestBadPath(t *testing.T) {
	t.Parallel()
	s := services(t, map[string]string{"CMS_CP_PATH": "/api/cp"})
	if _, err := cp.Build(s); err == nil {
		t.Error("cp.path /api/cp accepted")
	}
}

func TestGroup(t *testing.T) {
	t.Parallel()
	g := cp.Group()
	if g.Name != "cp" || g.Writer || g.Appends {
		t.Errorf("group %+v: want cp, neither writer nor appender", g)
	}
	if p := g.Prefixes(config.Default()); len(p) != 2 || p[0] != "/cp" || p[1] != "/cp/" {
		t.Errorf("Prefixes = %v", p)
	}
}

// TestReadOnlyServer: a server whose site folder is not writable switches cp.enabled off (spec
// rule 4), so the CP is not mounted; on Lambda the runner keeps the deployment's setting instead
// (TestLambda).
func TestReadOnlyServer(t *testing.T) {
	t.Parallel()
	s := services(t, map[string]string{"CMS_CP_ENABLED": "true"})
	c := s.Config
	wire.ApplyReadOnly(&c)
	s.Config = c
	if h, err := cp.Build(s); err != nil || h != nil {
		t.Errorf("read-only server: Build = %v, %v; want no CP", h, err)
	}
}

// TestLambda builds the group as its Lambda function does (a read-only frontend, with the
// template's environment) and serves the sign-in page and the redirect.
func TestLambda(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\n")
	env := map[string]string{"CMS_SITE_DIR": dir, "CMS_WATCH": "none", "CMS_CP_ENABLED": "true", "CMS_LOG_LEVEL": "error"}
	h, _, err := lambdamain.Build(t.Context(), cp.Group(), func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if w := get(t, h, "/cp/login", false); w.Code != http.StatusOK {
		t.Errorf("GET /cp/login = %d", w.Code)
	}
	if w := get(t, h, "/cp", false); w.Code != http.StatusTemporaryRedirect || w.Header().Get("Location") != "/cp/login" {
		t.Errorf("GET /cp = %d to %q", w.Code, w.Header().Get("Location"))
	}
}
