package settings_test

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/handlers/settings"
	"cms/handlers/web/webtest"
)

// A settings body over the shared nesting or size limit is refused before anything is written,
// and the settings stay readable and writable: before, the file written could not be read back,
// and since every PUT reads the current settings first, they could no longer be repaired
// through the API.
func TestPutRefusesDocumentsOverTheLimits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		body   string
		status int
		code   string
	}{
		{"1000 deep", `{"deep":` + webtest.Nested(1000) + `}`, 422, content.CodeNestingTooDeep},
		{"one level over", `{"deep":` + webtest.Nested(content.MaxNesting) + `}`, 422, content.CodeNestingTooDeep},
		{"small JSON, huge YAML", `{"bomb":` + webtest.YAMLBomb(60, content.MaxDocumentBytes) + `}`, 413, content.CodeDocumentTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := contenttest.WriteSite(t, stored)
			auth := webtest.NewAuth(t)
			auth.Add(editor, "e", webtest.Role("editor", webtest.Grant("settings", "view", "edit")))
			// A larger body limit than the default 64 KiB, so that the size limit of the stored
			// document is what refuses the bomb.
			h, err := settings.New(settings.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth, Log: slog.New(slog.DiscardHandler), BodyLimit: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			unchanged := webtest.Unchanged(t, filepath.Join(dir, "content/settings.yaml"))
			webtest.WantError(t, webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/settings", Token: editor, Body: c.body}), c.status, c.code)
			unchanged()
			w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/settings", Token: editor, Body: `{"custom":2}`})
			if want := `{"data":{"site_name":"Stored","locale":"en-US","timezone":"Europe/Paris","custom":2}}`; w.Code != 200 || strings.TrimSpace(w.Body.String()) != want {
				t.Errorf("PUT after the refusal = %d %.300s", w.Code, w.Body)
			}
		})
	}
}
