package navigation_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/navigation"
	"cms/handlers/web/webtest"
)

// benchSite is a menu of 100 items in two levels, half of them entry references; body is the
// same tree as a PUT body.
func benchSite(b *testing.B) (h http.Handler, body []byte) {
	var files, items strings.Builder
	files.WriteString("-- resources/collections/pages.yaml --\ntitle: Pages\nroute: /p/{slug}\n-- resources/navigations/main.yaml --\ntitle: Main\nmax_depth: 1\n")
	for i := range 50 {
		fmt.Fprintf(&files, "-- content/collections/pages/p%d.md --\n---\ntitle: P%d\nstatus: published\n---\n", i, i)
	}
	items.WriteString("items:\n")
	var groups []string
	for i := range 10 {
		fmt.Fprintf(&items, "  - label: Group %d\n    children:\n", i)
		var kids []string
		for j := range 9 {
			if j%2 == 0 {
				fmt.Fprintf(&items, "      - label: Page %d\n        entry: pages/p%d\n", j, (i*9+j)%50)
				kids = append(kids, fmt.Sprintf(`{"label":"Page %d","entry":"pages/p%d"}`, j, (i*9+j)%50))
			} else {
				fmt.Fprintf(&items, "      - label: Link %d\n        url: /x/%d\n", j, j)
				kids = append(kids, fmt.Sprintf(`{"label":"Link %d","url":"/x/%d"}`, j, j))
			}
		}
		groups = append(groups, fmt.Sprintf(`{"label":"Group %d","children":[%s]}`, i, strings.Join(kids, ",")))
	}
	body = []byte(`{"items":[` + strings.Join(groups, ",") + `]}`)
	files.WriteString("-- content/navigation/main.yaml --\n" + items.String())
	dir := contenttest.WriteSite(b, files.String())
	auth := webtest.NewAuth(b)
	auth.Add(editor, "e", webtest.Role("editor", webtest.Grant("navigation", "view", "edit")))
	h, err := navigation.New(navigation.Deps{Store: contenttest.OpenStore(b, dir), Auth: auth, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	return h, body
}

// BenchmarkGet reads and resolves a 100-item menu (the file is parsed on every request).
func BenchmarkGet(b *testing.B) {
	h, _ := benchSite(b)
	req := webtest.Request{Path: "/api/navigation/main", Token: editor}
	for b.Loop() {
		if w := webtest.Do(b, h, req); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// BenchmarkPut validates (depth, 50 references) and writes a 100-item menu.
func BenchmarkPut(b *testing.B) {
	h, body := benchSite(b)
	for b.Loop() {
		if w := webtest.Do(b, h, webtest.Request{Method: "PUT", Path: "/api/navigation/main", Token: editor, Body: body}); w.Code != 200 {
			b.Fatal(w.Code, w.Body)
		}
	}
}
