package codegen

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cms/content"
)

// obj is a JSON object in the documents; encoding/json writes its keys sorted, so output is
// deterministic.
type obj = map[string]any

// fieldSchema is the JSON Schema of a field's value: its shape, select options and the sets of
// replicator, grid and blocks fields. The rules (min, max, email, ...) are the rule engine's; a
// schema validator cannot mirror its blank-value and message semantics, the zod schemas do.
func (s *Site) fieldSchema(f field, setRef func(h string) string) obj {
	var sc obj
	r := f.rules
	switch f.Type {
	case "text", "slug", "markdown", "code", "yaml", "date":
		sc = obj{"type": "string"}
	case "select":
		sc = obj{"type": "string"}
		if len(r.Choices) > 0 {
			sc["enum"] = slices.Clone(r.Choices)
		}
	case "multiselect":
		item := obj{"type": "string"}
		if len(r.Choices) > 0 {
			item["enum"] = slices.Clone(r.Choices)
		}
		sc = obj{"type": "array", "items": item}
	case "tiptap":
		sc = obj{"type": []any{"string", "object"}}
	case "number":
		sc = obj{"type": "number"}
	case "toggle":
		sc = obj{"type": "boolean"}
	case "asset":
		sc = obj{"type": "string"}
		if r.AssetMultiple {
			sc = obj{"type": "array", "items": obj{"type": "string"}}
		}
	case "entries", "taxonomy":
		sc = obj{"type": "array", "items": obj{"type": "string"}}
	case "replicator", "grid", "blocks":
		item := obj{"type": "object"}
		if sets := s.setsOf(f.Field); len(sets) > 0 {
			var refs []any
			for _, fs := range sets {
				refs = append(refs, obj{"$ref": setRef(fs.Handle)})
			}
			item = obj{"oneOf": refs}
		}
		sc = obj{"type": "array", "items": item}
	default:
		sc = obj{}
	}
	if d := strings.TrimSpace(f.Display + " " + f.Instructions); d != "" {
		sc["description"] = d
	}
	if !f.rules.Required {
		// An optional field may be sent as null, which clears it.
		if t, ok := sc["type"].(string); ok {
			sc["type"] = []any{t, "null"}
			if e, ok := sc["enum"].([]string); ok {
				sc["enum"] = append(stringsToAny(e), nil)
			}
		} else if t, ok := sc["type"].([]any); ok {
			sc["type"] = append(t, "null")
		}
	}
	return sc
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// objectSchema is the JSON Schema of an object of field values.
func (s *Site) objectSchema(fields []field, setRef func(h string) string, title string) obj {
	props := obj{}
	var required []any
	for _, f := range fields {
		if f.Type == "hidden" {
			props[f.Handle] = obj{}
			continue
		}
		props[f.Handle] = s.fieldSchema(f, setRef)
		if f.rules.Required && f.Visibility == nil {
			required = append(required, f.Handle)
		}
	}
	sc := obj{"type": "object", "properties": props, "additionalProperties": true}
	if title != "" {
		sc["title"] = title
	}
	if len(required) > 0 {
		sc["required"] = required
	}
	return sc
}

// setSchema is the JSON Schema of one set item.
func (s *Site) setSchema(fs *content.Fieldset, setRef func(h string) string) obj {
	sc := s.objectSchema(fieldsOf(fs.Fields), setRef, fs.Display)
	sc["properties"].(obj)["_type"] = obj{"const": fs.Handle}
	req, _ := sc["required"].([]any)
	sc["required"] = append([]any{"_type"}, req...)
	return sc
}

// usedSets returns every fieldset used as a set by the fields, transitively, sorted.
func (s *Site) usedSets(fields []field) []*content.Fieldset {
	found := map[string]*content.Fieldset{}
	var walk func(fs []field)
	walk = func(fs []field) {
		for _, f := range fs {
			switch f.Type {
			case "replicator", "grid", "blocks":
				for _, set := range s.setsOf(f.Field) {
					if _, ok := found[set.Handle]; !ok {
						found[set.Handle] = set
						walk(fieldsOf(set.Fields))
					}
				}
			}
		}
	}
	walk(fields)
	out := slices.Collect(maps.Values(found))
	slices.SortFunc(out, func(a, b *content.Fieldset) int { return strings.Compare(a.Handle, b.Handle) })
	return out
}

// jsonSchemas writes jsonschema/<kind>/<handle>.schema.json: a JSON Schema (2020-12) per
// blueprint, its sets under $defs.
func (g *gen) jsonSchemas() error {
	s := g.site
	for _, kind := range BlueprintKinds {
		for _, bp := range s.Blueprints[kind] {
			fields := dataFields(kind, bp)
			ref := func(h string) string { return "#/$defs/" + setTypeName(h) }
			sc := s.objectSchema(fields, ref, fmt.Sprintf("The %s blueprint %q", strings.TrimSuffix(kind, "s"), bp.Handle))
			sc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
			sc["$id"] = "cms:blueprints/" + kind + "/" + bp.Handle
			if sets := s.usedSets(fields); len(sets) > 0 {
				defs := obj{}
				for _, fs := range sets {
					defs[setTypeName(fs.Handle)] = s.setSchema(fs, ref)
				}
				sc["$defs"] = defs
			}
			b, err := jsonIndent(sc)
			if err != nil {
				return err
			}
			g.files["jsonschema/"+kind+"/"+bp.Handle+".schema.json"] = b
		}
	}
	return nil
}

// DocumentOptions choose a document's part.
type DocumentOptions struct {
	// PublicOnly keeps the routes anyone may call (Auth Public): the anonymous document.
	PublicOnly bool
}

var wildcardRE = regexp.MustCompile(`\{([^}.]*)(\.\.\.)?\}`)

// OpenAPIPath turns a route pattern's path into an OpenAPI path: "{$}" is dropped and
// "{name...}" (the rest of the path) becomes "{name}".
func OpenAPIPath(p string) string {
	p = strings.TrimSuffix(p, "{$}")
	return wildcardRE.ReplaceAllString(p, "{$1}")
}

// RoutePattern returns a route's pattern with the configured public base path (public.basePath)
// and GraphQL path (graphql.path) applied; "" keeps the defaults.
func RoutePattern(r Route, publicBasePath, graphQLPath string) string {
	method, path, _ := strings.Cut(r.Pattern, " ")
	if rest, ok := strings.CutPrefix(path, "/api/public/"); ok && publicBasePath != "" {
		path = strings.TrimSuffix(publicBasePath, "/") + "/" + rest
	}
	if path == "/api/graphql" && graphQLPath != "" {
		path = graphQLPath
	}
	return method + " " + path
}

// components are the shared schemas every document has.
func components() obj {
	str := obj{"type": "string"}
	entryProps := obj{
		"title": str, "slug": str, "status": obj{"enum": []any{"published", "draft"}}, "author": str,
		"collection": str, "createdAt": str, "updatedAt": str, "url": str, "content": str,
		"data": obj{"type": "object"}, "contentHash": str,
	}
	publicProps := maps.Clone(entryProps)
	delete(publicProps, "contentHash")
	publicProps["html"] = str
	meta := obj{"type": "object", "required": []any{"total", "offset", "limit"},
		"properties": obj{"total": obj{"type": "integer"}, "offset": obj{"type": "integer"}, "limit": obj{"type": "integer"}}}
	return obj{
		"Error": obj{"type": "object", "required": []any{"error"}, "description": "The one error envelope; validation errors add fields (handle -> messages).",
			"properties": obj{"error": obj{"type": "object", "required": []any{"code", "message"},
				"properties": obj{"code": str, "message": str, "fields": obj{"type": "object", "additionalProperties": obj{"type": "array", "items": str}}}}}},
		"Object":  obj{"type": "object"},
		"Success": obj{"type": "object", "properties": obj{"success": obj{"type": "boolean"}}},
		"Health": obj{"type": "object", "required": []any{"status", "timestamp", "uptimeSeconds", "checks"}, "properties": obj{
			"status": str, "timestamp": str, "uptimeSeconds": obj{"type": "integer"}, "details": obj{"type": "object"},
			"checks": obj{"type": "array", "items": obj{"type": "object", "required": []any{"name", "status"},
				"properties": obj{"name": str, "status": str, "durationMs": obj{"type": "integer"}, "error": str}}}}},
		"User": obj{"type": "object", "required": []any{"id", "email", "name", "roles"}, "properties": obj{
			"id": str, "email": str, "name": str, "roles": obj{"type": "array", "items": str},
			"createdAt": str, "lastLogin": str, "theme": str}},
		"Role": obj{"type": "object", "required": []any{"handle", "permissions"}, "properties": obj{
			"handle": str, "display": str, "permissions": obj{"type": "array", "items": obj{"type": "object", "required": []any{"resource", "actions"},
				"properties": obj{"resource": str, "actions": obj{"type": "array", "items": str}, "scope": str}}}}},
		"Term": obj{"type": "object", "required": []any{"taxonomy", "slug", "title", "data"}, "properties": obj{
			"taxonomy": str, "slug": str, "title": str, "description": str, "data": obj{"type": []any{"object", "null"}}}},
		"Taxonomy": obj{"type": "object", "required": []any{"handle", "title"}, "properties": obj{"handle": str, "title": str, "blueprint": str, "route": str}},
		"Submission": obj{"type": "object", "required": []any{"id", "form", "submittedAt", "data"}, "properties": obj{
			"id": str, "form": str, "submittedAt": str, "data": obj{"type": []any{"object", "null"}}}},
		"SubmissionPage": obj{"type": "object", "required": []any{"submissions", "total", "page", "perPage"}, "properties": obj{
			"submissions": obj{"type": "array", "items": obj{"$ref": "#/components/schemas/Submission"}},
			"total":       obj{"type": "integer"}, "page": obj{"type": "integer"}, "perPage": obj{"type": "integer"}}},
		"Deleted": obj{"type": "object", "required": []any{"deleted"}, "properties": obj{"deleted": obj{"type": "boolean"}}},
		"Collection": obj{"type": "object", "required": []any{"handle", "title", "blueprint"}, "properties": obj{
			"handle": str, "title": str, "blueprint": str, "route": str, "sortable": obj{"type": "boolean"}, "dated": obj{"type": "boolean"},
			"defaultStatus": str, "taxonomies": obj{"type": []any{"array", "null"}, "items": str}}},
		"LoginRequest": obj{"type": "object", "required": []any{"email", "password"},
			"properties": obj{"email": str, "password": str}},
		"LoginResponse": obj{"type": "object", "required": []any{"token", "expiresAt", "user"},
			"properties": obj{"token": str, "expiresAt": str, "user": obj{"$ref": "#/components/schemas/User"}}},
		"Entry":       obj{"type": "object", "required": []any{"title", "slug", "status", "collection", "data"}, "properties": entryProps},
		"PublicEntry": obj{"type": "object", "required": []any{"title", "slug", "status", "collection", "url", "content", "html", "data"}, "properties": publicProps},
		"EntryInput":  obj{"type": "object", "description": "title, slug, status, content and the custom fields under data", "properties": obj{"title": str, "slug": str, "status": str, "content": str, "data": obj{"type": "object"}}},
		"ListMeta":    meta,
		// List items carry every member unless the request projects them with `fields`.
		"EntryItem":       obj{"type": "object", "properties": entryProps},
		"PublicEntryItem": obj{"type": "object", "properties": publicProps},
		"EntryList":       obj{"type": "object", "required": []any{"data", "meta"}, "properties": obj{"data": obj{"type": "array", "items": obj{"$ref": "#/components/schemas/EntryItem"}}, "meta": obj{"$ref": "#/components/schemas/ListMeta"}}},
		"PublicEntryList": obj{"type": "object", "required": []any{"data", "meta"}, "properties": obj{"data": obj{"type": "array", "items": obj{"$ref": "#/components/schemas/PublicEntryItem"}}, "meta": obj{"$ref": "#/components/schemas/ListMeta"}}},
		"GraphQLRequest": obj{"type": "object", "required": []any{"query"},
			"properties": obj{"query": str, "variables": obj{"type": []any{"object", "null"}}, "operationName": obj{"type": []any{"string", "null"}}}},
		"GraphQLResponse": obj{"type": "object", "properties": obj{"data": obj{}, "errors": obj{"type": "array"}}},
	}
}

func schemaRef(name string) obj {
	switch name {
	case "any":
		return obj{}
	case "array":
		return obj{"type": "array"}
	}
	if item, ok := strings.CutPrefix(name, "[]"); ok {
		return obj{"type": "array", "items": schemaRef(item)}
	}
	return obj{"$ref": "#/components/schemas/" + name}
}

// body is the response body schema of a vocabulary word.
func body(word string) (mediaType string, schema obj) {
	switch word {
	case "html":
		return "text/html", obj{"type": "string"}
	case "csv":
		return "text/csv", obj{"type": "string"}
	case "xml":
		return "application/xml", obj{"type": "string"}
	case "plain":
		return "text/plain", obj{"type": "string"}
	case "css":
		return "text/css", obj{"type": "string"}
	case "png":
		return "image/png", obj{"type": "string", "contentMediaType": "image/png"}
	case "file":
		return "*/*", obj{"type": "string", "contentMediaType": "application/octet-stream"}
	}
	if inner, ok := strings.CutPrefix(word, "data:"); ok {
		return "application/json", obj{"type": "object", "required": []any{"data"}, "properties": obj{"data": schemaRef(inner)}}
	}
	return "application/json", schemaRef(word)
}

var listParams = []any{
	obj{"name": "limit", "in": "query", "schema": obj{"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}},
	obj{"name": "offset", "in": "query", "schema": obj{"type": "integer", "minimum": 0, "maximum": 1000000, "default": 0}},
	obj{"name": "sort", "in": "query", "description": "field or -field, comma-separated (at most 4); see docs/queries.md", "schema": obj{"type": "string"}},
	obj{"name": "filter", "in": "query", "description": "a JSON object of field to value (equality; a list field matches when it contains the value) or to an operator object ($ne, $in, $nin, $gt, $gte, $lt, $lte, $contains, $exists); see docs/queries.md", "schema": obj{"type": "string"}},
	obj{"name": "fields", "in": "query", "description": "comma-separated fields to return (projection), e.g. title,slug,excerpt", "schema": obj{"type": "string"}},
}

// operation builds one OpenAPI operation of a route; data, when set, specialises entry bodies
// to a blueprint's schema.
func operation(r Route, pathParams []string, data obj) obj {
	op := obj{"summary": r.Summary, "tags": []any{r.Tag}, "operationId": operationID(r.Pattern)}
	var params []any
	for _, p := range pathParams {
		params = append(params, obj{"name": p, "in": "path", "required": true, "schema": obj{"type": "string"}})
	}
	if strings.HasSuffix(r.Pattern, "/entries/{collection}") && strings.HasPrefix(r.Pattern, "GET ") {
		params = append(params, listParams...)
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	if r.Auth == Session {
		op["security"] = []any{obj{"session": []any{}}, obj{"bearer": []any{}}}
	}
	switch r.Request {
	case "":
	case "multipart":
		op["requestBody"] = obj{"required": true, "content": obj{"multipart/form-data": obj{"schema": obj{"type": "object"}}}}
	case "wasm":
		op["requestBody"] = obj{"required": true, "content": obj{"application/wasm": obj{"schema": obj{"type": "string", "contentMediaType": "application/wasm"}}}}
	case "form":
		sc := obj{"type": "object"}
		if data != nil {
			sc = data
		}
		op["requestBody"] = obj{"required": true, "content": obj{
			"application/json": obj{"schema": sc}, "application/x-www-form-urlencoded": obj{"schema": obj{"type": "object"}},
			"multipart/form-data": obj{"schema": obj{"type": "object"}}}}
	default:
		sc := schemaRef(r.Request)
		if data != nil && r.Request == "EntryInput" {
			sc = obj{"allOf": []any{sc, obj{"properties": obj{"data": data}}}}
		}
		op["requestBody"] = obj{"required": true, "content": obj{"application/json": obj{"schema": sc}}}
	}
	responses := obj{}
	for _, code := range slices.Sorted(maps.Keys(r.Responses)) {
		word := r.Responses[code]
		res := obj{"description": http(code)}
		if word != "" {
			mt, sc := body(word)
			if data != nil {
				sc = specialise(word, sc, data)
			}
			res["content"] = obj{mt: obj{"schema": sc}}
		}
		responses[strconv.Itoa(code)] = res
	}
	responses["default"] = obj{"description": "An error", "content": obj{"application/json": obj{"schema": schemaRef("Error")}}}
	op["responses"] = responses
	return op
}

// specialise narrows an entry body's data to a blueprint's schema.
func specialise(word string, sc, data obj) obj {
	withData := func(ref string) obj {
		return obj{"allOf": []any{schemaRef(ref), obj{"properties": obj{"data": data}}}}
	}
	switch word {
	case "data:PublicEntry", "data:Entry":
		return obj{"type": "object", "required": []any{"data"}, "properties": obj{"data": withData(strings.TrimPrefix(word, "data:"))}}
	case "PublicEntryList", "EntryList":
		item := strings.TrimSuffix(word, "List") + "Item"
		return obj{"type": "object", "required": []any{"data", "meta"}, "properties": obj{
			"data": obj{"type": "array", "items": withData(item)}, "meta": schemaRef("ListMeta")}}
	}
	return sc
}

func http(code int) string {
	switch code {
	case 200:
		return "OK"
	case 201:
		return "Created"
	case 204:
		return "No content"
	case 206:
		return "Partial content"
	case 302, 303, 307, 308:
		return "Redirect"
	case 304:
		return "Not modified (If-None-Match)"
	case 503:
		return "Not ready"
	}
	return "Status " + strconv.Itoa(code)
}

func operationID(pattern string) string {
	method, path, _ := strings.Cut(pattern, " ")
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '.' || r == '-' || r == '_' }) {
		part = strings.Trim(part, "{}$.")
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// Document returns the OpenAPI 3.1 document of the HTTP API, specialised per collection and form
// from the site's blueprints.
func Document(s *Site, o DocumentOptions) obj {
	s.defaults()
	paths := obj{}
	add := func(pattern string, op obj) {
		method, path, _ := strings.Cut(pattern, " ")
		p := OpenAPIPath(path)
		item, _ := paths[p].(obj)
		if item == nil {
			item = obj{}
			paths[p] = item
		}
		item[strings.ToLower(method)] = op
	}
	params := func(pattern string) []string {
		var out []string
		for _, m := range wildcardRE.FindAllStringSubmatch(pattern, -1) {
			if m[1] != "$" && m[1] != "" {
				out = append(out, m[1])
			}
		}
		return out
	}
	schemas := components()
	for _, r := range Routes {
		if o.PublicOnly && r.Auth != Public {
			continue
		}
		pattern := RoutePattern(r, s.PublicBasePath, s.GraphQLPath)
		add(pattern, operation(r, params(pattern), nil))
	}
	setRef := func(h string) string { return "#/components/schemas/" + setTypeName(h) }
	var allFields []field
	for _, kind := range BlueprintKinds {
		for _, bp := range s.Blueprints[kind] {
			fs := dataFields(kind, bp)
			allFields = append(allFields, fs...)
			schemas[fieldsTypeName(kind, bp.Handle)] = s.objectSchema(fs, setRef, fmt.Sprintf("The %s blueprint %q", strings.TrimSuffix(kind, "s"), bp.Handle))
		}
	}
	for _, fs := range s.usedSets(allFields) {
		schemas[setTypeName(fs.Handle)] = s.setSchema(fs, setRef)
	}
	// Per collection and form: the generic routes again on the concrete path, with the
	// blueprint's schema for data.
	for _, c := range s.Collections {
		bp := s.collectionBlueprint(c)
		if bp == nil {
			continue
		}
		data := schemaRef(fieldsTypeName(content.BlueprintCollections, bp.Handle))
		for _, r := range Routes {
			if o.PublicOnly && r.Auth != Public {
				continue
			}
			if !strings.Contains(r.Pattern, "/entries/{collection}") {
				continue
			}
			pattern := strings.Replace(RoutePattern(r, s.PublicBasePath, s.GraphQLPath), "{collection}", c.Handle, 1)
			r.Summary = strings.Replace(r.Summary, "a collection", "the "+c.Handle+" collection", 1)
			r.Pattern = pattern
			add(pattern, operation(r, params(pattern), data))
		}
	}
	for _, f := range s.Forms {
		bp := s.defBlueprint(content.BlueprintForms, f.Blueprint, f.Handle)
		if bp == nil {
			continue
		}
		for _, r := range Routes {
			if r.Pattern != "POST /api/forms/{handle}/submit" {
				continue
			}
			r.Pattern = strings.Replace(r.Pattern, "{handle}", f.Handle, 1)
			r.Summary = "Submit the " + f.Handle + " form"
			add(r.Pattern, operation(r, nil, schemaRef(fieldsTypeName(content.BlueprintForms, bp.Handle))))
		}
	}
	title := "cms HTTP API"
	if o.PublicOnly {
		title = "cms public HTTP API"
	}
	return obj{
		"openapi": "3.1.0",
		"info": obj{"title": title, "version": "1",
			"description": "Generated from the route table (content/codegen/openapi_routes.go) and the site's blueprints. Errors use one envelope: {\"error\":{\"code\",\"message\",...}}."},
		"paths": paths,
		"components": obj{
			"schemas": schemas,
			"securitySchemes": obj{
				"session": obj{"type": "apiKey", "in": "cookie", "name": "cms_session"},
				"bearer":  obj{"type": "http", "scheme": "bearer"},
			},
		},
	}
}

// DocumentJSON is Document encoded, indented, with a final newline.
func DocumentJSON(s *Site, o DocumentOptions) ([]byte, error) { return jsonIndent(Document(s, o)) }

// openAPI writes openapi.json (the whole API) and openapi.public.json (the anonymous part).
func (g *gen) openAPI() error {
	for name, o := range map[string]DocumentOptions{"openapi.json": {}, "openapi.public.json": {PublicOnly: true}} {
		b, err := DocumentJSON(g.site, o)
		if err != nil {
			return err
		}
		g.files[name] = b
	}
	return nil
}
