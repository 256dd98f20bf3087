package publicentries

import (
	"encoding/json"
	"net/http"
	"strings"

	"cms/content"
	"cms/handlers/web"
)

// ResourceStore is what the public resources read: definitions, global values, navigation trees
// and taxonomy terms. Only definitions with `public: true` are ever served; users, roles, form
// submissions and settings have no public route at all.
type ResourceStore interface {
	Collections() []*content.Collection
	// GlobalDef, NavigationDef and Taxonomy return a NotFound error for an unknown handle.
	GlobalDef(h string) (*content.GlobalDef, error)
	Global(h string) (content.Doc, error)
	NavigationDef(h string) (*content.NavigationDef, error)
	Navigation(h string) (content.NavTree, error)
	Taxonomy(h string) (*content.Taxonomy, error)
	Terms(tax string) ([]*content.Term, error)
	Term(tax, slug string) (*content.Term, string, error)
}

// resourceRoutes are the public resource routes (none without a ResourceStore).
func (a *api) resourceRoutes() []route {
	if a.Resources == nil {
		return nil
	}
	b := a.BasePath
	return []route{
		{"GET " + b + "/collections", a.collections},
		{"GET " + b + "/globals/{handle}", a.global},
		{"GET " + b + "/navigation/{handle}", a.navigation},
		{"GET " + b + "/taxonomies/{handle}", a.terms},
		{"GET " + b + "/taxonomies/{handle}/{slug}", a.term},
	}
}

type route struct {
	pattern string
	h       func(http.ResponseWriter, *http.Request) error
}

// handle returns the path's handle, or a 400 for one that cannot name a file.
func handle(r *http.Request, name string) (string, error) {
	h := r.PathValue(name)
	if !content.ValidHandle(h) {
		return "", web.BadRequest("Invalid %s %q", name, h)
	}
	return h, nil
}

// writeResource encodes {"data": v} and sends it with an ETag of the body and the entries'
// caching, answering If-None-Match with 304. These responses are small and read a file or two,
// so they are built per request rather than cached.
func (a *api) writeResource(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := json.Marshal(struct {
		Data any `json:"data"`
	}{v})
	if err != nil {
		return err
	}
	return a.write(w, r, etagOf(body), body)
}

// publicCollection is a collection definition as anonymous clients see it: what a frontend
// needs to link and list entries, not the blueprint, templates or editing defaults.
type publicCollection struct {
	Handle        string   `json:"handle"`
	Title         string   `json:"title"`
	Route         string   `json:"route"`
	Dated         bool     `json:"dated"`
	Sortable      bool     `json:"sortable"`
	SortDirection string   `json:"sortDirection,omitempty"`
	Taxonomies    []string `json:"taxonomies"`
}

// GET {base}/collections: the definitions of the collections that opt in.
func (a *api) collections(w http.ResponseWriter, r *http.Request) error {
	out := []publicCollection{}
	for _, c := range a.Resources.Collections() {
		if !c.Public {
			continue
		}
		route := c.Route
		if route == "" {
			route = content.DefaultRoute
		}
		taxes := c.Taxonomies
		if taxes == nil {
			taxes = []string{}
		}
		out = append(out, publicCollection{Handle: c.Handle, Title: c.Title, Route: route, Dated: c.Dated,
			Sortable: c.Sortable, SortDirection: c.SortDirection, Taxonomies: taxes})
	}
	return a.writeResource(w, r, out)
}

// GET {base}/globals/{handle}: the values of a public global.
func (a *api) global(w http.ResponseWriter, r *http.Request) error {
	h, err := handle(r, "handle")
	if err != nil {
		return err
	}
	def, err := a.Resources.GlobalDef(h)
	if err != nil || !def.Public {
		return notFoundUnlessErr(err, "Global %q not found", h)
	}
	doc, err := a.Resources.Global(h)
	if err != nil {
		return notFoundUnlessErr(err, "Global %q not found", h)
	}
	return a.writeResource(w, r, doc.Data)
}

// publicNavigation is a navigation tree as anonymous clients see it.
type publicNavigation struct {
	Handle string `json:"handle"`
	Title  string `json:"title"`
	Items  []any  `json:"items"`
}

// GET {base}/navigation/{handle}: a public navigation tree, each entry item with its entry's
// public URL. An item whose entry is missing or unpublished is left out with its children, so a
// draft is never linked or revealed.
func (a *api) navigation(w http.ResponseWriter, r *http.Request) error {
	h, err := handle(r, "handle")
	if err != nil {
		return err
	}
	def, err := a.Resources.NavigationDef(h)
	if err != nil || !def.Public {
		return notFoundUnlessErr(err, "Navigation %q not found", h)
	}
	tree, err := a.Resources.Navigation(h)
	if err != nil {
		return notFoundUnlessErr(err, "Navigation %q not found", h)
	}
	urls := map[string]string{} // entry reference -> URL, "" = not public
	return a.writeResource(w, r, publicNavigation{Handle: def.Handle, Title: def.Title, Items: a.navItems(tree.Items, urls, a.requestSite(r))})
}

func (a *api) navItems(items []content.NavItem, urls map[string]string, st content.Site) []any {
	out := make([]any, 0, len(items))
	for _, it := range items {
		m := content.NewMap(5 + it.Extra.Len())
		m.Set("label", it.Label)
		switch {
		case it.Entry != "":
			u, seen := urls[it.Entry]
			if !seen {
				u = a.publishedURL(it.Entry, st)
				urls[it.Entry] = u
			}
			if u == "" {
				continue // missing or unpublished: not for the public
			}
			m.Set("url", u)
			m.Set("entry", it.Entry)
		case it.URL != "":
			m.Set("url", it.URL)
		}
		if it.External {
			m.Set("external", true)
		}
		for _, k := range it.Extra.Keys() {
			if _, taken := m.Get(k); !taken && k != "children" {
				m.Set(k, it.Extra.Value(k))
			}
		}
		if len(it.Children) > 0 {
			m.Set("children", a.navItems(it.Children, urls, st))
		}
		out = append(out, m)
	}
	return out
}

// publishedURL returns the public URL of "<collection>/<slug>" on site st while that entry is
// published, else "". The last segment is the slug ({parent_uri} references carry parents
// before it).
func (a *api) publishedURL(ref string, st content.Site) string {
	c, rest, ok := strings.Cut(ref, "/")
	if !ok {
		return ""
	}
	slug := rest[strings.LastIndexByte(rest, '/')+1:]
	coll, err := a.Store.Collection(c)
	if err != nil {
		return ""
	}
	e, err := a.Store.EntryMeta(c, slug)
	if err != nil || !e.Published() {
		return ""
	}
	return entryLink(st, coll, e)
}

// publicTaxonomy resolves the path's taxonomy when it opts in.
func (a *api) publicTaxonomy(r *http.Request) (*content.Taxonomy, error) {
	h, err := handle(r, "handle")
	if err != nil {
		return nil, err
	}
	t, err := a.Resources.Taxonomy(h)
	if err != nil || !t.Public {
		return nil, notFoundUnlessErr(err, "Taxonomy %q not found", h)
	}
	return t, nil
}

// GET {base}/taxonomies/{handle}: the terms of a public taxonomy.
func (a *api) terms(w http.ResponseWriter, r *http.Request) error {
	t, err := a.publicTaxonomy(r)
	if err != nil {
		return err
	}
	terms, err := a.Resources.Terms(t.Handle)
	if err != nil {
		return notFoundUnlessErr(err, "Taxonomy %q not found", t.Handle)
	}
	return a.writeResource(w, r, terms)
}

// GET {base}/taxonomies/{handle}/{slug}: one term of a public taxonomy.
func (a *api) term(w http.ResponseWriter, r *http.Request) error {
	t, err := a.publicTaxonomy(r)
	if err != nil {
		return err
	}
	slug, err := handle(r, "slug")
	if err != nil {
		return err
	}
	term, _, err := a.Resources.Term(t.Handle, slug)
	if err != nil {
		return notFoundUnlessErr(err, "Term %q not found", t.Handle+"/"+slug)
	}
	return a.writeResource(w, r, term)
}

// notFoundUnlessErr turns a missing (or not public) resource into the 404 of the message, and
// passes any other error on.
func notFoundUnlessErr(err error, format string, args ...any) error {
	if err == nil || content.IsNotFound(err) {
		return web.NotFound(format, args...)
	}
	return err
}
