package navigation_test

import (
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

// Extra keys of navigation items are free-form values; a tree whose extras nest deeper than the
// shared limit, or indent into a YAML file over the size limit, is refused before anything is
// written and the stored tree stays readable.
func TestItemExtrasOverTheLimitsAreRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		value  string
		status int
		code   string
	}{
		{"1000 deep", webtest.Nested(1000), 422, content.CodeNestingTooDeep},
		{"one level over", webtest.Nested(content.MaxNesting - 2), 422, content.CodeNestingTooDeep},
		{"small JSON, huge YAML", webtest.YAMLBomb(60, content.MaxDocumentBytes), 413, content.CodeDocumentTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, dir := newHandler(t)
			if w := webtest.Do(t, h, put("open", `{"items":[{"label":"Home","url":"/","icon":{"name":"home"}}]}`)); w.Code != 200 {
				t.Fatalf("first PUT = %d %s", w.Code, w.Body)
			}
			unchanged := webtest.Unchanged(t, filepath.Join(dir, "content/navigation/open.yaml"))
			// {"items":[{"extra": value}]} nests value three levels down.
			webtest.WantError(t, webtest.Do(t, h, put("open", `{"items":[{"label":"Home","url":"/","extra":`+c.value+`}]}`)), c.status, c.code)
			unchanged()
			w := webtest.Do(t, h, webtest.Request{Path: "/api/navigation/open", Token: viewer})
			if w.Code != 200 || !strings.Contains(w.Body.String(), `"icon":{"name":"home"}`) {
				t.Errorf("GET after the refusal = %d %.300s", w.Code, w.Body)
			}
		})
	}
}

// A tree nested as deep as the navigation rules allow fits the shared limit: it is written and
// reads back (before, it was written as a file nested deeper than the reader accepted).
func TestDeepestTreeReadsBack(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	if w := webtest.Do(t, h, put("open", nested(32))); w.Code != 200 {
		t.Fatalf("PUT = %d %.300s", w.Code, w.Body)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/navigation/open", Token: viewer}); w.Code != 200 || !strings.Contains(w.Body.String(), `"label":"leaf"`) {
		t.Errorf("GET = %d %.300s", w.Code, w.Body)
	}
}
