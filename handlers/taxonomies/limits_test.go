package taxonomies_test

import (
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

// A term over the shared nesting or size limit is refused before anything is written, on create
// and on update: before, the create answered 201 and the term then failed with a 500 and
// vanished from the list.
func TestTermsOverTheLimitsAreRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		value  string
		status int
		code   string
	}{
		{"1000 deep", webtest.Nested(1000), 422, content.CodeNestingTooDeep},
		{"one level over", webtest.Nested(content.MaxNesting), 422, content.CodeNestingTooDeep},
		{"small JSON, huge YAML", webtest.YAMLBomb(60, content.MaxDocumentBytes), 413, content.CodeDocumentTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, dir := newHandler(t)
			created := webtest.Unchanged(t, filepath.Join(dir, "content/taxonomies/tags/deep.yaml"))
			unchanged := webtest.Unchanged(t, filepath.Join(dir, "content/taxonomies/tags/news.yaml"))
			w := webtest.Do(t, h, webtest.Request{Method: "POST", Path: "/api/taxonomies/tags/terms", Token: manager,
				Body: `{"title":"Deep","slug":"deep","x":` + c.value + `}`})
			webtest.WantError(t, w, c.status, c.code)
			w = webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/taxonomies/tags/terms/news", Token: manager,
				Body: `{"title":"News","data":{"x":` + c.value + `}}`})
			webtest.WantError(t, w, c.status, c.code)
			created()
			unchanged()
			if w := webtest.Do(t, h, webtest.Request{Path: "/api/taxonomies/tags/terms/news", Token: viewer}); w.Code != 200 {
				t.Errorf("GET news after the refusal = %d %.300s", w.Code, w.Body)
			}
			w = webtest.Do(t, h, webtest.Request{Path: "/api/taxonomies/tags/terms", Token: viewer})
			if w.Code != 200 || !strings.Contains(w.Body.String(), `"slug":"news"`) || strings.Contains(w.Body.String(), `"slug":"deep"`) {
				t.Errorf("term list after the refusal = %d %.300s", w.Code, w.Body)
			}
		})
	}
}
