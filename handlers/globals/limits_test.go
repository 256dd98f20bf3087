package globals_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

// A body nested deeper than the shared limit, or one that is small as JSON but indents into a
// YAML file over the size limit, is refused before anything is written, and the global stays
// readable: before, the first was stored as a file the service could not read back (a 500 from
// then on) and the second filled the disk.
func TestPutRefusesDocumentsOverTheLimits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		body   string
		status int
		code   string
		limit  int
	}{
		{"1000 deep", `{"deep":` + webtest.Nested(1000) + `}`, 422, content.CodeNestingTooDeep, content.MaxNesting},
		{"one level over", `{"deep":` + webtest.Nested(content.MaxNesting) + `}`, 422, content.CodeNestingTooDeep, content.MaxNesting},
		{"small JSON, huge YAML", `{"bomb":` + webtest.YAMLBomb(60, content.MaxDocumentBytes) + `}`, 413, content.CodeDocumentTooLarge, content.MaxDocumentBytes},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, dir := newHandler(t)
			unchanged := webtest.Unchanged(t, filepath.Join(dir, "content/globals/orphan.yaml"))
			w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/orphan", Token: editor, Body: c.body})
			webtest.WantError(t, w, c.status, c.code)
			var e struct {
				Error struct {
					Limit int `json:"limit"`
				} `json:"error"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error.Limit != c.limit {
				t.Errorf("error.limit = %d (%v), want %d", e.Error.Limit, err, c.limit)
			}
			unchanged()
			w = webtest.Do(t, h, webtest.Request{Path: "/api/globals/orphan", Token: viewer})
			if w.Code != 200 || strings.TrimSpace(w.Body.String()) != `{"data":{"a":1}}` {
				t.Errorf("GET after the refusal = %d %s", w.Code, w.Body)
			}
		})
	}
}

// A global nested exactly as deep as the limit allows is written and reads back unchanged.
func TestPutAtTheNestingLimitRoundTrips(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	body := `{"deep":` + webtest.Nested(content.MaxNesting-1) + `}`
	if w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/orphan", Token: editor, Body: body}); w.Code != 200 {
		t.Fatalf("PUT at the limit = %d %s", w.Code, w.Body)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/globals/orphan", Token: viewer})
	if want := `{"data":{"deep":` + webtest.Nested(content.MaxNesting-1) + `}}`; w.Code != 200 || strings.TrimSpace(w.Body.String()) != want {
		t.Fatalf("GET = %d %.200s", w.Code, w.Body)
	}
}
