package graphql

import (
	"fmt"
	"sync"
	"sync/atomic"

	gql "github.com/graphql-go/graphql"

	"cms/content"
	"cms/content/query"
)

// fieldKind is how a blueprint field is typed in GraphQL (by its field type, see kindOf).
type fieldKind uint8

const (
	kindString     fieldKind = iota // text, slug, markdown, tiptap, select, date, yaml, code, hidden, ...
	kindInt                         // number with options.integer
	kindFloat                       // number
	kindBool                        // toggle
	kindStringList                  // multiselect, entries, taxonomy, asset with several files
	kindJSON                        // replicator, grid, blocks
)

// kindOf types a blueprint field.
func kindOf(f content.Field) fieldKind {
	switch f.Type {
	case "number":
		if integer, _ := f.Options.Value("integer").(bool); integer {
			return kindInt
		}
		return kindFloat
	case "toggle":
		return kindBool
	case "multiselect", "entries", "taxonomy":
		return kindStringList
	case "asset":
		// max_files: 1 (the default) holds one path; 0 (unlimited) or more than 1 hold a list.
		switch n := f.Options.Value("max_files").(type) {
		case int64:
			if n != 1 {
				return kindStringList
			}
		case float64:
			if n != 1 {
				return kindStringList
			}
		}
		return kindString
	case "replicator", "grid", "blocks":
		return kindJSON
	}
	return kindString
}

// customField is a blueprint field flattened onto an entry type.
type customField struct {
	name   string // sanitised GraphQL name
	handle string // the key in the entry's front matter
	kind   fieldKind
}

// collSchema is the GraphQL view of one collection.
type collSchema struct {
	coll     *content.Collection
	typeName string
	singular string
	plural   string
	fields   []customField
	byName   map[string]customField // sanitised name -> field, for filter and sort
}

// standardFields are the entry fields every entry type has; a blueprint field sanitised to one of
// these names is dropped (the standard field wins).
var standardFields = map[string]bool{
	"title": true, "slug": true, "status": true, "author": true, "collection": true,
	"createdAt": true, "updatedAt": true, "url": true, "content": true, "html": true,
}

// sortableStandard are standard fields an entry list can be sorted and filtered by.
var sortableStandard = []string{"title", "slug", "status", "author", "createdAt", "updatedAt"}

// reservedRoots are query names that collections may not take.
var reservedRoots = []string{"global", "globals", "navigation", "navigations"}

// reservedTypes are type names that collections may not take.
var reservedTypes = []string{"Query", "Mutation", "Subscription", "String", "Int", "Float", "Boolean", "ID", "JSON", "Global", "Navigation", "NavigationItem"}

// builtSchema is the schema of one definitions generation with what resolvers and the limit
// checker need to know about it.
type builtSchema struct {
	gen    uint64
	schema gql.Schema
	// roots maps every collection query name to its collection.
	roots map[string]*collSchema
	// lists are the root fields that return entry lists (they take limit).
	lists map[string]bool
}

// schemaCache holds the current schema; it is rebuilt once per definitions generation.
type schemaCache struct {
	mu  sync.Mutex
	cur atomic.Pointer[builtSchema]
}

// schema returns the schema for the store's current definitions, building it when they changed.
func (a *api) schema() (*builtSchema, error) {
	gen := a.Store.DefinitionsGeneration()
	if s := a.schemas.cur.Load(); s != nil && s.gen == gen {
		return s, nil
	}
	a.schemas.mu.Lock()
	defer a.schemas.mu.Unlock()
	if s := a.schemas.cur.Load(); s != nil && s.gen == gen {
		return s, nil
	}
	s, err := a.buildSchema()
	if err != nil {
		return nil, err
	}
	s.gen = gen
	a.schemas.cur.Store(s)
	return s, nil
}

// planCollections names every collection's types and queries. A collection whose query or type
// names clash with one taken earlier (collections are taken in handle order) is skipped and
// logged; the rest of the schema is unaffected.
func (a *api) planCollections() []*collSchema {
	usedRoots := map[string]string{}
	for _, r := range reservedRoots {
		usedRoots[r] = "(built-in)"
	}
	usedTypes := map[string]string{}
	for _, t := range reservedTypes {
		usedTypes[t] = "(built-in)"
	}
	var out []*collSchema
	for _, c := range a.Store.Collections() {
		cs := &collSchema{coll: c, typeName: typeName(c.Handle), byName: map[string]customField{}}
		cs.singular, cs.plural = queryNames(c.Handle)
		clash := ""
		for _, n := range []string{cs.singular, cs.plural} {
			if other, ok := usedRoots[n]; ok {
				clash = fmt.Sprintf("query name %q is already used by %s", n, other)
			}
		}
		for _, n := range []string{cs.typeName, cs.typeName + "Filter"} {
			if other, ok := usedTypes[n]; ok {
				clash = fmt.Sprintf("type name %q is already used by %s", n, other)
			}
		}
		if clash != "" {
			a.Log.Warn("collection left out of the GraphQL schema", "collection", c.Handle, "reason", clash)
			continue
		}
		owner := fmt.Sprintf("collection %q", c.Handle)
		usedRoots[cs.singular], usedRoots[cs.plural] = owner, owner
		usedTypes[cs.typeName], usedTypes[cs.typeName+"Filter"] = owner, owner

		bp, err := a.Store.Blueprint(content.BlueprintCollections, c.Blueprint)
		if err != nil && !content.IsNotFound(err) {
			a.Log.Warn("collection blueprint does not load; only standard fields are queryable", "collection", c.Handle, "err", err)
		}
		for _, f := range bp.Fields() {
			name := sanitizeField(f.Handle)
			if standardFields[name] {
				continue
			}
			if prev, dup := cs.byName[name]; dup {
				if prev.handle != f.Handle {
					a.Log.Warn("blueprint field left out of the GraphQL schema", "collection", c.Handle, "field", f.Handle,
						"reason", fmt.Sprintf("its GraphQL name %q is taken by field %q", name, prev.handle))
				}
				continue
			}
			cf := customField{name: name, handle: f.Handle, kind: kindOf(f)}
			cs.fields = append(cs.fields, cf)
			cs.byName[name] = cf
		}
		out = append(out, cs)
	}
	return out
}

// buildSchema generates the schema from the current definitions.
func (a *api) buildSchema() (*builtSchema, error) {
	colls := a.planCollections()
	s, err := a.assemble(colls)
	if err != nil {
		// Names are checked above, so this is a bug; keep globals and navigation working.
		a.Log.Error("GraphQL schema does not build; collections left out", "err", err)
		s, err = a.assemble(nil)
		if err != nil {
			return nil, fmt.Errorf("graphql: build schema: %w", err)
		}
	}
	return s, nil
}

func (a *api) assemble(colls []*collSchema) (*builtSchema, error) {
	bs := &builtSchema{roots: map[string]*collSchema{}, lists: map[string]bool{}}
	jsonType := gql.NewScalar(gql.ScalarConfig{
		Name:        "JSON",
		Description: "Any JSON value: an object, a list, a string, a number, a boolean or null. Output only.",
		Serialize:   func(v any) any { return content.PlainValue(v) },
	})
	root := gql.Fields{}
	for _, cs := range colls {
		entryType := a.entryType(cs, jsonType)
		filterType := filterInput(cs)
		root[cs.singular] = &gql.Field{
			Type:        entryType,
			Description: fmt.Sprintf("One entry of the %s collection by slug; null when there is none with the requested status.", cs.coll.Handle),
			Args: gql.FieldConfigArgument{
				"slug":   {Type: gql.NewNonNull(gql.String)},
				"status": {Type: gql.String, Description: "published (default), draft or all; draft and all need permission to edit entries"},
			},
			Resolve: a.resolveEntry(cs),
		}
		root[cs.plural] = &gql.Field{
			Type:        gql.NewNonNull(gql.NewList(gql.NewNonNull(entryType))),
			Description: fmt.Sprintf("Entries of the %s collection.", cs.coll.Handle),
			Args: gql.FieldConfigArgument{
				"filter": {Type: filterType, Description: "field -> value; list fields match when they contain the value"},
				"limit":  {Type: gql.Int, Description: fmt.Sprintf("1 to %d, default %d", query.MaxLimit, query.DefaultLimit)},
				"offset": {Type: gql.Int},
				"where":  {Type: gql.String, Description: `a JSON filter as in the REST list (docs/queries.md): field -> value, or -> operators such as {"$gte": "2024-01-01"} ($ne $in $nin $gt $gte $lt $lte $contains $exists)`},
				"sort":   {Type: gql.String, Description: "field:asc or field:desc, comma-separated for several keys"},
				"status": {Type: gql.String, Description: "published (default), draft or all; draft and all need permission to edit entries"},
			},
			Resolve: a.resolveEntries(cs),
		}
		bs.roots[cs.singular], bs.roots[cs.plural] = cs, cs
		bs.lists[cs.plural] = true
	}
	a.addGlobalsAndNavigation(root, jsonType)
	schema, err := gql.NewSchema(gql.SchemaConfig{Query: gql.NewObject(gql.ObjectConfig{Name: "Query", Fields: root})})
	if err != nil {
		return nil, err
	}
	bs.schema = schema
	return bs, nil
}

// entryType is the object type of a collection's entries: standard fields, then the blueprint's.
func (a *api) entryType(cs *collSchema, jsonType *gql.Scalar) *gql.Object {
	str := func(get func(e *content.Entry) string) gql.FieldResolveFn {
		return func(p gql.ResolveParams) (any, error) {
			if s := get(p.Source.(*entryObj).e); s != "" {
				return s, nil
			}
			return nil, nil
		}
	}
	nonNull := gql.NewNonNull(gql.String)
	fields := gql.Fields{
		"title":      {Type: nonNull, Resolve: str(func(e *content.Entry) string { return e.Title })},
		"slug":       {Type: nonNull, Resolve: str(func(e *content.Entry) string { return e.Slug })},
		"status":     {Type: nonNull, Resolve: str(func(e *content.Entry) string { return e.Status })},
		"author":     {Type: gql.String, Resolve: str(func(e *content.Entry) string { return e.Author })},
		"collection": {Type: nonNull, Resolve: str(func(e *content.Entry) string { return e.Collection })},
		"createdAt":  {Type: gql.String, Resolve: str(func(e *content.Entry) string { return e.CreatedAt })},
		"updatedAt":  {Type: gql.String, Resolve: str(func(e *content.Entry) string { return e.UpdatedAt })},
		"url": {Type: gql.String, Description: "The public URL from the collection's route, with the site's base path.", Resolve: func(p gql.ResolveParams) (any, error) {
			o := p.Source.(*entryObj)
			if u := content.EntryURL(o.cs.coll, o.e); u != "" {
				return a.Site.PageLink(u), nil // with a sub-path site's base
			}
			return nil, nil
		}},
		"content": {Type: gql.String, Description: "The Markdown body.", Resolve: a.resolveBody(false)},
	}
	if a.Markdown != nil {
		fields["html"] = &gql.Field{Type: gql.String, Description: "The body rendered to HTML.", Resolve: a.resolveBody(true)}
	}
	for _, f := range cs.fields {
		fields[f.name] = &gql.Field{Type: outputType(f.kind, jsonType), Description: fmt.Sprintf("Blueprint field %q.", f.handle), Resolve: customResolver(f)}
	}
	if a.SEO != nil { // the resolved metadata wins over a blueprint field named seo (its raw value)
		fields["seo"] = &gql.Field{Type: jsonType, Description: "The resolved SEO metadata (docs/seo.md), as the public API's single entry carries it.", Resolve: a.resolveSEO}
	}
	return gql.NewObject(gql.ObjectConfig{Name: cs.typeName, Fields: fields})
}

func outputType(k fieldKind, jsonType *gql.Scalar) gql.Output {
	switch k {
	case kindInt:
		return gql.Int
	case kindFloat:
		return gql.Float
	case kindBool:
		return gql.Boolean
	case kindStringList:
		return gql.NewList(gql.String)
	case kindJSON:
		return jsonType
	}
	return gql.String
}

// filterInput is the filter argument of a collection's list query, typed as the fields are.
func filterInput(cs *collSchema) *gql.InputObject {
	fields := gql.InputObjectConfigFieldMap{}
	for _, n := range sortableStandard {
		fields[n] = &gql.InputObjectFieldConfig{Type: gql.String}
	}
	for _, f := range cs.fields {
		var t gql.Input
		switch f.kind {
		case kindInt:
			t = gql.Int
		case kindFloat:
			t = gql.Float
		case kindBool:
			t = gql.Boolean
		case kindString:
			t = gql.String
		case kindStringList:
			t = gql.String
		default:
			continue // structured values are not filterable
		}
		desc := ""
		if f.kind == kindStringList {
			desc = "matches entries whose list contains this value"
		}
		fields[f.name] = &gql.InputObjectFieldConfig{Type: t, Description: desc}
	}
	return gql.NewInputObject(gql.InputObjectConfig{Name: cs.typeName + "Filter", Fields: fields})
}

// field resolves a GraphQL field name used in a filter or sort to the entry field it reads.
func (cs *collSchema) field(name string) (string, fieldKind, bool) {
	for _, n := range sortableStandard {
		if n == name {
			return n, kindString, true
		}
	}
	if f, ok := cs.byName[name]; ok {
		return f.handle, f.kind, true
	}
	return "", 0, false
}
