package entries

import (
	"net/http"

	"cms/content"
	"cms/handlers/web"
)

// GET /api/collections: the collection definitions; it needs collections:view without a scope.
func (a *api) collections(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "collections", "view", ""); err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: a.Store.Collections()})
	return nil
}

// GET /api/collections/{handle}: one definition. The check is scoped to the handle, so an
// unscoped grant and a grant scoped to this collection both allow it.
func (a *api) collection(w http.ResponseWriter, r *http.Request) error {
	h := r.PathValue("handle")
	if _, err := web.Require(a.Auth, r, "collections", "view", h); err != nil {
		return err
	}
	if !content.ValidHandle(h) {
		return web.BadRequest("Invalid collection handle %q: use letters, digits, '-' and '_'", content.Shorten(h))
	}
	c, err := a.Store.Collection(h)
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: c})
	return nil
}
