package hooks

import (
	"mime"
	"net/http"

	"cms/content"
	"cms/handlers/web"
	"cms/wasmhooks/hookrun"
)

// GET /api/hooks: the installed hooks.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "settings", "view", ""); err != nil {
		return err
	}
	hooks, err := a.Store.Hooks()
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: hooks})
	return nil
}

// GET /api/hooks/{name}: one hook's metadata.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "settings", "view", ""); err != nil {
		return err
	}
	h, err := a.Store.HookMeta(r.PathValue("name"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: h})
	return nil
}

// PUT /api/hooks/{name}: install a module: check, then store.
func (a *api) put(w http.ResponseWriter, r *http.Request) error {
	p, err := web.Require(a.Auth, r, "settings", "edit", "")
	if err != nil {
		return err
	}
	name := r.PathValue("name")
	if !content.ValidHookName(name) {
		return web.BadRequest("Invalid hook name %q: use 1 to 64 lower-case letters, digits, '_' or '-', starting with a letter or digit", name)
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/wasm" {
		return &web.Error{Status: http.StatusUnsupportedMediaType, Code: "UNSUPPORTED_MEDIA_TYPE",
			Message: "Upload the module as the raw request body with Content-Type: application/wasm"}
	}
	wasm, err := web.ReadBody(w, r, a.MaxModuleBytes)
	if err != nil {
		return err
	}
	uploader := ""
	if p.User != nil {
		uploader = p.User.ID
	}
	h, replaced, err := hookrun.Install(r.Context(), a.storeFor(p), a.Host, name, wasm, uploader, a.Now())
	if err != nil {
		return err
	}
	a.Log.Info("validation hook installed", "hook", name, "sha256", h.SHA256, "size", h.Size, "user", uploader, "replaced", replaced)
	status := http.StatusCreated
	if replaced {
		status = http.StatusOK
	}
	web.WriteJSON(w, status, web.Data{Data: h})
	return nil
}

// DELETE /api/hooks/{name}: uninstall a hook.
func (a *api) delete(w http.ResponseWriter, r *http.Request) error {
	p, err := web.Require(a.Auth, r, "settings", "edit", "")
	if err != nil {
		return err
	}
	name := r.PathValue("name")
	if err := a.storeFor(p).DeleteHook(name); err != nil {
		return err
	}
	user := ""
	if p.User != nil {
		user = p.User.ID
	}
	a.Log.Info("validation hook removed", "hook", name, "user", user)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: struct {
		Deleted bool `json:"deleted"`
	}{true}})
	return nil
}
