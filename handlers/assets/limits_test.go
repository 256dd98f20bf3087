package assets_test

import (
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/web/webtest"
)

// Metadata nested deeper than the shared limit is refused, before it is decoded, with the same
// error as every other document, and the sidecar is left as it was.
func TestMetaOverTheNestingLimitIsRefused(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1000, content.MaxNesting} {
		h, dir := newHandler(t, opts{})
		unchanged := webtest.Unchanged(t, filepath.Join(dir, "public/assets/logo.png.meta.yaml"))
		w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/assets/meta?path=logo.png", Token: manager,
			Body: `{"alt":"New","x":` + webtest.Nested(n) + `}`})
		webtest.WantError(t, w, 422, content.CodeNestingTooDeep)
		unchanged()
		if w := webtest.Do(t, h, webtest.Request{Path: "/api/assets/meta?path=logo.png", Token: viewer}); w.Code != 200 || !strings.Contains(w.Body.String(), `"alt":"The logo"`) {
			t.Errorf("GET after the refusal = %d %.300s", w.Code, w.Body)
		}
	}
}
