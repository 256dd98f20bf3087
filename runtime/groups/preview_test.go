package groups_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/runtime/groups"
	"cms/runtime/wire"
)

// TestDraftPreview: an editor (or an API token with edit permission) gets a preview token for
// one entry; the public API shows that entry's current draft for that token only, marked
// noindex and never cached, until the token expires.
func TestDraftPreview(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- cms.config.yaml --
watch: none
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- content/collections/blog/plan.md --
---
title: Secret plan
status: draft
---
The draft body.
-- content/collections/blog/other.md --
---
title: Other draft
status: draft
---
-- resources/roles/editor.yaml --
permissions:
  - resource: entries
    actions: [view, edit]
  - resource: tokens
    actions: [create]
-- resources/roles/viewer.yaml --
permissions:
  - resource: entries
    actions: [view]
-- users/ed.yaml --
id: ed
email: ed@example.com
name: Ed
password_hash: scrypt:00:00
roles: [editor]
-- users/vi.yaml --
id: vi
email: vi@example.com
name: Vi
password_hash: scrypt:00:00
roles: [viewer]
`)
	s := startServices(t, dir, nil, nil)
	var offset atomic.Int64
	s.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) } // the previews' clock
	h, err := groups.Mux(s)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := wire.Sessions(s)
	if err != nil {
		t.Fatal(err)
	}
	session := func(user string) string {
		tok, _, err := ss.Create(t.Context(), user)
		if err != nil {
			t.Fatal(err)
		}
		return string(tok)
	}
	do := func(method, path, bearer, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if bearer != "" {
			r.Header.Set("Authorization", "Bearer "+bearer)
		}
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	type previewResp struct {
		Data struct {
			Token, URL, Path, ExpiresAt string
			APIURL                      string `json:"apiUrl"`
		}
	}
	ed := session("ed")
	w := do("POST", "/api/entries/blog/plan/preview", ed, "")
	var pr previewResp
	if err := json.Unmarshal(w.Body.Bytes(), &pr); w.Code != http.StatusOK || err != nil || pr.Data.Token == "" {
		t.Fatalf("preview = %d %s", w.Code, w.Body)
	}
	site := s.Config.ContentSites()[0].URL
	if !strings.HasPrefix(pr.Data.APIURL, "/api/public/entries/blog/plan?preview=") || !strings.HasPrefix(pr.Data.Path, "/blog/plan?preview=") ||
		pr.Data.URL != site+pr.Data.Path {
		t.Errorf("preview URLs %+v", pr.Data)
	}

	// The website renders the draft at the page's URL for the token, noindex and never cached.
	w = do("GET", pr.Data.Path, "", "")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "The draft body.") || !strings.Contains(w.Body.String(), `<meta name="robots" content="noindex">`) {
		t.Fatalf("draft page with its token = %d %s", w.Code, w.Body)
	}
	if w.Header().Get("X-Robots-Tag") != "noindex" || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("preview page headers %q", w.Header())
	}
	if w := do("GET", "/blog/plan", "", ""); w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "The draft body.") {
		t.Errorf("draft page without a token = %d", w.Code)
	}

	// Without the token the draft does not exist; with it, it is shown, never cached or indexed.
	if w := do("GET", "/api/public/entries/blog/plan", "", ""); w.Code != http.StatusNotFound {
		t.Errorf("draft without a token = %d", w.Code)
	}
	w = do("GET", pr.Data.APIURL, "", "")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "The draft body.") || !strings.Contains(w.Body.String(), `"status":"draft"`) {
		t.Fatalf("draft with its token = %d %s", w.Code, w.Body)
	}
	if w.Header().Get("X-Robots-Tag") != "noindex" || w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("ETag") != "" {
		t.Errorf("preview headers %q", w.Header())
	}
	// Never another entry.
	if w := do("GET", strings.Replace(pr.Data.APIURL, "/plan?", "/other?", 1), "", ""); w.Code != http.StatusUnauthorized || strings.Contains(w.Body.String(), "Other draft") {
		t.Errorf("another entry with the token = %d %s", w.Code, w.Body)
	}
	if w := do("GET", "/api/public/entries/blog/plan?preview=v1.1.AAAA", "", ""); w.Code != http.StatusUnauthorized || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("a forged token = %d %q", w.Code, w.Header())
	}

	// Whoever may only view cannot issue previews; an API token with edit permission can.
	if w := do("POST", "/api/entries/blog/plan/preview", session("vi"), ""); w.Code != http.StatusForbidden {
		t.Errorf("viewer asking for a preview = %d, want 403", w.Code)
	}
	w = do("POST", "/api/tokens", ed, `{"name":"Preview bot","role":"editor"}`)
	var created struct{ Data struct{ Token string } }
	if err := json.Unmarshal(w.Body.Bytes(), &created); w.Code != http.StatusCreated || err != nil {
		t.Fatalf("create token = %d %s", w.Code, w.Body)
	}
	if w := do("POST", "/api/entries/blog/other/preview", created.Data.Token, ""); w.Code != http.StatusOK {
		t.Errorf("API token asking for a preview = %d %s", w.Code, w.Body)
	}

	// Expiry.
	offset.Store(int64(2 * time.Hour))
	if w := do("GET", pr.Data.APIURL, "", ""); w.Code != http.StatusUnauthorized {
		t.Errorf("expired preview = %d, want 401", w.Code)
	}
	if w := do("GET", pr.Data.Path, "", ""); w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "The draft body.") {
		t.Errorf("expired preview page = %d, want 404", w.Code)
	}
}
