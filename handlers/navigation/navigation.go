// Package navigation is the Control Panel API for navigation trees (menus):
//
//	GET /api/navigation           navigation:view  {"data":[{handle,title,max_depth,collections,items}]}
//	GET /api/navigation/{handle}  navigation:view  {"data":{handle,title,max_depth,collections,items}}, with an ETag
//	PUT /api/navigation/{handle}  navigation:edit  {"items":[...]}; answered like GET
//	GET /api/navigation/{handle}/blueprint  navigation:view  its item blueprint and set fieldsets (CP editor)
//
// A navigation is defined by resources/navigations/{handle}.yaml (title, max_depth,
// collections, blueprint) and its tree lives in content/navigation/{handle}.yaml under items.
// A tree file without a definition is served as an unconstrained navigation; a handle with
// neither is 404, and PUT never creates a navigation silently. The tree file is read on every
// request, so a hand edit takes effect on the next one; one that does not parse is a 500 on GET
// (logged with its line), and PUT replaces it.
//
// An item has a non-empty label and at most one of url (absolute http(s), mailto: or tel:, or
// relative) and entry ("<collection>/<slug>"); an item with neither is a heading, one with both
// is refused at its path (items[2].children[1]). external is a
// boolean, children a list of items, and other keys (an icon, say) are kept and checked against
// the definition's blueprint when it has fields for them. PUT refuses, in this order:
//
//   - malformed JSON: 400 BAD_REQUEST;
//   - a bad item: 422 VALIDATION_ERROR with fields keyed by item path, e.g. items[2].children[0].url;
//     more than MaxItems items or more than MaxNesting levels is refused the same way;
//   - a tree deeper than max_depth (a flat list is depth 0, each level of children adds 1):
//     422 DEPTH_EXCEEDED with maxDepth and actualDepth inside the error object;
//   - an entry reference to a collection the definition does not list (when it lists any), or
//     to an entry that does not exist: 422 INVALID_ENTRY_REFERENCE with fields and references.
//
// Responses add to every entry item its resolved url (from the collection's route), or url null
// and "missing": true when the entry is gone (a file edited by hand may say anything, including
// both a url and an entry: the entry's url is served and the store logs it). A client sending
// back a tree it read leaves out the url of entry items, as the CP does; a null url and the
// missing flag are ignored. PUT with If-Match set to the ETag of a GET is refused with
// 409 CONFLICT when the file changed meanwhile; without it the last write wins.
package navigation

import (
	"errors"
	"log/slog"
	"net/http"

	"cms/content"
	"cms/content/validate"
	"cms/handlers/web"
)

// Store is what the group reads and writes: the methods of fsstore.Store it calls.
type Store interface {
	// NavigationDefs lists every navigation (with a definition or a tree file), sorted by handle.
	NavigationDefs() []*content.NavigationDef
	// NavigationDef returns a navigation's definition, implicit for a tree file without one, or
	// a NotFound error.
	NavigationDef(handle string) (*content.NavigationDef, error)
	// Navigation reads a tree fresh from disk; a missing file is an empty tree, Exists false.
	Navigation(handle string) (content.NavTree, error)
	// SaveNavigation replaces a tree; a wantHash that does not match is a Conflict error.
	SaveNavigation(handle string, items []content.NavItem, wantHash string) (content.NavTree, error)
	// Collection returns a collection definition, or a NotFound error.
	Collection(handle string) (*content.Collection, error)
	// EntryMeta returns an entry without its body, or a NotFound error.
	EntryMeta(collection, slug string) (*content.Entry, error)
	// Blueprint returns a blueprint of a kind, or a NotFound error.
	Blueprint(kind, handle string) (*content.Blueprint, error)
	// Fieldsets lists the fieldsets sorted by handle (the sets of replicator fields).
	Fieldsets() []*content.Fieldset
}

// Deps are the inputs of the group.
type Deps struct {
	Store Store
	// As returns the store whose writes are attributed to an editor (git sync); nil = Store.
	As func(content.Editor) Store
	// Auth identifies callers. When nil every request is answered 401.
	Auth web.Authenticator
	// Hooks runs WASM validation hooks named by the navigation blueprint's rules.
	Hooks validate.HookRunner
	Log   *slog.Logger
	// BodyLimit bounds request bodies; 0 means 1 MiB.
	BodyLimit int64
}

// Bounds on a tree sent by a client, against abuse rather than taste.
const (
	MaxItems    = 2000 // items in the whole tree
	MaxNesting  = 32   // levels of children
	MaxLabelLen = 500  // characters of a label
	MaxURLLen   = 2048 // bytes of a url
)

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/navigation", "/api/navigation/"} }

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("navigation: Store is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.BodyLimit <= 0 {
		d.BodyLimit = web.DefaultBodyLimit
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/navigation", a.list)
	rt.HandleFunc("GET /api/navigation/{handle}", a.get)
	rt.HandleFunc("PUT /api/navigation/{handle}", a.put)
	rt.HandleFunc("GET /api/navigation/{handle}/blueprint", a.blueprint)
	rt.NotFound("/api/navigation/")
	return rt, nil
}
