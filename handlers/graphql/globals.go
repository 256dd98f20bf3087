package graphql

import (
	"strings"

	gql "github.com/graphql-go/graphql"

	"cms/content"
)

// globalObj is the source of a Global: its definition, and its data read on first use.
type globalObj struct {
	def    *content.GlobalDef
	data   *content.Map
	loaded bool
}

// navObj is the source of a Navigation: its definition, and its items read on first use.
type navObj struct {
	def    *content.NavigationDef
	items  []content.NavItem
	loaded bool
}

// addGlobalsAndNavigation adds global/globals and navigation/navigations to the root fields.
func (a *api) addGlobalsAndNavigation(root gql.Fields, jsonType *gql.Scalar) {
	globalType := gql.NewObject(gql.ObjectConfig{
		Name:        "Global",
		Description: "A global: one set of values used across the site.",
		Fields: gql.Fields{
			"handle": {Type: gql.NewNonNull(gql.String), Resolve: func(p gql.ResolveParams) (any, error) {
				return p.Source.(*globalObj).def.Handle, nil
			}},
			"title": {Type: gql.String, Resolve: func(p gql.ResolveParams) (any, error) {
				return p.Source.(*globalObj).def.Title, nil
			}},
			"data": {Type: gql.NewNonNull(jsonType), Description: "The stored values, field handle to value.", Resolve: a.resolveGlobalData},
		},
	})
	var itemType *gql.Object
	itemType = gql.NewObject(gql.ObjectConfig{
		Name:        "NavigationItem",
		Description: "One link (or heading) of a navigation tree.",
		Fields: gql.FieldsThunk(func() gql.Fields {
			return gql.Fields{
				"label": {Type: gql.NewNonNull(gql.String), Resolve: func(p gql.ResolveParams) (any, error) {
					return p.Source.(*navItem).item.Label, nil
				}},
				"url": {Type: gql.String, Description: "The link; for an entry reference, the entry's public URL (null while it is unpublished or missing).", Resolve: a.resolveItemURL},
				"entry": {Type: gql.String, Description: "An entry reference, <collection>/<slug>.", Resolve: func(p gql.ResolveParams) (any, error) {
					if e := p.Source.(*navItem).item.Entry; e != "" {
						return e, nil
					}
					return nil, nil
				}},
				"external": {Type: gql.Boolean, Resolve: func(p gql.ResolveParams) (any, error) {
					return p.Source.(*navItem).item.External, nil
				}},
				"children": {Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(itemType))), Resolve: func(p gql.ResolveParams) (any, error) {
					return navItems(p.Source.(*navItem).item.Children), nil
				}},
			}
		}),
	})
	navType := gql.NewObject(gql.ObjectConfig{
		Name:        "Navigation",
		Description: "A navigation tree.",
		Fields: gql.Fields{
			"handle": {Type: gql.NewNonNull(gql.String), Resolve: func(p gql.ResolveParams) (any, error) {
				return p.Source.(*navObj).def.Handle, nil
			}},
			"title": {Type: gql.String, Resolve: func(p gql.ResolveParams) (any, error) {
				return p.Source.(*navObj).def.Title, nil
			}},
			"items": {Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(itemType))), Resolve: a.resolveNavItems},
		},
	})
	root["global"] = &gql.Field{
		Type:    globalType,
		Args:    gql.FieldConfigArgument{"handle": {Type: gql.NewNonNull(gql.String)}},
		Resolve: a.resolveGlobal,
	}
	root["globals"] = &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(globalType))), Resolve: a.resolveGlobals}
	root["navigation"] = &gql.Field{
		Type:    navType,
		Args:    gql.FieldConfigArgument{"handle": {Type: gql.NewNonNull(gql.String)}},
		Resolve: a.resolveNavigation,
	}
	root["navigations"] = &gql.Field{Type: gql.NewNonNull(gql.NewList(gql.NewNonNull(navType))), Resolve: a.resolveNavigations}
}

func (a *api) resolveGlobal(p gql.ResolveParams) (any, error) {
	if err := stateFrom(p.Context).require("globals", "view", ""); err != nil {
		return nil, err
	}
	h, _ := p.Args["handle"].(string)
	def, err := a.Store.GlobalDef(h)
	if err != nil {
		if content.IsNotFound(err) {
			return nil, newError(CodeNotFound, "Global %q not found", h)
		}
		return nil, err
	}
	return &globalObj{def: def}, nil
}

func (a *api) resolveGlobals(p gql.ResolveParams) (any, error) {
	if err := stateFrom(p.Context).require("globals", "view", ""); err != nil {
		return nil, err
	}
	defs := a.Store.GlobalDefs()
	out := make([]*globalObj, len(defs))
	for i, d := range defs {
		out[i] = &globalObj{def: d}
	}
	return out, nil
}

func (a *api) resolveGlobalData(p gql.ResolveParams) (any, error) {
	g := p.Source.(*globalObj)
	if err := stateFrom(p.Context).ctx.Err(); err != nil {
		return nil, err
	}
	if !g.loaded {
		doc, err := a.Store.Global(g.def.Handle)
		if err != nil {
			return nil, err
		}
		if doc.Data == nil {
			doc.Data = content.NewMap(0)
		}
		g.data, g.loaded = doc.Data, true
	}
	return g.data, nil
}

func (a *api) resolveNavigation(p gql.ResolveParams) (any, error) {
	if err := stateFrom(p.Context).require("navigation", "view", ""); err != nil {
		return nil, err
	}
	h, _ := p.Args["handle"].(string)
	def, err := a.Store.NavigationDef(h)
	if err != nil {
		if content.IsNotFound(err) {
			return nil, newError(CodeNotFound, "Navigation %q not found", h)
		}
		return nil, err
	}
	return &navObj{def: def}, nil
}

func (a *api) resolveNavigations(p gql.ResolveParams) (any, error) {
	if err := stateFrom(p.Context).require("navigation", "view", ""); err != nil {
		return nil, err
	}
	defs := a.Store.NavigationDefs()
	out := make([]*navObj, len(defs))
	for i, d := range defs {
		out[i] = &navObj{def: d}
	}
	return out, nil
}

func (a *api) resolveNavItems(p gql.ResolveParams) (any, error) {
	n := p.Source.(*navObj)
	if err := stateFrom(p.Context).ctx.Err(); err != nil {
		return nil, err
	}
	if !n.loaded {
		tree, err := a.Store.Navigation(n.def.Handle)
		if err != nil {
			return nil, err
		}
		n.items, n.loaded = tree.Items, true
	}
	return navItems(n.items), nil
}

// navItem is the source of a NavigationItem.
type navItem struct {
	item *content.NavItem
}

func navItems(items []content.NavItem) []*navItem {
	out := make([]*navItem, len(items))
	for i := range items {
		out[i] = &navItem{item: &items[i]}
	}
	return out
}

// resolveItemURL returns the public URL of an item's entry while it is published, or else the
// item's own url. An item edited by hand to have both resolves to its entry, as everywhere
// (navtree.URLAndEntry).
func (a *api) resolveItemURL(p gql.ResolveParams) (any, error) {
	it := p.Source.(*navItem).item
	if it.Entry == "" {
		if it.URL != "" {
			return it.URL, nil
		}
		return nil, nil
	}
	c, rest, ok := strings.Cut(it.Entry, "/")
	if !ok {
		return nil, nil
	}
	// The last segment is the slug ({parent_uri} references carry the parents before it).
	slug := rest[strings.LastIndexByte(rest, '/')+1:]
	coll, err := a.Store.Collection(c)
	if err != nil {
		return nil, nil
	}
	e, err := a.Store.EntryMeta(c, slug)
	if err != nil || !e.Published() {
		return nil, nil
	}
	if u := content.EntryURL(coll, e); u != "" {
		return a.Site.PageLink(u), nil
	}
	return nil, nil
}
