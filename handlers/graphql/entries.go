package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	gql "github.com/graphql-go/graphql"

	"cms/content"
	"cms/content/access"
	"cms/content/query"
	"cms/content/seo"
)

// reqState is what resolvers of one request share. graphql-go runs the resolvers of a request
// one after another, so it needs no lock.
type reqState struct {
	ctx context.Context // carries the request's deadline
	p   *access.Principal
}

type stateKey struct{}

func stateFrom(ctx context.Context) *reqState {
	st, _ := ctx.Value(stateKey{}).(*reqState)
	if st == nil {
		return &reqState{ctx: ctx}
	}
	return st
}

// require checks a permission for a resolver: no session is UNAUTHENTICATED, a missing grant
// FORBIDDEN. It also stops work once the request's deadline has passed.
func (st *reqState) require(resource, action, scope string) error {
	if err := st.ctx.Err(); err != nil {
		return err
	}
	if st.p == nil {
		return newError(CodeUnauthenticated, "Authentication required: sign in or send a Bearer token")
	}
	if st.p.Can(resource, action, scope) {
		return nil
	}
	if scope != "" {
		return newError(CodeForbidden, "Insufficient permissions to %s %s of %q", action, resource, scope)
	}
	return newError(CodeForbidden, "Insufficient permissions to %s %s", action, resource)
}

// status resolves the status argument: published unless the caller asks for draft or all, which
// needs access.SeesDrafts, the rule the Control Panel API follows too.
func (st *reqState) status(args map[string]any, c string) (string, error) {
	s, _ := args["status"].(string)
	var want string
	switch s {
	case "", content.StatusPublished:
		return content.StatusPublished, nil
	case content.StatusDraft:
		want = content.StatusDraft
	case "all":
		want = ""
	default:
		return "", newError(CodeBadRequest, "status must be published, draft or all, not %q", s)
	}
	if st.p.SeesDrafts(c) {
		return want, nil
	}
	return "", newError(CodeForbidden, "Drafts of %q are visible only to users who may view its entries", c)
}

// entryObj is the source of an entry type's fields: the indexed metadata, and the full entry
// (with its body) read from disk the first time content or html is asked for.
type entryObj struct {
	e      *content.Entry
	cs     *collSchema
	full   *content.Entry
	loaded bool
}

func (a *api) resolveEntry(cs *collSchema) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		st := stateFrom(p.Context)
		c := cs.coll.Handle
		if err := st.require("entries", "view", c); err != nil {
			return nil, err
		}
		status, err := st.status(p.Args, c)
		if err != nil {
			return nil, err
		}
		slug, _ := p.Args["slug"].(string)
		if !content.ValidHandle(slug) {
			return nil, nil
		}
		e, err := a.Store.EntryMeta(c, slug)
		if err != nil {
			if content.IsNotFound(err) {
				return nil, nil
			}
			return nil, err
		}
		if status != "" && e.Status != status {
			return nil, nil
		}
		return &entryObj{e: e, cs: cs}, nil
	}
}

func (a *api) resolveEntries(cs *collSchema) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		st := stateFrom(p.Context)
		c := cs.coll.Handle
		if err := st.require("entries", "view", c); err != nil {
			return nil, err
		}
		q, err := listQuery(cs, p.Args)
		if err != nil {
			return nil, err
		}
		if q.Status, err = st.status(p.Args, c); err != nil {
			return nil, err
		}
		entries, _, err := a.Store.Entries(c, q)
		if err != nil {
			return nil, err
		}
		out := make([]*entryObj, len(entries))
		for i, e := range entries {
			out[i] = &entryObj{e: e, cs: cs}
		}
		return out, nil
	}
}

// listQuery turns the arguments of a list query into a store query.
func listQuery(cs *collSchema, args map[string]any) (query.Query, error) {
	q := query.Query{Limit: query.DefaultLimit}
	if n, ok := args["limit"].(int); ok {
		if err := query.CheckLimit(n); err != nil {
			return q, newError(CodeBadRequest, "%v", err)
		}
		q.Limit = n
	}
	if n, ok := args["offset"].(int); ok {
		if err := query.CheckOffset(n); err != nil {
			return q, newError(CodeBadRequest, "%v", err)
		}
		q.Offset = n
	}
	if s, _ := args["sort"].(string); s != "" {
		keys, err := query.ParseSortColon(s)
		if err != nil {
			return q, newError(CodeBadRequest, "sort must be field:asc or field:desc, comma-separated: %v", err)
		}
		for i := range keys {
			handle, _, ok := cs.field(keys[i].Field)
			if !ok {
				return q, newError(CodeBadRequest, "sort field %q is not a field of %s", keys[i].Field, cs.typeName)
			}
			keys[i].Field = handle
		}
		q.Sort = keys
	}
	if f, ok := args["filter"].(map[string]any); ok && len(f) > 0 {
		q.Filter = make(map[string]any, len(f))
		for name, v := range f {
			handle, _, ok := cs.field(name)
			if !ok {
				return q, newError(CodeBadRequest, "filter field %q is not a field of %s", name, cs.typeName)
			}
			q.Filter[handle] = v
		}
	}
	if s, _ := args["where"].(string); s != "" {
		// The list filter of the REST APIs (docs/queries.md), operators included.
		where, err := query.ParseFilter(s)
		if err != nil {
			return q, newError(CodeBadRequest, "where: %v", err)
		}
		if q.Filter == nil {
			q.Filter = make(map[string]any, len(where))
		}
		for name, v := range where {
			handle, _, ok := cs.field(name)
			if !ok {
				return q, newError(CodeBadRequest, "where field %q is not a field of %s", name, cs.typeName)
			}
			if _, dup := q.Filter[handle]; dup {
				return q, newError(CodeBadRequest, "field %q is in both filter and where", name)
			}
			q.Filter[handle] = v
		}
	}
	return q, nil
}

// resolveBody reads the entry's body on first use; html renders it.
func (a *api) resolveBody(html bool) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		o := p.Source.(*entryObj)
		if err := stateFrom(p.Context).ctx.Err(); err != nil {
			return nil, err
		}
		if !o.loaded {
			full, err := a.Store.Entry(o.cs.coll.Handle, o.e.Slug)
			if err != nil {
				if content.IsNotFound(err) {
					return nil, nil // deleted since the list was read
				}
				return nil, err
			}
			o.full, o.loaded = full, true
		}
		if !html {
			return o.full.Content, nil
		}
		return a.Markdown.Render(o.full.Content)
	}
}

// customResolver reads a blueprint field from the entry's front matter and shapes it as its
// GraphQL type; a value of another shape (a file edited by hand) reads as null rather than
// failing the query.
func customResolver(f customField) gql.FieldResolveFn {
	return func(p gql.ResolveParams) (any, error) {
		v, ok := p.Source.(*entryObj).e.Data.Get(f.handle)
		if !ok || v == nil {
			return nil, nil
		}
		return convert(v, f.kind), nil
	}
}

func convert(v any, k fieldKind) any {
	switch k {
	case kindString:
		return asString(v)
	case kindInt:
		switch x := v.(type) {
		case int64:
			return int(x)
		case float64:
			if x == float64(int64(x)) {
				return int(x)
			}
		case string:
			if n, err := strconv.Atoi(x); err == nil {
				return n
			}
		}
		return nil
	case kindFloat:
		switch x := v.(type) {
		case int64:
			return float64(x)
		case float64:
			return x
		case string:
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return f
			}
		}
		return nil
	case kindBool:
		b, ok := v.(bool)
		if !ok {
			return nil
		}
		return b
	case kindStringList:
		switch x := v.(type) {
		case []any:
			out := make([]any, 0, len(x))
			for _, e := range x {
				if e != nil {
					out = append(out, asString(e))
				}
			}
			return out
		default:
			return []any{asString(x)}
		}
	}
	return v // JSON: the scalar converts maps
}

// asString renders a scalar as text and a structured value as JSON text.
func asString(v any) any {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return nil
	case *content.Map, []any:
		b, err := json.Marshal(x)
		if err != nil {
			return nil
		}
		return string(b)
	}
	return fmt.Sprint(v)
}

// resolveSEO resolves an entry's SEO metadata through the cascade and returns it in the public
// API's shape.
func (a *api) resolveSEO(p gql.ResolveParams) (any, error) {
	o := p.Source.(*entryObj)
	e := o.e
	m := a.SEO.Resolve(seo.Subject{Site: a.Site, Kind: "entry", Section: o.cs.coll.Handle, Path: content.EntryURL(o.cs.coll, e),
		Title: e.Title, Slug: e.Slug, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, Data: e.Data})
	raw, err := json.Marshal(m.Object())
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}
