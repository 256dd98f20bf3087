package wire_test

import (
	"log/slog"
	"net/http/httptest"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/authn"
	"cms/runtime/config"
	"cms/runtime/wire"
)

// The authenticator every protected group gets is handlers/authn's, over the process's session
// store: production and the handler tests (webtest.NewAuth, authtest) run the same adapter.
func TestServicesAuthIsAuthn(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- cms.config.yaml --
watch: none
-- resources/roles/editor.yaml --
permissions:
  - resource: entries
    actions: [view]
-- users/ed.yaml --
id: ed
email: ed@example.com
name: Ed
roles: [editor]
`)
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, ok := s.Auth.(*authn.Authenticator); !ok {
		t.Fatalf("Services.Auth is a %T, want *authn.Authenticator", s.Auth)
	}
	st, err := wire.Sessions(s)
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := st.Create(t.Context(), "ed")
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/api/entries/blog", nil)
	r.Header.Set("Authorization", "Bearer "+string(tok))
	if p, err := s.Auth.Authenticate(r); err != nil || p.User.ID != "ed" || !p.Can("entries", "view", "blog") {
		t.Errorf("Authenticate = %+v, %v", p, err)
	}
}
