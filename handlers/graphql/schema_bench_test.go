package graphql

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/markdown"
)

// writeSchemaSite writes a site with n collections, each with its own blueprint of ten fields
// (two of them from an imported fieldset).
func writeSchemaSite(b *testing.B, n int) string {
	b.Helper()
	var archive strings.Builder
	archive.WriteString(`-- resources/fieldsets/seo.yaml --
fields:
  - handle: meta_title
    field: {type: text}
  - handle: meta_description
    field: {type: text}
`)
	for i := range n {
		fmt.Fprintf(&archive, "-- resources/collections/collection-%02d.yaml --\ntitle: Collection %d\nblueprint: collection-%02d\n", i, i, i)
		fmt.Fprintf(&archive, "-- resources/blueprints/collections/collection-%02d.yaml --\n%s", i, blueprintYAML(i))
	}
	return contenttest.WriteSite(b, archive.String())
}

func blueprintYAML(variant int) string {
	return fmt.Sprintf(`tabs:
  main:
    fields:
      - handle: title
        field: {type: text}
      - handle: summary_%d
        field: {type: text}
      - handle: body
        field: {type: markdown}
      - handle: featured
        field: {type: toggle}
      - handle: rating
        field: {type: number, options: {integer: true}}
      - handle: price
        field: {type: number}
      - handle: tags
        field: {type: taxonomy}
      - handle: gallery
        field: {type: asset, options: {max_files: 0}}
      - handle: blocks
        field: {type: replicator}
  seo:
    fields:
      - import: seo
`, variant)
}

// BenchmarkSchemaRebuild50 measures building the schema of a site with 50 collections ("build"),
// and the whole path a user waits for after saving a blueprint ("afterBlueprintEdit": the store
// notices the edit, reloads the definitions, the schema is rebuilt and a query answered).
func BenchmarkSchemaRebuild50(b *testing.B) {
	dir := writeSchemaSite(b, 50)
	log := slog.New(slog.DiscardHandler)
	b.Run("build", func(b *testing.B) {
		st := contenttest.OpenStore(b, dir)
		a := &api{Deps: Deps{Store: st, Markdown: markdown.New(false), Log: log}, schemas: &schemaCache{}}
		b.ReportAllocs()
		for b.Loop() {
			s, err := a.buildSchema()
			if err != nil {
				b.Fatal(err)
			}
			if len(s.roots) != 100 {
				b.Fatalf("roots = %d, want 100", len(s.roots))
			}
		}
	})
	b.Run("afterBlueprintEdit", func(b *testing.B) {
		st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchPoll, PollInterval: time.Nanosecond, NoSync: true, Log: log})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		h, err := New(Deps{Store: st, Markdown: markdown.New(false), Log: log, Config: Config{Enabled: true}})
		if err != nil {
			b.Fatal(err)
		}
		bp := filepath.Join(dir, "resources", "blueprints", "collections", "collection-07.yaml")
		i := 0
		edit := func() {
			i++
			// Alternate the length so that even a coarse file clock shows a change.
			if err := os.WriteFile(bp, []byte(blueprintYAML(i%2*10+1)), 0o644); err != nil {
				b.Fatal(err)
			}
			r := httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(`{"query":"{ __typename }"}`))
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Fatal(w.Body.String())
			}
		}
		before := st.DefinitionsGeneration()
		edit()
		if after := st.DefinitionsGeneration(); after == before {
			b.Fatal("the blueprint edit was not noticed: the benchmark would measure nothing")
		}
		b.ReportAllocs()
		for b.Loop() {
			edit()
		}
	})
}
