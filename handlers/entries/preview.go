package entries

import (
	"net/http"
	"net/url"
	"time"

	"cms/content"
	"cms/handlers/web"
)

// PreviewSigner issues draft-preview tokens (content/preview.Signer).
type PreviewSigner interface {
	Sign(collection, slug string, ttl time.Duration) (token string, expires time.Time, err error)
}

// Preview is the response of POST /api/entries/{collection}/{slug}/preview.
type Preview struct {
	Token     string `json:"token"`
	URL       string `json:"url"`  // the public API's entry, with the token: the current draft
	Path      string `json:"path"` // the entry's public page path, with the token (for a website that renders previews)
	ExpiresAt string `json:"expiresAt"`
}

// POST /api/entries/{collection}/{slug}/preview: a short-lived token that shows this entry's
// current draft through the public API (and a website that verifies it), to whoever holds it.
// It needs entries:edit and entries:view on the collection, as an editor or an API token has.
func (a *api) preview(w http.ResponseWriter, r *http.Request) error {
	p, c, err := a.begin(r, "edit")
	if err != nil {
		return err
	}
	if err := p.Require("entries", "view", c.Handle); err != nil {
		return err
	}
	slug, err := pathSlug(r)
	if err != nil {
		return err
	}
	e, err := a.Store.EntryMeta(c.Handle, slug)
	if err != nil {
		return err
	}
	tok, exp, err := a.Preview.Sign(c.Handle, e.Slug, 0)
	if err != nil {
		return err
	}
	q := "?preview=" + url.QueryEscape(tok)
	out := Preview{Token: tok, URL: a.PublicBasePath + "/entries/" + c.Handle + "/" + e.Slug + q,
		ExpiresAt: exp.Format("2006-01-02T15:04:05.000Z")}
	if path := content.EntryURL(c, e); path != "" {
		out.Path = path + q
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}
