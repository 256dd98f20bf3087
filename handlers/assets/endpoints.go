package assets

import (
	"net/http"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"cms/content"
	"cms/content/assetpath"
	"cms/handlers/web"
)

// cleanPath checks a client-given path; empty names the assets folder itself and is allowed
// only where allowRoot says so.
func cleanPath(name, p string, allowRoot bool) (string, error) {
	c, err := assetpath.Clean(p)
	if err != nil {
		return "", web.BadRequest("Invalid %s: %v", name, err)
	}
	if c == "" && !allowRoot {
		return "", web.BadRequest("Invalid %s: a path to an asset is required", name)
	}
	return c, nil
}

// GET /api/assets?directory=: the files and folders of a directory.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "assets", "view", ""); err != nil {
		return err
	}
	dir, err := cleanPath("directory", r.URL.Query().Get("directory"), true)
	if err != nil {
		return err
	}
	files, dirs, err := a.Store.ListAssets(dir)
	if err != nil {
		return err
	}
	out := make([]asset, 0, len(files))
	for _, f := range files {
		var meta *content.Map
		if f.HasMeta {
			if meta, err = a.Store.AssetMeta(f.Path); err != nil && !content.IsNotFound(err) {
				return err
			}
		}
		out = append(out, a.wire(f, meta))
	}
	web.WriteJSON(w, http.StatusOK, struct {
		Data        []asset  `json:"data"`
		Directories []string `json:"directories"`
	}{out, dirs})
	return nil
}

// GET /api/assets/meta?path=: one asset with all its metadata.
func (a *api) meta(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "assets", "view", ""); err != nil {
		return err
	}
	p, err := cleanPath("path", r.URL.Query().Get("path"), false)
	if err != nil {
		return err
	}
	return a.writeAsset(w, http.StatusOK, p)
}

// writeAsset answers with the current description of the file at p.
func (a *api) writeAsset(w http.ResponseWriter, status int, p string) error {
	info, err := a.Store.StatAsset(p)
	if err != nil {
		return err
	}
	var meta *content.Map
	if !info.Dir {
		if meta, err = a.Store.AssetMeta(p); err != nil {
			return err
		}
	}
	web.WriteJSON(w, status, web.Data{Data: a.wire(info, meta)})
	return nil
}

// Bounds on metadata values.
const (
	maxMetaKeys     = 50
	maxMetaValueLen = 2000
)

// PUT /api/assets/meta?path=: replace an asset's metadata sidecar.
func (a *api) saveMeta(w http.ResponseWriter, r *http.Request) error {
	const op = "assets.saveMeta"
	who, err := web.Require(a.Auth, r, "assets", "edit", "")
	if err != nil {
		return err
	}
	p, err := cleanPath("path", r.URL.Query().Get("path"), false)
	if err != nil {
		return err
	}
	body := content.NewMap(2)
	if err := web.DecodeJSON(w, r, jsonLimit, body); err != nil {
		return err
	}
	fe := content.FieldErrors{}
	meta := content.NewMap(body.Len())
	if body.Len() > maxMetaKeys {
		fe.Add("meta", "At most 50 metadata fields are allowed")
	}
	for _, k := range body.Keys() {
		v := body.Value(k)
		switch {
		case !content.ValidHandle(k):
			fe.Add(k, "Invalid field name: use letters, digits, '-' and '_', starting with a letter or digit")
		case v == nil:
			// null removes the key
		default:
			switch x := v.(type) {
			case string:
				if utf8.RuneCountInString(x) > maxMetaValueLen {
					fe.Add(k, "Must be at most 2000 characters")
				} else if strings.ContainsFunc(x, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
					fe.Add(k, "Must not contain control characters")
				}
			case bool, int64, float64:
			default:
				fe.Add(k, "Must be a string, a number or true/false")
			}
			meta.Set(k, v)
		}
	}
	if err := fe.Err(op, "Asset metadata is invalid"); err != nil {
		return err
	}
	if err := a.storeFor(who).SaveAssetMeta(p, meta); err != nil {
		return err
	}
	return a.writeAsset(w, http.StatusOK, p)
}

// POST /api/assets/move: move or rename an asset.
func (a *api) move(w http.ResponseWriter, r *http.Request) error {
	who, err := web.Require(a.Auth, r, "assets", "edit", "")
	if err != nil {
		return err
	}
	var body struct {
		From string `json:"from"`
		To   string `json:"to"`
	}
	if err := web.DecodeJSON(w, r, jsonLimit, &body); err != nil {
		return err
	}
	from, err := cleanPath("from", body.From, false)
	if err != nil {
		return err
	}
	// "to" may name a folder that exists (the asset moves into it) or be empty (the top folder).
	into := strings.HasSuffix(body.To, "/") || body.To == ""
	to, err := cleanPath("to", body.To, true)
	if err != nil {
		return err
	}
	if !into {
		if info, err := a.Store.StatAsset(to); err == nil && info.Dir {
			into = true
		}
	}
	if into {
		to = path.Join(to, path.Base(from))
	}
	info, err := a.storeFor(who).MoveAsset(from, to)
	if err != nil {
		return err
	}
	if info.Dir {
		web.WriteJSON(w, http.StatusOK, web.Data{Data: a.wire(info, nil)})
		return nil
	}
	return a.writeAsset(w, http.StatusOK, info.Path)
}

// DELETE /api/assets?path=: delete an asset.
func (a *api) remove(w http.ResponseWriter, r *http.Request) error {
	who, err := web.Require(a.Auth, r, "assets", "delete", "")
	if err != nil {
		return err
	}
	p, err := cleanPath("path", r.URL.Query().Get("path"), false)
	if err != nil {
		return err
	}
	if err := a.storeFor(who).DeleteAsset(p); err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: struct {
		Path    string `json:"path"`
		Deleted bool   `json:"deleted"`
	}{p, true}})
	return nil
}

// POST /api/assets/folders: create a folder.
func (a *api) folder(w http.ResponseWriter, r *http.Request) error {
	who, err := web.Require(a.Auth, r, "assets", "create", "")
	if err != nil {
		return err
	}
	var body struct {
		Path string `json:"path"`
	}
	if err := web.DecodeJSON(w, r, jsonLimit, &body); err != nil {
		return err
	}
	p, err := cleanPath("path", body.Path, false)
	if err != nil {
		return err
	}
	created, err := a.storeFor(who).CreateAssetFolder(p)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	web.WriteJSON(w, status, web.Data{Data: asset{Path: p, Filename: path.Base(p), Directory: true}})
	return nil
}
