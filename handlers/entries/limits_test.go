package entries_test

import (
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

// Entry data over the shared nesting or size limit is refused before anything is written, on
// create and on update, and the entry stays readable.
func TestEntriesOverTheLimitsAreRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		value  string
		status int
		code   string
	}{
		{"1000 deep", webtest.Nested(1000), 422, content.CodeNestingTooDeep},
		{"one level over", webtest.Nested(content.MaxNesting - 1), 422, content.CodeNestingTooDeep},
		{"small JSON, huge YAML", webtest.YAMLBomb(30, content.MaxDocumentBytes), 413, content.CodeDocumentTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			created := webtest.Unchanged(t, e.file("pages", "deep"))
			unchanged := webtest.Unchanged(t, e.file("pages", "about"))
			// {"data":{"x": value}} nests value two levels down.
			w := e.do(t, webtest.Request{Method: "POST", Path: "/api/entries/pages", Token: tokAdmin,
				Body: `{"title":"Deep","slug":"deep","data":{"x":` + c.value + `}}`})
			webtest.WantError(t, w, c.status, c.code)
			w = e.do(t, webtest.Request{Method: "PUT", Path: "/api/entries/pages/about", Token: tokAdmin,
				Body: `{"contentHash":"` + e.hashOf(t, "pages", "about") + `","data":{"x":` + c.value + `}}`})
			webtest.WantError(t, w, c.status, c.code)
			created()
			unchanged()
			if w := e.do(t, webtest.Request{Path: "/api/entries/pages/about", Token: tokAdmin}); w.Code != 200 || !strings.Contains(w.Body.String(), `"title":"About"`) {
				t.Errorf("GET after the refusal = %d %.300s", w.Code, w.Body)
			}
		})
	}
}

// Entry data nested exactly as deep as the limit allows is written and reads back.
func TestEntryAtTheNestingLimitRoundTrips(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	value := webtest.Nested(content.MaxNesting - 2)
	w := e.do(t, webtest.Request{Method: "POST", Path: "/api/entries/pages", Token: tokAdmin,
		Body: `{"title":"Deep","slug":"deep","data":{"x":` + value + `}}`})
	if w.Code != 201 {
		t.Fatalf("POST at the limit = %d %.300s", w.Code, w.Body)
	}
	e.parsed(t, "pages", "deep")
	if w := e.do(t, webtest.Request{Path: "/api/entries/pages/deep", Token: tokAdmin}); w.Code != 200 || !strings.Contains(w.Body.String(), `"x":`+value) {
		t.Errorf("GET = %d %.300s", w.Code, w.Body)
	}
}
