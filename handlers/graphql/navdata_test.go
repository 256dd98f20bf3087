package graphql_test

import (
	"testing"
)

// A navigation with a data file but no definition exists, as in REST: navigations lists it (with
// the title from its handle) and navigation(handle) returns it.
func TestNavigationWithoutDefinition(t *testing.T) {
	t.Parallel()
	h := newHandler(t, site+`
-- content/navigation/footer.yaml --
items:
  - label: Imprint
    url: /imprint
`, testConfig())
	r := post(t, h, gqlReq{token: adminTok, query: `{ navigations { handle title } footer: navigation(handle: "footer") { title items { label url } } }`})
	noErrors(t, r)
	var handles []string
	for _, n := range r.Data["navigations"].([]any) {
		m := n.(map[string]any)
		handles = append(handles, m["handle"].(string))
		if m["handle"] == "footer" && m["title"] != "Footer" {
			t.Errorf("footer title = %v, want Footer", m["title"])
		}
	}
	if len(handles) != 3 || handles[0] != "empty" || handles[1] != "footer" || handles[2] != "main" {
		t.Errorf("navigations = %v, want [empty footer main]", handles)
	}
	footer, _ := r.Data["footer"].(map[string]any)
	if items, _ := footer["items"].([]any); len(items) != 1 || items[0].(map[string]any)["url"] != "/imprint" {
		t.Errorf("navigation(footer) = %s", mustJSON(footer))
	}
}
