package entries_test

import (
	"net/http"
	"testing"

	"cms/handlers/web/webtest"
)

// TestBlueprintForEditor: the CP builds its entry form from this answer, so it must carry the
// tabs, fields with their options, and the fieldsets of replicator sets.
func TestBlueprintForEditor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.do(t, webtest.Request{Path: "/api/collections/blog/blueprint", Token: tokAuthor})
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d; body %s", w.Code, w.Body)
	}
	var body struct {
		Data struct {
			Tabs []struct {
				Handle string
				Fields []struct {
					Handle, Type string
					Required     bool
					Visibility   *struct{ Field, Operator string }
				}
			}
		}
		Fieldsets map[string]any
	}
	webtest.DecodeJSON(t, w, &body)
	if len(body.Data.Tabs) != 2 || body.Data.Tabs[0].Handle != "main" || body.Data.Tabs[1].Handle != "seo" {
		t.Fatalf("tabs = %+v", body.Data.Tabs)
	}
	f := body.Data.Tabs[0].Fields
	if len(f) != 5 || f[0].Handle != "title" || !f[0].Required || f[3].Handle != "subtitle" || f[3].Visibility == nil || f[3].Visibility.Field != "featured" {
		t.Errorf("main fields = %+v", f)
	}
	if seo := body.Data.Tabs[1].Fields; len(seo) != 1 || seo[0].Handle != "meta_title" {
		t.Errorf("the seo tab should hold the imported fieldset's field: %+v", seo)
	}

	// A collection whose blueprint file is missing: no form to build, not an error.
	w = e.do(t, webtest.Request{Path: "/api/collections/pages/blueprint", Token: tokEditor})
	if w.Code != http.StatusOK || w.Body.String() != `{"data":null,"fieldsets":{}}` {
		t.Errorf("missing blueprint: %d %q", w.Code, w.Body)
	}
	w = e.do(t, webtest.Request{Path: "/api/collections/recipes/blueprint", Token: tokAdmin})
	checkError(t, w, errCase{404, "NOT_FOUND", `Collection "recipes" not found`, nil})
}

// TestMarkdownPreview: the preview is the site's rendering, raw HTML escaped as on the site.
func TestMarkdownPreview(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w := e.do(t, webtest.Request{Method: "POST", Path: "/api/collections/blog/markdown", Token: tokAuthor,
		Body: map[string]any{"markdown": "# Hi\n\n**bold** <script>x</script>"}})
	if w.Code != http.StatusOK {
		t.Fatalf("status = %d; body %s", w.Code, w.Body)
	}
	var body struct{ Data struct{ HTML string } }
	webtest.DecodeJSON(t, w, &body)
	if want := "<h1 id=\"hi\">Hi</h1>\n<p><strong>bold</strong> &lt;script&gt;x&lt;/script&gt;</p>\n"; body.Data.HTML != want {
		t.Errorf("html = %q, want %q", body.Data.HTML, want)
	}
	w = e.do(t, webtest.Request{Method: "POST", Path: "/api/collections/blog/markdown", Token: tokAuthor, Body: map[string]any{}})
	checkError(t, w, errCase{422, "VALIDATION_ERROR", "The body needs a markdown string", map[string][]string{"markdown": {"This field is required"}}})
}
