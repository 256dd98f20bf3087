package forms_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/hooks/hooktest"
	"cms/runtime/config"
	"cms/runtime/groups/forms"
	"cms/runtime/groups/hooks"
	"cms/runtime/hookhost"
	"cms/runtime/wire"
)

const site = `
-- cms.config.yaml --
watch: none
forms:
  rateLimit: 1
sites:
  - url: https://www.example.com
-- resources/forms/contact.yaml --
blueprint: contact
-- resources/blueprints/forms/contact.yaml --
fields:
  - handle: email
    field: {type: text, required: true, validate: [email, 'hook:gate']}
-- resources/forms/broken.yaml --
blueprint: broken
-- resources/blueprints/forms/broken.yaml --
fields:
  - handle: file
    field: {type: asset, required: true}
-- resources/forms/orphan.yaml --
blueprint: nothing
`

func TestWiring(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	cfg, _, err := config.Load(dir, func(k string) string {
		if k == "CMS_HOOKS_CACHE_DIR" {
			return t.TempDir()
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h, err := wire.Mount(s, forms.Group(), hooks.Group())
	if err != nil {
		t.Fatal(err)
	}
	// The start-up log names every form that cannot take submissions.
	for _, want := range []string{"broken.yaml", "orphan.yaml", "validation hook(s) gate not installed"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("start-up log lacks %q:\n%s", want, logged.String())
		}
	}
	submit := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/api/forms/contact/submit", strings.NewReader(`{"email":"ada@example.com"}`))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := submit(); w.Code != http.StatusServiceUnavailable {
		t.Errorf("hook not installed: %d %s", w.Code, w.Body.String())
	}
	// Hooks installed later are used by the shared runner; the configured limit applies.
	hooktest.Install(t, s.Store, "gate", hooktest.Answer(hooktest.Valid))
	if w := submit(); w.Code != http.StatusTooManyRequests {
		t.Errorf("second submission in a minute with forms.rateLimit 1: %d %s", w.Code, w.Body.String())
	}
	h1, _ := hookhost.Host(s)
	h2, _ := hookhost.Host(s)
	if h1 == nil || h1 != h2 {
		t.Errorf("the hook host is not shared")
	}
	for _, p := range []string{"/api/hooks", "/api/forms/contact/submissions"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, p, nil))
		if w.Code != http.StatusUnauthorized {
			t.Errorf("GET %s without a session: %d", p, w.Code)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/forms", nil))
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"handle":"contact"`) {
		t.Errorf("GET /api/forms: %d %s", w.Code, w.Body.String())
	}
}
