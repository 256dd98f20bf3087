package groups_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"cms/content/contenttest"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/serve"
	"cms/runtime/wire"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestAPITokenEndToEnd: a user creates a token over the CP API, a frontend then queries GraphQL
// with it (drafts included, as its role may view them), and the access log tells the token and
// the session apart by their public names, revealing neither secret.
func TestAPITokenEndToEnd(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- cms.config.yaml --
watch: none
-- resources/collections/blog.yaml --
title: Blog
-- content/collections/blog/draft.md --
---
title: Draft post
status: draft
---
-- resources/roles/boss.yaml --
permissions:
  - resource: tokens
    actions: [view, create, delete]
  - resource: entries
    actions: [view]
-- resources/roles/frontend.yaml --
permissions:
  - resource: entries
    actions: [view]
-- users/boss.yaml --
id: boss
email: boss@example.com
name: Boss
password_hash: scrypt:00:00
roles: [boss]
`)
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	s, err := wire.NewServices(t.Context(), cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	mux, err := groups.Mux(s)
	if err != nil {
		t.Fatal(err)
	}
	h := serve.Stack(mux, log)
	ss, err := wire.Sessions(s)
	if err != nil {
		t.Fatal(err)
	}
	session, _, err := ss.Create(t.Context(), "boss")
	if err != nil {
		t.Fatal(err)
	}
	do := func(method, path, bearer, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+bearer)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	w := do("POST", "/api/tokens", string(session), `{"name":"Frontend","role":"frontend"}`)
	var created struct{ Data struct{ ID, Token string } }
	if err := json.Unmarshal(w.Body.Bytes(), &created); w.Code != http.StatusCreated || err != nil {
		t.Fatalf("create = %d %s", w.Code, w.Body)
	}
	w = do("POST", "/api/graphql", created.Data.Token, `{"query":"{ blogs(status: \"all\") { title } }"}`)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "Draft post") {
		t.Fatalf("GraphQL with the token = %d %s", w.Code, w.Body)
	}
	// GraphQL answers an unauthenticated caller in its own error list.
	wrong := []byte(created.Data.Token)
	wrong[len(wrong)-1] ^= 1 // another hex digit
	if w := do("POST", "/api/graphql", string(wrong), `{"query":"{ blogs(status: \"all\") { title } }"}`); strings.Contains(w.Body.String(), "Draft post") || !strings.Contains(w.Body.String(), "UNAUTHENTICATED") {
		t.Errorf("GraphQL with a wrong token = %d %s", w.Code, w.Body)
	}
	out := logs.String()
	if !strings.Contains(out, "user=token:"+created.Data.ID) || !strings.Contains(out, "user=boss") {
		t.Errorf("the log does not tell the token from the session:\n%s", out)
	}
	for _, secret := range []string{created.Data.Token[len(created.Data.Token)-64:], string(session)} {
		if strings.Contains(out, secret) {
			t.Errorf("the log reveals a secret:\n%s", out)
		}
	}
}
