// Package codegen writes, from a site's definitions and blueprints, the typed clients and
// schemas of `cms generate`: TypeScript types, zod validation schemas that mirror the server's
// rule engine (content/validate), a server-side file client, GraphQL helpers, a Go package with a
// typed public API client, a JSON Schema per blueprint, and an OpenAPI 3.1 document of the HTTP
// API. Output is deterministic: the same definitions give byte-identical files. It does no I/O;
// the cms command writes the files.
package codegen

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"cms/content"
	"cms/content/gqlname"
	"cms/content/validate"
)

//go:embed runtime/*.ts
var runtimeFS embed.FS

// Definitions is what the generator reads from a store (fsstore.Store has these methods).
type Definitions interface {
	Collections() []*content.Collection
	Blueprints(kind string) []*content.Blueprint
	Fieldsets() []*content.Fieldset
	GlobalDefs() []*content.GlobalDef
	NavigationDefs() []*content.NavigationDef
	FormDefs() []*content.FormDef
	Taxonomies() []*content.Taxonomy
}

// Site is everything the output depends on.
type Site struct {
	Collections []*content.Collection
	Blueprints  map[string][]*content.Blueprint // by kind, sorted by handle
	Fieldsets   []*content.Fieldset
	Globals     []*content.GlobalDef
	Navigations []*content.NavigationDef
	Forms       []*content.FormDef
	Taxonomies  []*content.Taxonomy
	// PublicBasePath is public.basePath (default /api/public); GraphQLPath graphql.path.
	PublicBasePath string
	GraphQLPath    string
	// Skipped are blueprints left out because they have errors (kind/handle: first problem).
	Skipped []string
}

// BlueprintKinds are the blueprint folders, in output order.
var BlueprintKinds = []string{content.BlueprintCollections, content.BlueprintGlobals, content.BlueprintForms,
	content.BlueprintNavigations, content.BlueprintTaxonomies}

// Load reads a site's definitions. Blueprints with errors (validate.CheckBlueprint) are left out
// and listed in Skipped, as the server treats them as absent.
func Load(d Definitions, publicBasePath, graphQLPath string) *Site {
	s := &Site{
		Collections: d.Collections(), Fieldsets: d.Fieldsets(), Globals: d.GlobalDefs(),
		Navigations: d.NavigationDefs(), Forms: d.FormDefs(), Taxonomies: d.Taxonomies(),
		Blueprints: map[string][]*content.Blueprint{}, PublicBasePath: publicBasePath, GraphQLPath: graphQLPath,
	}
	for _, k := range BlueprintKinds {
		for _, bp := range d.Blueprints(k) {
			if ps := validate.CheckBlueprint(bp, k); validate.HasErrors(ps) {
				for _, p := range ps {
					if !p.Warning {
						s.Skipped = append(s.Skipped, k+"/"+bp.Handle+": "+p.String())
						break
					}
				}
				continue
			}
			s.Blueprints[k] = append(s.Blueprints[k], bp)
		}
	}
	s.defaults()
	return s
}

func (s *Site) defaults() {
	if s.PublicBasePath == "" {
		s.PublicBasePath = "/api/public"
	}
	s.PublicBasePath = strings.TrimSuffix(s.PublicBasePath, "/")
	if s.GraphQLPath == "" {
		s.GraphQLPath = "/api/graphql"
	}
	if s.Blueprints == nil {
		s.Blueprints = map[string][]*content.Blueprint{}
	}
}

// BlueprintCount is the number of blueprints generated from.
func (s *Site) BlueprintCount() int {
	n := 0
	for _, bps := range s.Blueprints {
		n += len(bps)
	}
	return n
}

func (s *Site) blueprint(kind, handle string) *content.Blueprint {
	for _, bp := range s.Blueprints[kind] {
		if bp.Handle == handle {
			return bp
		}
	}
	return nil
}

func (s *Site) fieldset(handle string) *content.Fieldset {
	for _, f := range s.Fieldsets {
		if f.Handle == handle {
			return f
		}
	}
	return nil
}

// File is one generated file, its path relative to the output folder.
type File struct {
	Path string
	Data []byte
}

// Generate writes every output file, sorted by path.
func Generate(s *Site) ([]File, error) {
	s.defaults()
	if err := s.checkNames(); err != nil {
		return nil, err
	}
	g := &gen{site: s, files: map[string][]byte{}}
	for _, name := range []string{"validate.ts", "files.ts", "graphql.ts"} {
		b, err := runtimeFS.ReadFile("runtime/" + name)
		if err != nil {
			return nil, err
		}
		g.files["runtime/"+name] = b
	}
	g.files[".gitignore"] = []byte("*\n")
	g.files["tsconfig.paths.json"] = []byte("{\n  \"compilerOptions\": {\n    \"paths\": {\n      \"@cms/generated\": [\"./index.ts\"],\n      \"@cms/generated/*\": [\"./*\"]\n    }\n  }\n}\n")
	steps := []func() error{g.typescript, g.schemas, g.fileClient, g.graphql, g.jsonSchemas, g.goPackage, g.openAPI}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	g.files["index.ts"] = []byte(header + "export * from \"./types\";\nexport * from \"./schemas\";\nexport * from \"./client\";\nexport * from \"./graphql\";\n")
	out := make([]File, 0, len(g.files))
	for p, b := range g.files {
		out = append(out, File{Path: p, Data: b})
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

const header = "// Generated by `cms generate` from the site's blueprints; do not edit.\n\n"

type gen struct {
	site  *Site
	files map[string][]byte
}

// field is one blueprint field as the generator sees it: the first of its handle, not hidden
// unless asked for.
type field struct {
	content.Field
	rules validate.FieldRules
}

// fieldsOf lists the fields of a blueprint in order, each handle once (the first wins, as in
// validation), without fields lacking a handle.
func fieldsOf(fs []content.Field) []field {
	seen := map[string]bool{}
	var out []field
	for _, f := range fs {
		if f.Handle == "" || seen[f.Handle] {
			continue
		}
		seen[f.Handle] = true
		out = append(out, field{Field: f, rules: validate.Describe(f)})
	}
	return out
}

// pascal is the type-name form of a handle, as GraphQL names types.
func pascal(h string) string { return gqlname.TypeName(h) }

// jsString quotes s for TypeScript and Go alike (JSON string syntax).
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// jsonText marshals v without HTML escaping, compactly.
func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// jsonIndent marshals v indented, with a final newline.
func jsonIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// docComment writes a JSDoc / Go doc comment from a field's display and instructions.
func docText(f content.Field) string {
	parts := []string{}
	if f.Display != "" {
		parts = append(parts, f.Display)
	}
	if f.Instructions != "" {
		parts = append(parts, f.Instructions)
	}
	parts = append(parts, fmt.Sprintf("Field type %s.", f.Type))
	s := strings.Join(parts, " — ")
	return strings.NewReplacer("*/", "* /", "\n", " ", "\r", " ").Replace(s)
}

func validateDescribe(f content.Field) validate.FieldRules { return validate.Describe(f) }
