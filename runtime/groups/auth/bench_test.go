package auth_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/handlers/auth/authtest"
	"cms/handlers/web"
	"cms/runtime/config"
	"cms/runtime/groups/entries"
	"cms/runtime/wire"
)

// BenchmarkAuthenticatedGetEntryVsTrivial is the number with the real authenticator:
// the entries group as wired for the runners (real store, real session store behind
// Services.Auth, a Bearer token of a real session) against a trivial handler, alternating in one
// loop so a busy machine slows both alike. get/trivial is the throughput ratio (target >= 0.3).
func BenchmarkAuthenticatedGetEntryVsTrivial(b *testing.B) {
	var site strings.Builder
	site.WriteString("-- cms.config.yaml --\nwatch: none\n")
	site.WriteString("-- resources/roles/editor.yaml --\npermissions:\n  - resource: entries\n    actions: [view]\n")
	site.WriteString("-- users/ed.yaml --\nid: ed\nemail: ed@example.com\nname: Ed\nroles: [editor]\npassword_hash: " + authtest.PasswordHash + "\n")
	site.WriteString("-- resources/collections/blog.yaml --\ntitle: Blog\nroute: /blog/{slug}\n")
	for i := range 200 {
		fmt.Fprintf(&site, "-- content/collections/blog/post-%03d.md --\n---\ntitle: Post %d\nstatus: published\ncreatedAt: 2026-01-02T10:00:00.000Z\nupdatedAt: 2026-01-02T10:00:00.000Z\nexcerpt: An excerpt of a few words\ntags: [a, b]\n---\n\n%s\n", i, i, strings.Repeat("Some body text. ", 60))
	}
	dir := contenttest.WriteSite(b, site.String())
	cfg, _, err := config.Load(dir, func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	s, err := wire.NewServices(b.Context(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h, err := wire.Mount(s, entries.Group())
	if err != nil {
		b.Fatal(err)
	}
	st, _ := wire.Sessions(s)
	tok, _, err := st.Create(b.Context(), "ed")
	if err != nil {
		b.Fatal(err)
	}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/trivial", func(w http.ResponseWriter, r *http.Request) error {
		web.WriteJSON(w, http.StatusOK, web.Data{Data: "ok"})
		return nil
	})
	one := func(h http.Handler, path, token string) time.Duration {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(w, r)
		d := time.Since(start)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
		return d
	}
	var getNs, trivialNs time.Duration
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		trivialNs += one(rt, "/api/trivial", "")
		getNs += one(h, "/api/entries/blog/post-042", string(tok))
		n++
	}
	b.ReportMetric(float64(trivialNs.Nanoseconds())/float64(n), "trivial-ns/op")
	b.ReportMetric(float64(getNs.Nanoseconds())/float64(n), "get-ns/op")
	b.ReportMetric(float64(trivialNs)/float64(getNs), "get/trivial")
}
