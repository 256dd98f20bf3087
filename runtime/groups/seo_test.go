package groups_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"cms/content/contenttest"
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
			cfg, _, err := config.Load(dir, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
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
