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
	Token string `json:"token"`
	// URL is where to open the preview: the entry's page on the website (absolute, on the
	// configured site URL), or the public API's entry when the collection has no route.
	URL       string `json:"url"`
	APIURL    string `json:"apiUrl"`         // the public API's entry, with the token: the current draft as JSON
	Path      string `json:"path,omitempty"` // the page's path on its site (with a sub-path site's base), with the token
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
	out := Preview{Token: tok, APIURL: a.PublicBasePath + "/entries/" + c.Handle + "/" + e.Slug + q,
		ExpiresAt: exp.Format("2006-01-02T15:04:05.000Z")}
	out.URL = out.APIURL
	if path := content.EntryURL(c, e); path != "" {
		st := a.siteOf(c)
		out.Path = st.PageLink(path) + q
		if st.URL != "" {
			out.URL = st.PageAbsolute(path) + q
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// siteOf is the site an entry of c is previewed on: the default site if the collection is on
// it, else the first site it is on (a zero Site, whose links are plain paths, without sites).
func (a *api) siteOf(c *content.Collection) content.Site {
	var first *content.Site
	for i := range a.Sites {
		st := &a.Sites[i]
		if !c.OnSite(st.Handle) {
			continue
		}
		if st.Default {
			return *st
		}
		if first == nil {
			first = st
		}
	}
	if first != nil {
		return *first
	}
	return content.Site{}
}
