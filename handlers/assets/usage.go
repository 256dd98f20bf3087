package assets

import (
	"net/http"

	"cms/content"
	"cms/handlers/web"
)

// maxUses bounds the documents GET /api/assets/usage lists.
const maxUses = 200

// Usage is the body of GET /api/assets/usage: the documents that refer to the file and that
// the caller may view, how many more refer to it that the caller may not view (Hidden), and
// whether the list stopped at its bound (Truncated).
type Usage struct {
	Path      string             `json:"path"`
	Uses      []content.AssetUse `json:"uses"`
	Hidden    int                `json:"hidden"`
	Truncated bool               `json:"truncated"`
}

// GET /api/assets/usage?path=<p>: where a file is used ("where used"): entries, globals and
// terms whose fields (inside replicator, grid and block sets too) hold its path or address.
func (a *api) usage(w http.ResponseWriter, r *http.Request) error {
	who, err := web.Require(a.Auth, r, "assets", "view", "")
	if err != nil {
		return err
	}
	p, err := cleanPath("path", r.URL.Query().Get("path"), false)
	if err != nil {
		return err
	}
	info, err := a.Store.StatAsset(p)
	if err != nil {
		return err
	}
	if info.Dir {
		return web.BadRequest("Invalid path: %s is a folder", p)
	}
	uses, more, err := a.Store.AssetUsage(p, a.URLPrefix, maxUses)
	if err != nil {
		return err
	}
	out := Usage{Path: p, Uses: make([]content.AssetUse, 0, len(uses)), Truncated: more}
	for _, u := range uses {
		var ok bool
		switch u.Kind {
		case "entry":
			ok = who.Can("entries", "view", u.Collection)
		case "global":
			ok = who.Can("globals", "view", u.Handle)
		case "term":
			ok = who.Can("taxonomies", "view", u.Taxonomy)
		}
		if ok {
			out.Uses = append(out.Uses, u)
		} else {
			out.Hidden++
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}
