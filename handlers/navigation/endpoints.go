package navigation

import (
	"fmt"
	"net/http"
	"slices"

	"cms/content"
	"cms/content/navtree"
	"cms/content/validate"
	"cms/handlers/web"
)

// navigation is the wire shape of one navigation.
type navigation struct {
	Handle      string   `json:"handle"`
	Title       string   `json:"title"`
	MaxDepth    *int     `json:"max_depth"`
	Collections []string `json:"collections"`
	Items       []any    `json:"items"`
}

// DepthDetails are the facts of a DEPTH_EXCEEDED error, written inside the error object.
type DepthDetails struct {
	MaxDepth    int `json:"maxDepth"`
	ActualDepth int `json:"actualDepth"`
}

// Reference is one invalid entry reference of an INVALID_ENTRY_REFERENCE error.
type Reference struct {
	Path   string `json:"path"`
	Entry  string `json:"entry"`
	Reason string `json:"reason"`
}

// ReferenceDetails are the facts of an INVALID_ENTRY_REFERENCE error.
type ReferenceDetails struct {
	References []Reference `json:"references"`
}

// Reasons of invalid references (Madori's wording).
const (
	reasonNotAllowed = "Collection is not allowed for this navigation."
	reasonMissing    = "Referenced entry does not exist."
)

// GET /api/navigation: every navigation with its items.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "navigation", "view", ""); err != nil {
		return err
	}
	defs := a.Store.NavigationDefs()
	res := newResolver(a.Store)
	out := make([]navigation, 0, len(defs))
	for _, d := range defs {
		tree, err := a.Store.Navigation(d.Handle)
		if err != nil {
			return err
		}
		out = append(out, wire(d, tree.Items, res))
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

func wire(d *content.NavigationDef, items []content.NavItem, res *resolver) navigation {
	cols := d.Collections
	if cols == nil {
		cols = []string{}
	}
	return navigation{Handle: d.Handle, Title: d.Title, MaxDepth: d.MaxDepth, Collections: cols, Items: res.items(items)}
}

// definition resolves the handle of the request to a definition, explicit or implicit (the
// store's rule: a tree file without a definition file is a navigation without constraints).
func (a *api) definition(r *http.Request) (*content.NavigationDef, error) {
	h := r.PathValue("handle")
	if !content.ValidHandle(h) {
		return nil, web.BadRequest("Invalid navigation handle %q", h)
	}
	return a.Store.NavigationDef(h)
}

// GET /api/navigation/{handle}: one navigation, with an ETag.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "navigation", "view", ""); err != nil {
		return err
	}
	d, err := a.definition(r)
	if err != nil {
		return err
	}
	tree, err := a.Store.Navigation(d.Handle)
	if err != nil {
		return err
	}
	etag := `"` + tree.Hash + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "private, no-cache")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: wire(d, tree.Items, newResolver(a.Store))})
	return nil
}

// PUT /api/navigation/{handle}: replace a navigation's items.
func (a *api) put(w http.ResponseWriter, r *http.Request) error {
	const op = "navigation.put"
	who, err := web.Require(a.Auth, r, "navigation", "edit", "")
	if err != nil {
		return err
	}
	d, err := a.definition(r)
	if err != nil {
		return err
	}
	want, err := web.IfMatch(r)
	if err != nil {
		return err
	}
	m := content.NewMap(1)
	if err := web.DecodeJSON(w, r, a.BodyLimit, m); err != nil {
		return err
	}
	items, fe := decodeItems(m.Value("items"))
	if err := fe.Err(op, "Navigation items are invalid"); err != nil {
		return err
	}
	if d.MaxDepth != nil {
		if depth := navtree.Depth(items); depth > *d.MaxDepth {
			return &content.Error{Kind: content.Invalid, Op: op, Code: "DEPTH_EXCEEDED",
				Message: fmt.Sprintf("Navigation tree depth (%d) exceeds the configured maximum depth (%d)", depth, *d.MaxDepth),
				Details: DepthDetails{MaxDepth: *d.MaxDepth, ActualDepth: depth}}
		}
	}
	res := newResolver(a.Store)
	if err := a.checkReferences(op, d, items, res); err != nil {
		return err
	}
	if err := a.checkExtras(r, op, d, items); err != nil {
		return err
	}
	tree, err := a.storeFor(who).SaveNavigation(d.Handle, items, want)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", `"`+tree.Hash+`"`)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: wire(d, tree.Items, res)})
	return nil
}

// checkReferences refuses entry items that point outside the definition's collections or at
// entries that do not exist.
func (a *api) checkReferences(op string, d *content.NavigationDef, items []content.NavItem, res *resolver) error {
	var bad []Reference
	var walk func(items []content.NavItem, at string)
	walk = func(items []content.NavItem, at string) {
		for i := range items {
			it := &items[i]
			p := fmt.Sprintf("%s[%d]", at, i)
			if it.Entry != "" {
				c, _, _ := splitRef(it.Entry)
				_, ok := res.url(it.Entry)
				switch {
				case len(d.Collections) > 0 && !slices.Contains(d.Collections, c):
					bad = append(bad, Reference{Path: p, Entry: it.Entry, Reason: reasonNotAllowed})
				case !ok:
					bad = append(bad, Reference{Path: p, Entry: it.Entry, Reason: reasonMissing})
				}
			}
			walk(it.Children, p+".children")
		}
	}
	walk(items, "items")
	if len(bad) == 0 {
		return nil
	}
	fields := map[string][]string{}
	for _, b := range bad {
		fields[b.Path+".entry"] = append(fields[b.Path+".entry"], b.Reason)
	}
	return &content.Error{Kind: content.Invalid, Op: op, Code: "INVALID_ENTRY_REFERENCE",
		Message: "Navigation contains invalid entry references", Fields: fields,
		Details: ReferenceDetails{References: bad}}
}

// checkExtras validates the extra keys of every item (an icon, say) against the fields of the
// navigation's blueprint that are not the built-in item keys.
func (a *api) checkExtras(r *http.Request, op string, d *content.NavigationDef, items []content.NavItem) error {
	bp, err := validate.FindBlueprint(a.Store, content.BlueprintNavigations, d.Blueprint)
	if err != nil || bp == nil {
		return err
	}
	var fields []content.Field
	for _, f := range bp.Fields() {
		switch f.Handle {
		case "label", "url", "entry", "external", "children":
		default:
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		return nil
	}
	fe := content.FieldErrors{}
	var walk func(items []content.NavItem, at string) error
	walk = func(items []content.NavItem, at string) error {
		for i, it := range items {
			p := fmt.Sprintf("%s[%d]", at, i)
			values := it.Extra
			if values == nil {
				values = content.NewMap(0)
			}
			got, err := validate.Values(r.Context(), fields, values, validate.Options{Hooks: a.Hooks, Form: d.Handle, Log: a.Log})
			if err != nil {
				return err
			}
			for k, msgs := range got {
				for _, m := range msgs {
					fe.Add(p+"."+k, m)
				}
			}
			if err := walk(it.Children, p+".children"); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(items, "items"); err != nil {
		return err
	}
	return validate.BlueprintError(op, "Navigation item data", bp, fe)
}

// resolver finds the public URLs of entry references, remembering each answer for a request.
type resolver struct {
	store Store
	cols  map[string]*content.Collection
	urls  map[string]string
	found map[string]bool
}

func newResolver(s Store) *resolver {
	return &resolver{store: s, cols: map[string]*content.Collection{}, urls: map[string]string{}, found: map[string]bool{}}
}

// url returns the public URL of "<collection>/<slug>" and whether the entry exists.
func (r *resolver) url(ref string) (string, bool) {
	if ok, seen := r.found[ref]; seen {
		return r.urls[ref], ok
	}
	u, ok := r.lookup(ref)
	r.found[ref], r.urls[ref] = ok, u
	return u, ok
}

func (r *resolver) lookup(ref string) (string, bool) {
	c, slug, ok := splitRef(ref)
	if !ok {
		return "", false
	}
	coll, seen := r.cols[c]
	if !seen {
		coll, _ = r.store.Collection(c)
		r.cols[c] = coll
	}
	if coll == nil {
		return "", false
	}
	e, err := r.store.EntryMeta(c, slug)
	if err != nil {
		return "", false
	}
	return content.EntryURL(coll, e), true
}

// items renders a tree for a response: label, url (resolved for entry items), entry, external,
// the extra keys, children, and missing for dangling references. An item with both a url and an
// entry (a file edited by hand; see navtree.URLAndEntry) gets its entry's url.
func (r *resolver) items(items []content.NavItem) []any {
	out := make([]any, len(items))
	for i, it := range items {
		m := content.NewMap(5 + it.Extra.Len())
		m.Set("label", it.Label)
		missing := false
		switch {
		case it.Entry != "":
			if u, ok := r.url(it.Entry); ok {
				m.Set("url", u)
			} else {
				m.Set("url", nil)
				missing = true
			}
		case it.URL != "":
			m.Set("url", it.URL)
		}
		if it.Entry != "" {
			m.Set("entry", it.Entry)
		}
		if it.External {
			m.Set("external", true)
		}
		for _, k := range it.Extra.Keys() {
			if _, taken := m.Get(k); !taken && k != "children" && k != "missing" {
				m.Set(k, it.Extra.Value(k))
			}
		}
		if len(it.Children) > 0 {
			m.Set("children", r.items(it.Children))
		}
		if missing {
			m.Set("missing", true)
		}
		out[i] = m
	}
	return out
}

// GET /api/navigation/{handle}/blueprint: the blueprint of the navigation's items (null when it
// has none), whose fields beyond label, url, entry and external the CP's item editor shows, and
// the fieldsets its replicator, blocks and grid fields offer as sets.
func (a *api) blueprint(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "navigation", "view", ""); err != nil {
		return err
	}
	d, err := a.definition(r)
	if err != nil {
		return err
	}
	return web.WriteBlueprint(w, a.Store, content.BlueprintNavigations, d.Blueprint)
}
