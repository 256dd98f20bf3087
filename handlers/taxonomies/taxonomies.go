// Package taxonomies is the Control Panel API for taxonomies and their terms:
//
//	GET    /api/taxonomies                        taxonomies:view    {"data":[{handle,title,blueprint?,route?}]}
//	GET    /api/taxonomies/{taxonomy}             taxonomies:view    {"data":{handle,title,blueprint?,route?}}
//	GET    /api/taxonomies/{taxonomy}/blueprint   taxonomies:view    its term blueprint and set fieldsets (CP editor)
//	GET    /api/taxonomies/{taxonomy}/terms       taxonomies:view    {"data":[Term]} in slug order
//	POST   /api/taxonomies/{taxonomy}/terms       taxonomies:create  201 {"data":Term}
//	GET    /api/taxonomies/{taxonomy}/terms/{slug} taxonomies:view   {"data":Term}, with an ETag
//	PUT    /api/taxonomies/{taxonomy}/terms/{slug} taxonomies:edit   {"data":Term}
//	DELETE /api/taxonomies/{taxonomy}/terms/{slug} taxonomies:delete 204
//
// Taxonomies are defined by resources/taxonomies/{handle}.yaml; an undefined taxonomy is 404.
// A term is the file content/taxonomies/{taxonomy}/{slug}.yaml holding its title, description
// and any other fields, and reads as Term: {taxonomy, slug, title, description?, data}.
//
// POST and PUT take {slug?, title, description?, data?}; other top-level keys are taken as data
// too, so Madori's flat {slug, title, ...} bodies work. POST derives the slug from the title when
// none is given and answers 409 CONFLICT when it is taken. PUT replaces the term as a whole and
// cannot rename it (a different slug is 422). Values are checked against
// resources/blueprints/taxonomies/{blueprint}.yaml when it exists, as the file would hold them
// (title, description and the data keys): 422 VALIDATION_ERROR with fields. PUT with If-Match set
// to the ETag of a GET is refused with 409 CONFLICT when the file changed meanwhile.
//
// Entries reference terms by slug in a list field of collections that list the taxonomy (a
// field of type taxonomy, or the field named after the taxonomy). DELETE refuses to remove a
// term that entries still reference, with 409 CONFLICT and the references (at most
// MaxReferences) in the error, unless the request says ?force=true: a dangling slug in an entry
// is harmless to the store but surprising to editors, so removing one is a deliberate act.
package taxonomies

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
	// Taxonomies lists the taxonomy definitions sorted by handle.
	Taxonomies() []*content.Taxonomy
	// Taxonomy returns a taxonomy definition, or a NotFound error.
	Taxonomy(handle string) (*content.Taxonomy, error)
	// Terms lists a taxonomy's terms; an undefined taxonomy is a NotFound error.
	Terms(taxonomy string) ([]*content.Term, error)
	// Term reads a term and its file hash, or returns a NotFound error.
	Term(taxonomy, slug string) (*content.Term, string, error)
	// CreateTerm writes a new term; a taken slug is a Conflict error.
	CreateTerm(t *content.Term) (*content.Term, string, error)
	// UpdateTerm replaces an existing term; a missing term is a NotFound error, a wantHash that
	// does not match a Conflict error.
	UpdateTerm(t *content.Term, wantHash string) (*content.Term, string, error)
	// DeleteTerm removes a term, or returns a NotFound error.
	DeleteTerm(taxonomy, slug string) error
	// TermReferences lists up to limit entries ("collection/slug") that reference a term.
	TermReferences(taxonomy, slug string, limit int) ([]string, error)
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
	// Hooks runs WASM validation hooks named by term blueprint rules.
	Hooks validate.HookRunner
	Log   *slog.Logger
	// BodyLimit bounds request bodies; 0 means 1 MiB.
	BodyLimit int64
}

// MaxReferences bounds the entries named by a refused DELETE.
const MaxReferences = 50

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/taxonomies", "/api/taxonomies/"} }

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("taxonomies: Store is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.BodyLimit <= 0 {
		d.BodyLimit = web.DefaultBodyLimit
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	rt.HandleFunc("GET /api/taxonomies", a.list)
	rt.HandleFunc("GET /api/taxonomies/{taxonomy}", a.get)
	rt.HandleFunc("GET /api/taxonomies/{taxonomy}/blueprint", a.blueprint)
	rt.HandleFunc("GET /api/taxonomies/{taxonomy}/terms", a.terms)
	rt.HandleFunc("POST /api/taxonomies/{taxonomy}/terms", a.create)
	rt.HandleFunc("GET /api/taxonomies/{taxonomy}/terms/{slug}", a.term)
	rt.HandleFunc("PUT /api/taxonomies/{taxonomy}/terms/{slug}", a.update)
	rt.HandleFunc("DELETE /api/taxonomies/{taxonomy}/terms/{slug}", a.remove)
	rt.NotFound("/api/taxonomies/")
	return rt, nil
}
