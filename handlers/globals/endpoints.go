package globals

import (
	"net/http"
	"strings"

	"cms/content"
	"cms/content/validate"
	"cms/handlers/web"
)

// summary is one global in the list.
type summary struct {
	Handle    string `json:"handle"`
	Title     string `json:"title"`
	Blueprint string `json:"blueprint"`
}

// GET /api/globals: every global set with its title and blueprint.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "globals", "view", ""); err != nil {
		return err
	}
	defs := map[string]*content.GlobalDef{}
	for _, d := range a.Store.GlobalDefs() {
		defs[d.Handle] = d
	}
	orphans, err := a.Store.GlobalDataHandles()
	if err != nil {
		return err
	}
	for _, h := range orphans {
		if defs[h] == nil {
			defs[h] = implicitDef(h)
		}
	}
	out := make([]summary, 0, len(defs))
	for _, h := range sortedKeys(defs) {
		d := defs[h]
		out = append(out, summary{Handle: d.Handle, Title: d.Title, Blueprint: d.Blueprint})
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// implicitDef is the definition of a global that has a data file but no definition file.
func implicitDef(h string) *content.GlobalDef {
	return &content.GlobalDef{Handle: h, Title: strings.ToUpper(h[:1]) + h[1:], Blueprint: h}
}

// global resolves the handle of the request to a definition, explicit or implicit. A data file
// that exists counts even when it does not parse, so that PUT can replace a broken file.
func (a *api) global(r *http.Request) (*content.GlobalDef, error) {
	h := r.PathValue("handle")
	if !content.ValidHandle(h) {
		return nil, web.BadRequest("Invalid global handle %q", h)
	}
	d, err := a.Store.GlobalDef(h)
	if err == nil {
		return d, nil
	}
	if !content.IsNotFound(err) {
		return nil, err
	}
	if doc, err := a.Store.Global(h); err == nil && !doc.Exists {
		return nil, content.NotFoundf("globals.get", h, "Global %q not found", h)
	}
	return implicitDef(h), nil
}

// GET /api/globals/{handle}: a global set's values, with an ETag.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "globals", "view", ""); err != nil {
		return err
	}
	d, err := a.global(r)
	if err != nil {
		return err
	}
	doc, err := a.Store.Global(d.Handle)
	if err != nil {
		return err
	}
	etag := `"` + doc.Hash + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "private, no-cache")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: doc.Data})
	return nil
}

// PUT /api/globals/{handle}: replace a global set's values.
func (a *api) put(w http.ResponseWriter, r *http.Request) error {
	const op = "globals.put"
	who, err := web.Require(a.Auth, r, "globals", "edit", "")
	if err != nil {
		return err
	}
	d, err := a.global(r)
	if err != nil {
		return err
	}
	want, err := web.IfMatch(r)
	if err != nil {
		return err
	}
	values := content.NewMap(0)
	if err := web.DecodeJSON(w, r, a.BodyLimit, values); err != nil {
		return err
	}
	fe := content.FieldErrors{}
	for _, k := range values.Keys() {
		if !content.ValidHandle(k) {
			fe.Add(k, "Invalid field name: use letters, digits, '-' and '_', starting with a letter or digit")
		}
	}
	if err := fe.Err(op, "Global data is invalid"); err != nil {
		return err
	}
	fe, bp, err := validate.AgainstBlueprint(r.Context(), a.Store, content.BlueprintGlobals, d.Blueprint, values,
		validate.Options{Hooks: a.Hooks, Form: d.Handle, Log: a.Log})
	if err != nil {
		return err
	}
	if err := validate.BlueprintError(op, "Global data", bp, fe); err != nil {
		return err
	}
	doc, err := a.storeFor(who).SaveGlobal(d.Handle, values, want)
	if err != nil {
		return err
	}
	w.Header().Set("ETag", `"`+doc.Hash+`"`)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: doc.Data})
	return nil
}

// GET /api/globals/{handle}/blueprint: the blueprint the CP builds the global's form from (null
// when the global has none, so its values are not validated), and the fieldsets its replicator,
// blocks and grid fields offer as sets.
func (a *api) blueprint(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "globals", "view", ""); err != nil {
		return err
	}
	d, err := a.global(r)
	if err != nil {
		return err
	}
	return web.WriteBlueprint(w, a.Store, content.BlueprintGlobals, d.Blueprint)
}
