package codegen

import (
	"fmt"
	"testing"

	"cms/content"
)

// bigSite is 50 collection blueprints of 8 fields each (400 fields), every field type, with
// rules, select options and sets.
func bigSite() *Site {
	types := []string{"text", "select", "number", "toggle", "multiselect", "replicator", "asset", "tiptap"}
	s := &Site{Blueprints: map[string][]*content.Blueprint{}}
	s.Fieldsets = []*content.Fieldset{{Handle: "card", Fields: []content.Field{{Handle: "heading", Type: "text", Required: true}, {Handle: "body", Type: "markdown"}}}}
	for i := range 50 {
		h := fmt.Sprintf("type-%02d", i)
		var fields []content.Field
		for j := range 8 {
			f := content.Field{Handle: fmt.Sprintf("field_%d", j), Type: types[j], Display: "Field", Validate: []string{"required"}}
			switch f.Type {
			case "text":
				f.Validate = []string{"min:2", "max:80", "regex:^[A-Za-z ]+$"}
			case "select", "multiselect":
				f.Options = opts("options", []any{"a", "b", "c"})
			case "number":
				f.Validate = []string{"numeric_range:1,10"}
			case "replicator":
				f.Options = opts("sets", []any{"card"})
			}
			fields = append(fields, f)
		}
		s.Blueprints[content.BlueprintCollections] = append(s.Blueprints[content.BlueprintCollections], &content.Blueprint{Kind: content.BlueprintCollections, Handle: h, Tabs: []content.Tab{{Handle: "main", Fields: fields}}})
		s.Collections = append(s.Collections, &content.Collection{Handle: h, Blueprint: h})
	}
	return s
}

// BenchmarkGenerate50Blueprints400Fields: the issue asks for at most 300 ms.
func BenchmarkGenerate50Blueprints400Fields(b *testing.B) {
	s := bigSite()
	b.ReportAllocs()
	for b.Loop() {
		files, err := Generate(s)
		if err != nil || len(files) < 60 {
			b.Fatal(err, len(files))
		}
	}
}
