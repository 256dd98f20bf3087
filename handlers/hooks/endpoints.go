package hooks

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"time"

	"cms/content"
	"cms/handlers/web"
)

// Install checks a module and, if it passes, stores it as hook name, uploaded by uploader at
// at. It is what PUT /api/hooks/{name} and `cms hooks push` both do. An invalid name is an
// Invalid error; a module that fails the checks an Invalid error with Code HOOK_REJECTED and
// nothing is stored. It reports whether an installed hook was replaced.
func Install(ctx context.Context, st Store, host Checker, name string, wasm []byte, uploader string, at time.Time) (content.Hook, bool, error) {
	const op = "hooks.Install"
	if !content.ValidHookName(name) {
		return content.Hook{}, false, content.Invalidf(op,
			"Invalid hook name %q: use 1 to 64 lower-case letters, digits, '_' or '-', starting with a letter or digit", name)
	}
	info, err := host.Check(ctx, wasm)
	if err != nil {
		if ce, ok := errors.AsType[*content.Error](err); ok && ce.Kind == content.Invalid {
			return content.Hook{}, false, &content.Error{Kind: content.Invalid, Op: op, Path: name, Code: CodeRejected,
				Message: "Hook module rejected: " + ce.Message, Details: ce.Details, Err: err}
		}
		return content.Hook{}, false, fmt.Errorf("%s: check %s: %w", op, name, err)
	}
	h := content.Hook{Name: name, SHA256: info.SHA256, Size: int64(info.Size), UploadedBy: uploader,
		UploadedAt: at.UTC().Format("2006-01-02T15:04:05.000Z"), ABIVersion: info.ABIVersion}
	replaced, err := st.PutHook(h, wasm)
	if err != nil {
		return content.Hook{}, false, fmt.Errorf("%s: store %s: %w", op, name, err)
	}
	return h, replaced, nil
}

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
	h, replaced, err := Install(r.Context(), a.Store, a.Host, name, wasm, uploader, a.Now())
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
	if err := a.Store.DeleteHook(name); err != nil {
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
