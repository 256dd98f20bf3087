package taxonomies

import (
	"net/http"

	"cms/content"
	"cms/content/access"
	"cms/handlers/web"
)

// taxonomy resolves the taxonomy of the request.
func (a *api) taxonomy(r *http.Request) (*content.Taxonomy, error) {
	h := r.PathValue("taxonomy")
	if !content.ValidHandle(h) {
		return nil, web.BadRequest("Invalid taxonomy handle %q", h)
	}
	return a.Store.Taxonomy(h)
}

// slug returns the term slug of the request.
func slug(r *http.Request) (string, error) {
	s := r.PathValue("slug")
	if !content.ValidHandle(s) {
		return "", web.BadRequest("Invalid term slug %q", s)
	}
	return s, nil
}

// termRequest checks the taxonomies permission for action, then resolves the taxonomy and the
// term slug of the path (in that order: nothing is read before the permission check). It
// returns the caller too.
func (a *api) termRequest(r *http.Request, action string) (*access.Principal, *content.Taxonomy, string, error) {
	p, err := web.Require(a.Auth, r, "taxonomies", action, "")
	if err != nil {
		return nil, nil, "", err
	}
	t, err := a.taxonomy(r)
	if err != nil {
		return nil, nil, "", err
	}
	s, err := slug(r)
	if err != nil {
		return nil, nil, "", err
	}
	return p, t, s, nil
}

// GET /api/taxonomies: every taxonomy.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "taxonomies", "view", ""); err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: a.Store.Taxonomies()})
	return nil
}

// GET /api/taxonomies/{taxonomy}: one taxonomy.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "taxonomies", "view", ""); err != nil {
		return err
	}
	t, err := a.taxonomy(r)
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: t})
	return nil
}

// GET /api/taxonomies/{taxonomy}/terms: the taxonomy's terms in slug order.
func (a *api) terms(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "taxonomies", "view", ""); err != nil {
		return err
	}
	t, err := a.taxonomy(r)
	if err != nil {
		return err
	}
	terms, err := a.Store.Terms(t.Handle)
	if err != nil {
		return err
	}
	for _, term := range terms {
		nonNil(term)
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: terms})
	return nil
}

// GET /api/taxonomies/{taxonomy}/terms/{slug}: one term, with an ETag.
func (a *api) term(w http.ResponseWriter, r *http.Request) error {
	_, t, s, err := a.termRequest(r, "view")
	if err != nil {
		return err
	}
	term, hash, err := a.Store.Term(t.Handle, s)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "private, no-cache")
	return writeTerm(w, http.StatusOK, term, hash)
}

// POST /api/taxonomies/{taxonomy}/terms: create a term.
func (a *api) create(w http.ResponseWriter, r *http.Request) error {
	const op = "taxonomies.create"
	who, err := web.Require(a.Auth, r, "taxonomies", "create", "")
	if err != nil {
		return err
	}
	t, err := a.taxonomy(r)
	if err != nil {
		return err
	}
	in, err := a.decode(w, r, op, t, "")
	if err != nil {
		return err
	}
	term, hash, err := a.storeFor(who).CreateTerm(in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/taxonomies/"+t.Handle+"/terms/"+term.Slug)
	return writeTerm(w, http.StatusCreated, term, hash)
}

// PUT /api/taxonomies/{taxonomy}/terms/{slug}: replace a term.
func (a *api) update(w http.ResponseWriter, r *http.Request) error {
	const op = "taxonomies.update"
	who, t, s, err := a.termRequest(r, "edit")
	if err != nil {
		return err
	}
	want, err := web.IfMatch(r)
	if err != nil {
		return err
	}
	// A missing term is 404 before its body is judged; a term file that does not parse can
	// still be replaced.
	if _, _, err := a.Store.Term(t.Handle, s); content.IsNotFound(err) {
		return err
	}
	in, err := a.decode(w, r, op, t, s)
	if err != nil {
		return err
	}
	term, hash, err := a.storeFor(who).UpdateTerm(in, want)
	if err != nil {
		return err
	}
	return writeTerm(w, http.StatusOK, term, hash)
}

// ReferenceDetails are the facts of a refused DELETE: the entries that reference the term.
type ReferenceDetails struct {
	References []string `json:"references"`
}

// DELETE /api/taxonomies/{taxonomy}/terms/{slug}: delete a term no entry references, or any
// term with ?force=true.
func (a *api) remove(w http.ResponseWriter, r *http.Request) error {
	const op = "taxonomies.remove"
	who, t, s, err := a.termRequest(r, "delete")
	if err != nil {
		return err
	}
	force := false
	switch r.URL.Query().Get("force") {
	case "", "false", "0":
	case "true", "1":
		force = true
	default:
		return web.BadRequest("force must be true or false")
	}
	if _, _, err := a.Store.Term(t.Handle, s); content.IsNotFound(err) {
		return err
	}
	if !force {
		refs, err := a.Store.TermReferences(t.Handle, s, MaxReferences)
		if err != nil {
			return err
		}
		if len(refs) > 0 {
			return &content.Error{Kind: content.Conflict, Op: op,
				Message: "The term is still used by entries; remove it from them first, or delete with ?force=true",
				Details: ReferenceDetails{References: refs}}
		}
	}
	if err := a.storeFor(who).DeleteTerm(t.Handle, s); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func nonNil(t *content.Term) {
	if t.Data == nil {
		t.Data = content.NewMap(0)
	}
}

func writeTerm(w http.ResponseWriter, status int, t *content.Term, hash string) error {
	nonNil(t)
	w.Header().Set("ETag", `"`+hash+`"`)
	web.WriteJSON(w, status, web.Data{Data: t})
	return nil
}

// GET /api/taxonomies/{taxonomy}/blueprint: the blueprint the CP builds the term form from (null
// when there is none), and the fieldsets its replicator, blocks and grid fields offer as sets.
func (a *api) blueprint(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "taxonomies", "view", ""); err != nil {
		return err
	}
	t, err := a.taxonomy(r)
	if err != nil {
		return err
	}
	h := t.Blueprint
	if h == "" {
		h = t.Handle
	}
	return web.WriteBlueprint(w, a.Store, content.BlueprintTaxonomies, h)
}
