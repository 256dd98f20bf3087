package health_test

import (
	"net/http"
	"strings"
	"testing"

	"cms/handlers/health"
	"cms/handlers/web/webtest"
)

// GET / answers a small HTML page that links the Control Panel and the APIs, until the public
// website exists; what is switched off is not linked.
func TestHome(t *testing.T) {
	t.Parallel()
	folders := []health.Folder{{Name: "content", Path: t.TempDir()}}
	cases := []struct {
		name      string
		home      health.Home
		want, not []string
	}{
		{"everything on", health.Home{CPPath: "/cp", PublicPath: "/api/public", GraphQLPath: "/api/graphql"},
			[]string{`href="/cp"`, `/api/public/entries/{collection}`, `/api/graphql`, `href="/api/health/ready"`}, nil},
		{"no CP, no GraphQL", health.Home{PublicPath: "/api/public"},
			[]string{`/api/public/entries/{collection}`, "Control Panel is off"}, []string{`href="/cp"`, "/api/graphql"}},
		{"base path", health.Home{CPPath: "/admin", PublicPath: "/content", GraphQLPath: "/api/graphql", BasePath: "/cms"},
			[]string{`href="/cms/admin"`, `/cms/content/entries/{collection}`, `href="/cms/api/health/ready"`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, err := health.New(health.Deps{Folders: folders, Home: &c.home})
			if err != nil {
				t.Fatal(err)
			}
			w := webtest.Do(t, h, webtest.Request{Path: "/"})
			body := w.Body.String()
			if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
				t.Fatalf("GET / = %d %s\n%s", w.Code, w.Header().Get("Content-Type"), body)
			}
			if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("Content-Security-Policy = %q", csp)
			}
			for _, s := range c.want {
				if !strings.Contains(body, s) {
					t.Errorf("page does not contain %q:\n%s", s, body)
				}
			}
			for _, s := range c.not {
				if strings.Contains(body, s) {
					t.Errorf("page contains %q:\n%s", s, body)
				}
			}
		})
	}
	h, err := health.New(health.Deps{Folders: folders, Home: &health.Home{PublicPath: "/api/public"}})
	if err != nil {
		t.Fatal(err)
	}
	if w := webtest.Do(t, h, webtest.Request{Method: http.MethodPost, Path: "/"}); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST / = %d, want 405", w.Code)
	}
}
