package codegen

import (
	"fmt"
	"slices"
	"strings"

	"cms/content"
	"cms/content/gqlname"
)

// setsOf returns the fieldsets a replicator, grid or blocks field offers as sets: options.sets
// (a list of fieldset handles, or a map keyed by them), or, for blocks without sets, every
// fieldset marked is_block. Unknown handles are left out.
func (s *Site) setsOf(f content.Field) []*content.Fieldset {
	var handles []string
	switch x := f.Options.Value("sets").(type) {
	case []any:
		for _, it := range x {
			if h, ok := it.(string); ok {
				handles = append(handles, h)
			}
		}
	case *content.Map:
		handles = x.Keys()
	}
	if len(handles) == 0 && f.Type == "blocks" {
		for _, fs := range s.Fieldsets {
			if fs.IsBlock {
				handles = append(handles, fs.Handle)
			}
		}
	}
	var out []*content.Fieldset
	for _, h := range handles {
		if fs := s.fieldset(h); fs != nil && !slices.Contains(out, fs) {
			out = append(out, fs)
		}
	}
	return out
}

// collectionBlueprint returns the blueprint of a collection (by its blueprint key, else its
// handle), or nil.
func (s *Site) collectionBlueprint(c *content.Collection) *content.Blueprint {
	return s.blueprint(content.BlueprintCollections, c.Blueprint) // the loader defaults it to the handle
}

// defBlueprint returns the blueprint a definition names; none when it names none, as the
// server stores such documents unchecked (validate.FindBlueprint).
func (s *Site) defBlueprint(kind, bp, _ string) *content.Blueprint {
	if bp == "" {
		return nil
	}
	return s.blueprint(kind, bp)
}

// fieldsTypeName is the name of a blueprint's field interface.
func fieldsTypeName(kind, handle string) string {
	suffix := map[string]string{
		content.BlueprintCollections: "Fields", content.BlueprintGlobals: "GlobalFields",
		content.BlueprintForms: "FormFields", content.BlueprintNavigations: "NavigationFields",
		content.BlueprintTaxonomies: "TermFields",
	}[kind]
	return pascal(handle) + suffix
}

// dataFields are the fields of a blueprint that hold a document's data: for an entry, not the
// metadata keys (title, slug, status, author, createdAt, updatedAt), which live beside data.
func dataFields(kind string, bp *content.Blueprint) []field {
	fs := fieldsOf(bp.Fields())
	if kind == content.BlueprintCollections {
		fs = slices.DeleteFunc(fs, func(f field) bool { return content.IsReservedEntryKey(f.Handle) })
	}
	return fs
}

// tsType is the TypeScript type of a field's value; sets records the fieldsets used as sets.
func (g *gen) tsType(f field, sets map[string]*content.Fieldset) string {
	r := f.rules
	switch f.Type {
	case "text", "slug", "markdown", "code", "yaml", "date":
		return "string"
	case "select":
		if len(r.Choices) > 0 {
			return tsUnion(r.Choices)
		}
		return "string"
	case "multiselect":
		if len(r.Choices) > 0 {
			return "Array<" + tsUnion(r.Choices) + ">"
		}
		return "string[]"
	case "tiptap":
		return "string | Record<string, unknown>"
	case "number":
		return "number"
	case "toggle":
		return "boolean"
	case "asset":
		if r.AssetMultiple {
			return "string[]"
		}
		return "string"
	case "entries", "taxonomy":
		return "string[]"
	case "replicator", "grid", "blocks":
		fss := g.site.setsOf(f.Field)
		if len(fss) == 0 {
			return "Array<Record<string, unknown>>"
		}
		var names []string
		for _, fs := range fss {
			sets[fs.Handle] = fs
			names = append(names, setTypeName(fs.Handle))
		}
		return "Array<" + strings.Join(names, " | ") + ">"
	}
	return "unknown"
}

func setTypeName(h string) string { return pascal(h) + "Set" }

func tsUnion(vals []string) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = jsString(v)
	}
	return strings.Join(parts, " | ")
}

// tsProp writes a property name, quoted when it is not an identifier.
func tsProp(h string) string {
	ok := h != ""
	for i, c := range h {
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			ok = false
		}
	}
	if ok {
		return h
	}
	return jsString(h)
}

// tsFields writes the body of an interface for fields.
func (g *gen) tsFields(b *strings.Builder, fs []field, indent string, sets map[string]*content.Fieldset) {
	for _, f := range fs {
		fmt.Fprintf(b, "%s/** %s */\n", indent, docText(f.Field))
		opt := "?"
		if f.rules.Required && f.Type != "hidden" {
			opt = ""
		}
		fmt.Fprintf(b, "%s%s%s: %s;\n", indent, tsProp(f.Handle), opt, g.tsType(f, sets))
	}
}

const tsMeta = `/** Metadata every entry has, as the public API and the file client return it. */
export interface EntryMeta {
  title: string;
  slug: string;
  status: "published" | "draft";
  author?: string;
  collection: string;
  createdAt: string;
  updatedAt: string;
  /** The public URL from the collection's route ("" when it needs a date the entry lacks). */
  url: string;
  /** The Markdown body. */
  content: string;
}

/** An entry with its custom fields under data. */
export interface Entry<D = Record<string, unknown>> extends EntryMeta {
  data: D;
}

/** An entry as the public API returns it: with its body rendered to HTML. */
export interface PublicEntry<D = Record<string, unknown>> extends Entry<D> {
  html: string;
}

/** A page of the public API's entry list. */
export interface EntryList<D = Record<string, unknown>> {
  data: PublicEntry<D>[];
  meta: { total: number; offset: number; limit: number };
}

/** The standard fields the server checks with an entry's data: {title, slug, status, author, content, ...data}. */
export interface EntryValues {
  title?: string;
  slug?: string;
  status?: string;
  author?: string;
  content?: string;
}

/** A navigation item: a url or an entry reference ("collection/slug"), and children. */
export interface NavigationItemBase {
  label: string;
  url?: string;
  entry?: string;
  external?: boolean;
}

/** A taxonomy term. */
export interface TermBase<D = Record<string, unknown>> {
  taxonomy: string;
  slug: string;
  title: string;
  description?: string;
  data: D;
}
`

// typescript writes types.ts: one interface per blueprint, per collection entry, global, form,
// navigation item and taxonomy term, and the set types of replicator, grid and blocks fields.
func (g *gen) typescript() error {
	s := g.site
	var b strings.Builder
	b.WriteString(header)
	b.WriteString(tsMeta)
	sets := map[string]*content.Fieldset{}
	for _, kind := range BlueprintKinds {
		for _, bp := range s.Blueprints[kind] {
			fmt.Fprintf(&b, "\n/** The fields of the %s blueprint %q. */\nexport interface %s {\n", strings.TrimSuffix(kind, "s"), bp.Handle, fieldsTypeName(kind, bp.Handle))
			g.tsFields(&b, dataFields(kind, bp), "  ", sets)
			b.WriteString("}\n")
		}
	}
	// Set types, including sets used only by other sets.
	done := map[string]bool{}
	for {
		var next []string
		for h := range sets {
			if !done[h] {
				next = append(next, h)
			}
		}
		if len(next) == 0 {
			break
		}
		slices.Sort(next)
		for _, h := range next {
			done[h] = true
			fs := sets[h]
			title := fs.Display
			if title == "" {
				title = fs.Handle
			}
			fmt.Fprintf(&b, "\n/** The set %q (%s), told apart by _type. */\nexport interface %s {\n  _type: %s;\n", fs.Handle, strings.ReplaceAll(title, "*/", "* /"), setTypeName(h), jsString(h))
			g.tsFields(&b, fieldsOf(fs.Fields), "  ", sets)
			b.WriteString("}\n")
		}
	}
	dataType := func(kind, bp, handle string) string {
		if x := s.defBlueprint(kind, bp, handle); x != nil {
			return fieldsTypeName(kind, x.Handle)
		}
		return "Record<string, unknown>"
	}
	var cmap strings.Builder
	for _, c := range s.Collections {
		dt := "Record<string, unknown>"
		if bp := s.collectionBlueprint(c); bp != nil {
			dt = fieldsTypeName(content.BlueprintCollections, bp.Handle)
		}
		fmt.Fprintf(&b, "\n/** An entry of the collection %q. */\nexport type %sEntry = Entry<%s>;\n", c.Handle, pascal(c.Handle), dt)
		fmt.Fprintf(&cmap, "  %s: %s;\n", jsString(c.Handle), dt)
	}
	b.WriteString("\n/** Collection handle → the type of its entries' data. */\nexport interface CollectionDataMap {\n" + cmap.String() + "}\n")
	for _, gl := range s.Globals {
		fmt.Fprintf(&b, "\n/** The values of the global %q. */\nexport type %sGlobal = %s;\n", gl.Handle, pascal(gl.Handle), dataType(content.BlueprintGlobals, gl.Blueprint, gl.Handle))
	}
	for _, f := range s.Forms {
		fmt.Fprintf(&b, "\n/** The values a submission of the form %q posts. */\nexport type %sFormValues = %s;\n", f.Handle, pascal(f.Handle), dataType(content.BlueprintForms, f.Blueprint, f.Handle))
	}
	for _, n := range s.Navigations {
		name := pascal(n.Handle) + "NavigationItem"
		extra := ""
		if x := s.defBlueprint(content.BlueprintNavigations, n.Blueprint, n.Handle); x != nil {
			extra = " & Partial<" + fieldsTypeName(content.BlueprintNavigations, x.Handle) + ">"
		}
		fmt.Fprintf(&b, "\n/** An item of the navigation %q. */\nexport type %s = NavigationItemBase%s & { children?: %s[] };\n", n.Handle, name, extra, name)
	}
	for _, t := range s.Taxonomies {
		fmt.Fprintf(&b, "\n/** A term of the taxonomy %q. */\nexport type %sTerm = TermBase<%s>;\n", t.Handle, pascal(t.Handle), dataType(content.BlueprintTaxonomies, t.Blueprint, t.Handle))
	}
	g.files["types.ts"] = []byte(b.String())
	return nil
}

// fieldSpec is the JSON form of validate.FieldRules the TypeScript rule engine reads.
type fieldSpec struct {
	Handle       string              `json:"handle"`
	Type         string              `json:"type"`
	Shape        string              `json:"shape"`
	Required     bool                `json:"required,omitempty"`
	Accepted     bool                `json:"accepted,omitempty"`
	Rules        []ruleSpec          `json:"rules,omitempty"`
	Choices      []string            `json:"choices,omitempty"`
	ChoicesShown []string            `json:"choicesShown,omitempty"`
	Integer      bool                `json:"integer,omitempty"`
	Asset        *assetSpec          `json:"asset,omitempty"`
	Visibility   *content.Visibility `json:"visibility,omitempty"`
	NoCoerce     bool                `json:"noCoerce,omitempty"`
}

type ruleSpec struct {
	Name    string   `json:"name"`
	Param   string   `json:"param,omitempty"`
	N       *float64 `json:"n,omitempty"`
	NText   string   `json:"nText,omitempty"`
	Lo      *float64 `json:"lo,omitempty"`
	Hi      *float64 `json:"hi,omitempty"`
	LoText  string   `json:"loText,omitempty"`
	HiText  string   `json:"hiText,omitempty"`
	List    []string `json:"list,omitempty"`
	Pattern string   `json:"pattern,omitempty"`
}

type assetSpec struct {
	Multiple bool  `json:"multiple"`
	Min      int64 `json:"min"`
	Max      int64 `json:"max"`
}

// specs lists the field specs of the fields validation checks, in order (hidden fields and
// repeated handles are never checked).
func specs(fs []content.Field) []fieldSpec {
	seen := map[string]bool{}
	hiddenFirst := map[string]bool{} // coercion takes the first field of a handle, even hidden
	for _, f := range fs {
		if _, ok := hiddenFirst[f.Handle]; !ok {
			hiddenFirst[f.Handle] = f.Type == "hidden"
		}
	}
	out := []fieldSpec{}
	for _, f := range fs {
		if f.Handle == "" || f.Type == "hidden" || seen[f.Handle] {
			continue
		}
		seen[f.Handle] = true
		r := validateDescribe(f)
		sp := fieldSpec{Handle: f.Handle, Type: f.Type, Shape: r.Shape, Required: r.Required, Accepted: r.Accepted,
			Choices: r.Choices, ChoicesShown: r.ChoicesShown, Integer: r.Integer, NoCoerce: hiddenFirst[f.Handle]}
		if f.Visibility != nil && f.Visibility.Field != "" {
			v := *f.Visibility
			sp.Visibility = &v
		}
		if f.Type == "asset" {
			sp.Asset = &assetSpec{Multiple: r.AssetMultiple, Min: r.MinFiles, Max: r.MaxFiles}
		}
		for _, rs := range r.Rules {
			if rs.Name == "hook" {
				continue // hooks run on the server only
			}
			x := ruleSpec{Name: rs.Name, Param: rs.Param, List: rs.List, Pattern: rs.Pattern}
			switch rs.Name {
			case "min", "max", "size":
				n := rs.N
				x.N, x.NText = &n, rs.NText
			case "numeric_range":
				lo, hi := rs.Lo, rs.Hi
				x.Lo, x.Hi, x.LoText, x.HiText = &lo, &hi, rs.LoText, rs.HiText
			}
			sp.Rules = append(sp.Rules, x)
		}
		out = append(out, sp)
	}
	return out
}

// schemas writes schemas.ts: per blueprint, its field specs and a zod schema that runs the rule
// engine, so a zod parse accepts and rejects what the server does, with its messages.
func (g *gen) schemas() error {
	s := g.site
	var b strings.Builder
	b.WriteString(header)
	b.WriteString(`import { z } from "zod";
import type { FieldSpec, FieldErrors, ValidateOptions } from "./runtime/validate";
import { validateValues } from "./runtime/validate";
import type * as T from "./types";

export { validateValues, checkField, isVisible, coerceValue, coerceValues } from "./runtime/validate";
export type { FieldSpec, FieldErrors, ValidateOptions } from "./runtime/validate";

/** A zod schema over an object of field values that reports the server's messages per field. */
export function blueprintSchema<V>(fields: readonly FieldSpec[], opts: ValidateOptions = {}): z.ZodType<V> {
  return z
    .custom<V>((v) => typeof v === "object" && v !== null && !Array.isArray(v), { message: "Must be an object" })
    .superRefine((v, ctx) => {
      const errs: FieldErrors = validateValues(fields, v as Record<string, unknown>, opts);
      for (const [handle, msgs] of Object.entries(errs)) {
        for (const message of msgs) ctx.addIssue({ code: "custom", message, path: [handle] });
      }
    });
}
`)
	for _, kind := range BlueprintKinds {
		for _, bp := range s.Blueprints[kind] {
			tn := fieldsTypeName(kind, bp.Handle)
			vn := strings.ToLower(tn[:1]) + tn[1:]
			fmt.Fprintf(&b, "\n/** How the server checks the %s blueprint %q. */\nexport const %s: readonly FieldSpec[] = %s;\n", strings.TrimSuffix(kind, "s"), bp.Handle, vn+"Spec", jsonText(specs(bp.Fields())))
			typ, opts := "T."+tn, ""
			switch kind {
			case content.BlueprintCollections:
				// The server checks an entry as one object: the standard fields beside data.
				typ += " & T.EntryValues"
			case content.BlueprintForms:
				// The forms endpoint coerces every submission before checking it.
				opts = ", { coerce: true }"
			}
			fmt.Fprintf(&b, "export const %s = blueprintSchema<%s>(%s%s);\n", vn+"Schema", typ, vn+"Spec", opts)
		}
	}
	g.files["schemas.ts"] = []byte(b.String())
	return nil
}

// fileClient writes client.ts: the file client typed by the site's collections.
func (g *gen) fileClient() error {
	s := g.site
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("import { FileClient } from \"./runtime/files\";\nimport type { CollectionOrder, FileClientOptions } from \"./runtime/files\";\nimport type { CollectionDataMap } from \"./types\";\n\n")
	b.WriteString("export { FileClient, QueryError, entryURL } from \"./runtime/files\";\nexport type { FileEntry, ListParams, ListResult, FileClientOptions, CollectionOrder } from \"./runtime/files\";\n\n")
	b.WriteString("/** Each collection's own order, from its definition. */\nexport const collectionOrders: Readonly<Record<keyof CollectionDataMap & string, CollectionOrder>> = {\n")
	for _, c := range s.Collections {
		fmt.Fprintf(&b, "  %s: { sortable: %t, dated: %t, sortDirection: %s, route: %s%s },\n", jsString(c.Handle), c.Sortable, c.Dated, jsString(c.SortDirection), jsString(c.Route), queryFields(s, c))
	}
	b.WriteString("};\n\n/** A file client for this site's collections (server-side code only). */\nexport function createClient(opts: FileClientOptions): FileClient<CollectionDataMap> {\n  return new FileClient<CollectionDataMap>(collectionOrders, opts);\n}\n")
	g.files["client.ts"] = []byte(b.String())
	return nil
}

// queryFields writes the fields property of a collection's order: the names besides the
// metadata that filters and sorts may use (query.KnownFields), none for a collection without a
// blueprint, whose front matter is free-form.
func queryFields(s *Site, c *content.Collection) string {
	bp := s.collectionBlueprint(c)
	if bp == nil {
		return ""
	}
	names := []string{}
	for _, f := range bp.Fields() {
		names = append(names, f.Handle)
	}
	if c.Sortable {
		names = append(names, "order")
	}
	names = append(names, c.Taxonomies...)
	slices.Sort(names)
	return ", fields: " + jsonText(slices.Compact(names))
}

// gqlKind is how the server types a blueprint field in GraphQL (handlers/graphql kindOf):
// the TypeScript type of its value and its filter input type ("" when not filterable).
func gqlKind(f content.Field) (ts, filter string) {
	switch f.Type {
	case "number":
		if integer, _ := f.Options.Value("integer").(bool); integer {
			return "number | null", "Int"
		}
		return "number | null", "Float"
	case "toggle":
		return "boolean | null", "Boolean"
	case "multiselect", "entries", "taxonomy":
		return "Array<string | null> | null", "String"
	case "asset":
		if validateDescribe(f).AssetMultiple {
			return "Array<string | null> | null", "String"
		}
	case "replicator", "grid", "blocks":
		return "unknown", ""
	}
	return "string | null", "String"
}

// gqlStandard are the fields every entry type has on the server, and gqlFilterStandard those its
// filters and sorts take.
var (
	gqlStandard       = []string{"title", "slug", "status", "author", "collection", "createdAt", "updatedAt", "url", "content", "html"}
	gqlFilterStandard = []string{"title", "slug", "status", "author", "createdAt", "updatedAt"}
	gqlReservedRoots  = []string{"global", "globals", "navigation", "navigations"}
	gqlReservedTypes  = []string{"Query", "Mutation", "Subscription", "String", "Int", "Float", "Boolean", "ID", "JSON", "Global", "Navigation", "NavigationItem"}
)

// gqlCollection is a collection as the server's GraphQL schema has it.
type gqlCollection struct {
	c                *content.Collection
	typ              string
	singular, plural string
	fields           []gqlField
}

type gqlField struct{ name, handle, ts, filter string }

// gqlCollections plans the collections the way the server does (handlers/graphql
// planCollections): a collection whose names clash with an earlier one's, or a reserved name,
// is left out; blueprint fields named like a standard field, or like an earlier field, too.
func (s *Site) gqlCollections() []gqlCollection {
	roots, types := map[string]bool{}, map[string]bool{}
	for _, n := range gqlReservedRoots {
		roots[n] = true
	}
	for _, n := range gqlReservedTypes {
		types[n] = true
	}
	std := map[string]bool{}
	for _, n := range gqlStandard {
		std[n] = true
	}
	var out []gqlCollection
	for _, c := range s.Collections {
		gc := gqlCollection{c: c, typ: gqlname.TypeName(c.Handle)}
		gc.singular, gc.plural = gqlname.QueryNames(c.Handle)
		if roots[gc.singular] || roots[gc.plural] || types[gc.typ] || types[gc.typ+"Filter"] {
			continue
		}
		roots[gc.singular], roots[gc.plural], types[gc.typ], types[gc.typ+"Filter"] = true, true, true, true
		taken := map[string]bool{}
		if bp := s.blueprint(content.BlueprintCollections, c.Blueprint); bp != nil {
			for _, f := range bp.Fields() {
				name := gqlname.SanitizeField(f.Handle)
				if std[name] || taken[name] {
					continue
				}
				taken[name] = true
				ts, filter := gqlKind(f)
				gc.fields = append(gc.fields, gqlField{name: name, handle: f.Handle, ts: ts, filter: filter})
			}
		}
		out = append(out, gc)
	}
	return out
}

func (gc gqlCollection) selection() string {
	sel := slices.Clone(gqlStandard)
	for _, f := range gc.fields {
		sel = append(sel, f.name)
	}
	return strings.Join(sel, " ")
}

func (gc gqlCollection) getQuery(selection string) string {
	return "query($slug: String!, $status: String) { " + gc.singular + "(slug: $slug, status: $status) { " + selection + " } }"
}

func (gc gqlCollection) listQuery(selection string) string {
	return "query($filter: " + gc.typ + "Filter, $limit: Int, $offset: Int, $sort: String, $status: String) { " + gc.plural +
		"(filter: $filter, limit: $limit, offset: $offset, sort: $sort, status: $status) { " + selection + " } }"
}

// GraphQLOperation is one query the generated GraphQL helpers send.
type GraphQLOperation struct {
	Collection string
	List       bool   // a list query (variables filter, limit, offset, sort, status), else by slug (slug, status)
	Field      string // the root field it reads
	Query      string
}

// GraphQLOperations lists the queries of the generated helpers, for tests that run them against
// the server.
func GraphQLOperations(s *Site) []GraphQLOperation {
	var out []GraphQLOperation
	for _, gc := range s.gqlCollections() {
		sel := gc.selection()
		out = append(out, GraphQLOperation{Collection: gc.c.Handle, Field: gc.singular, Query: gc.getQuery(sel)},
			GraphQLOperation{Collection: gc.c.Handle, List: true, Field: gc.plural, Query: gc.listQuery(sel)})
	}
	return out
}

// graphql writes graphql.ts: per collection, typed get-by-slug and list functions calling the
// server's queries, named by its rules (content/gqlname).
func (g *gen) graphql() error {
	s := g.site
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("import { request } from \"./runtime/graphql\";\n\n")
	b.WriteString("export { configureGraphQL, request, GraphQLError } from \"./runtime/graphql\";\nexport type { GraphQLConfig, GraphQLErrorItem } from \"./runtime/graphql\";\n\n")
	b.WriteString(`/** List arguments: sort names a field and order its direction ("asc" when omitted). */
export interface GraphQLListArgs<F> {
  filter?: F;
  limit?: number;
  offset?: number;
  sort?: string;
  order?: "asc" | "desc";
  /** "published" (default), "draft" or "all"; draft and all need permission to edit entries. */
  status?: "published" | "draft" | "all";
}

function sortArg(sort?: string, order?: "asc" | "desc"): string | undefined {
  return sort ? sort + ":" + (order ?? "asc") : undefined;
}
`)
	fmt.Fprintf(&b, "\n/** The GraphQL endpoint the server was configured with (graphql.path). */\nexport const graphqlPath = %s;\n", jsString(s.GraphQLPath))
	for _, gc := range s.gqlCollections() {
		sel := slices.Clone(gqlStandard)
		resultType := gc.typ + "Result"
		fmt.Fprintf(&b, "\n/** An entry of %q as GraphQL returns it: standard fields and each blueprint field flattened. */\nexport interface %s {\n", gc.c.Handle, resultType)
		for _, x := range gqlStandard {
			fmt.Fprintf(&b, "  %s: string | null;\n", x)
		}
		for _, f := range gc.fields {
			fmt.Fprintf(&b, "  /** The field %s. */\n  %s: %s;\n", jsString(f.handle), f.name, f.ts)
			sel = append(sel, f.name)
		}
		b.WriteString("}\n")
		filterName := gc.typ + "Filter"
		fmt.Fprintf(&b, "\n/** The filter of %s: equality per field (a list field matches when it contains the value). */\nexport interface %s {\n", gc.plural, filterName)
		for _, x := range gqlFilterStandard {
			fmt.Fprintf(&b, "  %s?: string;\n", x)
		}
		for _, f := range gc.fields {
			switch f.filter {
			case "Int", "Float":
				fmt.Fprintf(&b, "  %s?: number;\n", f.name)
			case "Boolean":
				fmt.Fprintf(&b, "  %s?: boolean;\n", f.name)
			case "String":
				fmt.Fprintf(&b, "  %s?: string;\n", f.name)
			}
		}
		b.WriteString("}\n")
		selection := strings.Join(sel, " ")
		fmt.Fprintf(&b, "\n/** One entry of %q by slug, or null. */\nexport async function get%sBySlug(slug: string, status?: \"published\" | \"draft\" | \"all\"): Promise<%s | null> {\n", gc.c.Handle, gc.typ, resultType)
		fmt.Fprintf(&b, "  const data = await request<{ %s: %s | null }>(%s, { slug, status });\n  return data.%s;\n}\n", gc.singular, resultType,
			jsString(gc.getQuery(selection)), gc.singular)
		fmt.Fprintf(&b, "\n/** A page of %q entries. */\nexport async function list%s(args: GraphQLListArgs<%s> = {}): Promise<%s[]> {\n", gc.c.Handle, pascal(gc.plural), filterName, resultType)
		fmt.Fprintf(&b, "  const data = await request<{ %s: %s[] }>(%s, {\n    filter: args.filter, limit: args.limit, offset: args.offset, sort: sortArg(args.sort, args.order), status: args.status,\n  });\n  return data.%s;\n}\n",
			gc.plural, resultType, jsString(gc.listQuery(selection)), gc.plural)
	}
	g.files["graphql.ts"] = []byte(b.String())
	return nil
}
