package codegen

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// loadDoc validates a generated document with kin-openapi (OpenAPI 3.1, JSON Schema 2020-12).
func loadDoc(t *testing.T, b []byte) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi = %q, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the document does not validate: %v", err)
	}
	return doc
}

// TestOpenAPIValidates: the whole and the public document of the test site are valid OpenAPI
// 3.1, the public one has no signed-in route, and entry bodies of a collection are specialised
// to its blueprint.
func TestOpenAPIValidates(t *testing.T) {
	s, _ := testSite(t)
	files := generate(t, s)
	doc := loadDoc(t, []byte(fileText(t, files, "openapi.json")))
	for _, p := range []string{"/api/entries/{collection}/{slug}", "/api/public/entries/blog", "/api/entries/blog/{slug}", "/api/forms/contact/submit", "/assets/{path}"} {
		if doc.Paths.Find(p) == nil {
			t.Errorf("no path %s", p)
		}
	}
	one := doc.Paths.Find("/api/public/entries/blog/{slug}").Get.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
	data := one.Properties["data"].Value.AllOf[1].Value.Properties["data"].Value
	if data == nil || data.Properties["category"] == nil || len(data.Properties["category"].Value.Enum) != 3 {
		t.Errorf("the blog entry's data is not the article blueprint: %+v", data)
	}
	if art := doc.Components.Schemas["ArticleFields"].Value; art.Properties["blocks"] == nil {
		t.Error("ArticleFields lacks blocks")
	}

	pub := loadDoc(t, []byte(fileText(t, files, "openapi.public.json")))
	for p, item := range pub.Paths.Map() {
		for m, op := range item.Operations() {
			if op.Security != nil && len(*op.Security) > 0 {
				t.Errorf("public document has the signed-in route %s %s", m, p)
			}
		}
	}
	if pub.Paths.Find("/api/users") != nil || pub.Paths.Find("/api/public/entries/blog") == nil {
		t.Error("public document: wrong paths")
	}
}

// TestJSONSchemas: a blueprint's JSON Schema is a 2020-12 schema that accepts a good value and
// rejects a wrong type and a select value outside its options, with sets under $defs.
func TestJSONSchemas(t *testing.T) {
	s, _ := testSite(t)
	files := generate(t, s)
	raw := fileText(t, files, "jsonschema/collections/article.schema.json")
	var sc openapi3.Schema
	if err := json.Unmarshal([]byte(raw), &sc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(raw, `"$defs"`) || !strings.Contains(raw, `"HeroSet"`) || !strings.Contains(raw, `"const": "hero"`) {
		t.Errorf("sets missing:\n%s", raw)
	}
	good := map[string]any{"category": "news", "rating": 3.0, "blocks": []any{map[string]any{"_type": "quote", "text": "hi"}}}
	if err := sc.VisitJSON(good, openapi3.EnableJSONSchema2020()); err != nil {
		t.Errorf("good value refused: %v", err)
	}
	for _, bad := range []map[string]any{{"category": "other"}, {"category": "news", "rating": "x"}, {}} {
		if err := sc.VisitJSON(bad, openapi3.EnableJSONSchema2020()); err == nil {
			t.Errorf("accepted %v", bad)
		}
	}
}
