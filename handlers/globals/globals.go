// Package globals is the Control Panel API for globals, the site-wide sets of values such as a
// site name or social links:
//
//	GET /api/globals           globals:view  {"data":[{handle,title,blueprint}]}
//	GET /api/globals/{handle}  globals:view  {"data":{...values}}, with an ETag
//	PUT /api/globals/{handle}  globals:edit  a JSON object of all the values; answered like GET
//	GET /api/globals/{handle}/blueprint  globals:view  its blueprint and set fieldsets (CP editor)
//
// A global is defined by resources/globals/{handle}.yaml and its values live in
// content/globals/{handle}.yaml; a data file without a definition (as Madori sites may have) is
// served as a global whose blueprint is named after it. A handle with neither is 404, and PUT
// never creates a global silently. A data file that does not parse (a bad hand edit) is a 500
// on GET, logged with its line; PUT replaces it.
//
// PUT replaces the values as a whole (keys left out are removed), after checking them against
// resources/blueprints/globals/{blueprint}.yaml when it exists (422 VALIDATION_ERROR with
// fields). Keys the blueprint does not know are kept, as Madori keeps them. The file keeps the
// order of the keys it already has; new keys are appended. Writes are atomic.
//
// Concurrency is optimistic when the client asks for it: PUT with If-Match set to the ETag of
// its GET is refused with 409 CONFLICT when the file changed meanwhile. Without If-Match the last
// write wins. Every endpoint checks its permission before it reads or writes anything.
package globals

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
	// GlobalDefs lists the global definitions sorted by handle.
	GlobalDefs() []*content.GlobalDef
	// GlobalDef returns a global definition, or a NotFound error.
	GlobalDef(handle string) (*content.GlobalDef, error)
	// GlobalDataHandles lists the handles of the global data files, sorted.
	GlobalDataHandles() ([]string, error)
	// Global reads a global's data file; a missing file is an empty Doc with Exists false.
	Global(handle string) (content.Doc, error)
	// SaveGlobal replaces a global's data; a wantHash that does not match is a Conflict error.
	SaveGlobal(handle string, data *content.Map, wantHash string) (content.Doc, error)
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
	// Hooks runs WASM validation hooks named by blueprint rules. When nil, a blueprint that
	// calls a hook refuses the save with HOOK_UNAVAILABLE.
	Hooks validate.HookRunner
	Log   *slog.Logger
	// BodyLimit bounds request bodies; 0 means 1 MiB.
	BodyLimit int64
}

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/globals", "/api/globals/"} }

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("globals: Store is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.BodyLimit <= 0 {
		d.BodyLimit = web.DefaultBodyLimit
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/globals", a.list)
	rt.HandleFunc("GET /api/globals/{handle}", a.get)
	rt.HandleFunc("PUT /api/globals/{handle}", a.put)
	rt.HandleFunc("GET /api/globals/{handle}/blueprint", a.blueprint)
	rt.NotFound("/api/globals/")
	return rt, nil
}
