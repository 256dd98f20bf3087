package entries_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/handlers/apidoc"
	"cms/handlers/entries"
	"cms/handlers/web/webtest"
)

// TestOpenAPIDocument: GET /api/openapi.json answers 401 without a session and the whole
// document to any signed-in caller (a role with no grant on entries too), specialised to the
// site's blueprints; a blueprint change shows in the next answer, and an unchanged document
// answers If-None-Match with 304.
func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	st, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, Watch: fsstore.WatchPoll, PollInterval: 20 * time.Millisecond, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, err := entries.New(entries.Deps{Store: st, Auth: newAuth(t), Log: slog.New(slog.DiscardHandler),
		APIDoc: &apidoc.Doc{Defs: st}})
	if err != nil {
		t.Fatal(err)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/openapi.json"}); w.Code != http.StatusUnauthorized {
		t.Fatalf("anonymous: %d %s", w.Code, w.Body)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/openapi.json", Token: tokNothing})
	if w.Code != http.StatusOK {
		t.Fatalf("signed in: %d %s", w.Code, w.Body)
	}
	var doc struct {
		OpenAPI    string
		Paths      map[string]any
		Components struct{ Schemas map[string]any }
	}
	webtest.DecodeJSON(t, w, &doc)
	if doc.OpenAPI != "3.1.0" || doc.Paths["/api/users"] == nil || doc.Paths["/api/entries/blog/{slug}"] == nil || doc.Components.Schemas["BlogFields"] == nil {
		t.Fatalf("not the whole, specialised document: openapi %q, %d paths", doc.OpenAPI, len(doc.Paths))
	}
	etag := w.Header().Get("ETag")
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/openapi.json", Token: tokNothing, Header: http.Header{"If-None-Match": {etag}}}); w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", w.Code)
	}

	bp := filepath.Join(dir, "resources", "blueprints", "collections", "news.yaml")
	if err := os.WriteFile(bp, []byte("tabs:\n  main:\n    fields:\n      - handle: dateline\n        field: {type: text}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The poller notices the edit; a minute is a failure guard, not a bound on speed.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		w = webtest.Do(t, h, webtest.Request{Path: "/api/openapi.json", Token: tokNothing})
		var again struct {
			Components struct{ Schemas map[string]json.RawMessage }
		}
		webtest.DecodeJSON(t, w, &again)
		if strings.Contains(string(again.Components.Schemas["NewsFields"]), "dateline") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the blueprint change never showed in the document")
		}
	}
	if w.Header().Get("ETag") == etag {
		t.Error("ETag unchanged after a definition change")
	}
}
