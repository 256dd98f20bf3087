package taxonomies_test

import (
	"fmt"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/taxonomies"
	"cms/handlers/web/webtest"
)

// BenchmarkTerms lists a taxonomy of 200 terms (each file is read on every request).
func BenchmarkTerms(b *testing.B) {
	var files strings.Builder
	files.WriteString("-- resources/taxonomies/tags.yaml --\ntitle: Tags\n")
	for i := range 200 {
		fmt.Fprintf(&files, "-- content/taxonomies/tags/t%03d.yaml --\ntitle: Tag %d\ndescription: About %d\n", i, i, i)
	}
	dir := contenttest.WriteSite(b, files.String())
	auth := webtest.NewAuth(b)
	auth.Add(viewer, "v", webtest.Role("viewer", webtest.Grant("taxonomies", "view")))
	h, err := taxonomies.New(taxonomies.Deps{Store: contenttest.OpenStore(b, dir), Auth: auth})
	if err != nil {
		b.Fatal(err)
	}
	req := webtest.Request{Path: "/api/taxonomies/tags/terms", Token: viewer}
	for b.Loop() {
		if w := webtest.Do(b, h, req); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
