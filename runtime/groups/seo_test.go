package groups_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/password"
	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/wire"
)

// TestPublicEntrySEOWired: the public API of the assembled service carries the seo object with
// canonical URLs on the configured site, and seo.enabled false drops it.
func TestPublicEntrySEOWired(t *testing.T) {
	t.Parallel()
	const files = `
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- resources/seo/sites/main.yaml --
seo:
  titleSuffix: Example
-- content/collections/blog/hello.md --
---
title: Hello
status: published
---
`
	for _, tc := range []struct {
		name, config string
		want         string // the seo title, "" = no seo member
	}{
		{"on", "watch: none\nsites: [{handle: main, url: 'https://example.com/', locale: en-GB}]\n", "Hello | Example"},
		{"seo.enabled false", "watch: none\nsites: [{handle: main, url: 'https://example.com/', locale: en-GB}]\nseo: {enabled: false}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := contenttest.WriteSite(t, "-- cms.config.yaml --\n"+tc.config+files)
			_, mux := startSite(t, dir, nil)
			w := httptest.NewRecorder()
			r := httptest.NewRequest(http.MethodGet, "/api/public/entries/blog/hello", nil)
			r.Host = "attacker.example" // canonical URLs never come from the request
			mux.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			var got struct {
				Data struct {
					SEO *struct{ Title, Canonical string }
				}
			}
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && got.Data.SEO != nil:
				t.Errorf("seo member present: %s", w.Body)
			case tc.want != "" && (got.Data.SEO == nil || got.Data.SEO.Title != tc.want || got.Data.SEO.Canonical != "https://example.com/blog/hello"):
				t.Errorf("seo = %+v", got.Data.SEO)
			}
		})
	}
}

// TestSEOGroupWired: the assembled service serves /api/seo to the starter-like admin role, and
// capabilities report the SEO resources false when their feature is off.
func TestSEOGroupWired(t *testing.T) {
	t.Parallel()
	hash, err := password.Hash("a very good password")
	if err != nil {
		t.Fatal(err)
	}
	const role = `
-- resources/roles/admin.yaml --
handle: admin
display: Admin
permissions:
  - resource: seo
    actions: [view, create, edit, delete]
  - resource: seo-reports
    actions: [view, create, edit, delete]
  - resource: seo-redirects
    actions: [view, create, edit, delete]
  - resource: seo-errors
    actions: [view, create, edit, delete]
  - resource: entries
    actions: [view, create, edit, delete, publish]
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- content/collections/blog/first.md --
---
title: First
status: published
---
`
	for _, tc := range []struct {
		name, config string
		redirects    int // status of GET /api/seo/redirects
		caps         bool
		readOnly     bool // the site folder is read-only: 404 tracking is off
	}{
		{"on", "watch: none\n", 200, true, false},
		{"redirects off", "watch: none\nseo: {redirects: false}\n", 404, true, false},
		{"seo off", "watch: none\nseo: {enabled: false}\n", 404, false, false},
		{"read-only", "watch: none\n", 200, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := contenttest.WriteSite(t, "-- cms.config.yaml --\n"+tc.config+role+
				"-- users/ann.yaml --\nemail: ann@example.com\nname: Ann\nroles: [admin]\npassword_hash: \""+hash+"\"\n")
			cfg, _, err := config.Load(dir, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			if tc.readOnly {
				// What a read-only site folder switches off (logged once at start-up); the
				// store itself stays writable here so that the test can sign in.
				wire.ApplyReadOnly(&cfg)
				cfg.ReadOnly = false
			}
			s, err := wire.NewServices(t.Context(), cfg, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			mux, err := wire.Mount(s, groups.All()...)
			if err != nil {
				t.Fatal(err)
			}
			do := func(method, path, token, body string) *httptest.ResponseRecorder {
				r := httptest.NewRequest(method, path, strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				if token != "" {
					r.Header.Set("Authorization", "Bearer "+token)
				}
				w := httptest.NewRecorder()
				mux.ServeHTTP(w, r)
				return w
			}
			w := do("POST", "/api/auth/login", "", `{"email":"ann@example.com","password":"a very good password"}`)
			var login struct{ Token string }
			if err := json.Unmarshal(w.Body.Bytes(), &login); err != nil || login.Token == "" {
				var wrapped struct{ Data struct{ Token string } }
				_ = json.Unmarshal(w.Body.Bytes(), &wrapped)
				login.Token = wrapped.Data.Token
			}
			if login.Token == "" {
				t.Fatalf("login: %d %s", w.Code, w.Body)
			}
			if w := do("GET", "/api/seo/redirects", login.Token, ""); w.Code != tc.redirects {
				t.Errorf("GET /api/seo/redirects = %d %s", w.Code, w.Body)
			}
			wantNF := 200
			if tc.readOnly || !tc.caps {
				wantNF = 404
			}
			if w := do("GET", "/api/seo/not-found", login.Token, ""); w.Code != wantNF {
				t.Errorf("GET /api/seo/not-found = %d %s", w.Code, w.Body)
			}
			if tc.redirects == 200 && !tc.readOnly {
				// Renaming a published entry through the entries group makes a 301 the SEO group lists.
				w := do("GET", "/api/entries/blog/first", login.Token, "")
				var e struct{ Data struct{ ContentHash string } }
				_ = json.Unmarshal(w.Body.Bytes(), &e)
				if w := do("PUT", "/api/entries/blog/first", login.Token, `{"slug":"second","contentHash":"`+e.Data.ContentHash+`"}`); w.Code != 200 {
					t.Fatalf("rename: %d %s", w.Code, w.Body)
				}
				w = do("GET", "/api/seo/redirects?site=default", login.Token, "")
				if !strings.Contains(w.Body.String(), `"source":"/blog/first","destination":"/blog/second","status":301,"enabled":true`) {
					t.Errorf("redirects after the rename: %s", w.Body)
				}
			}
			w = do("GET", "/api/users/capabilities", login.Token, "")
			var caps struct {
				Data struct{ Capabilities map[string]bool }
			}
			if err := json.Unmarshal(w.Body.Bytes(), &caps); err != nil {
				t.Fatal(err)
			}
			c := caps.Data.Capabilities
			if c["seo:view"] != tc.caps || c["seo-reports:edit"] != (tc.caps && !tc.readOnly) || c["seo-redirects:view"] != (tc.caps && tc.redirects == 200) ||
				c["seo-errors:view"] != (tc.caps && !tc.readOnly) {
				t.Errorf("capabilities = %v", c)
			}
		})
	}
}
