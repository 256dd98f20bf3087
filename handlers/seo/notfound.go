package seo

import (
	"net/http"
	"slices"

	"cms/content"
	"cms/content/seo/notfound"
	"cms/content/seo/redirects"
	"cms/handlers/web"
)

// GET /api/seo/not-found: a site's recorded 404s, most recently seen first (?sort=hits for the
// most hit first), paged.
func (a *api) listNotFound(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	h, err := web.QueryParam(q, "site")
	if err != nil {
		return err
	}
	if _, err := web.Require(a.Auth, r, "seo-errors", "view", h); err != nil {
		return err
	}
	site, err := a.site(h)
	if err != nil {
		return err
	}
	page, perPage, err := paging(r)
	if err != nil {
		return err
	}
	sort, err := web.QueryParam(q, "sort")
	if err != nil {
		return err
	}
	list, err := a.NotFound.List(site.Handle)
	if err != nil {
		return err
	}
	switch sort {
	case "", "lastSeen":
	case "hits":
		slices.SortStableFunc(list, func(x, y notfound.Observation) int { return y.Hits - x.Hits })
	default:
		return web.BadRequest("sort must be lastSeen or hits")
	}
	if list == nil {
		list = []notfound.Observation{}
	}
	web.WriteJSON(w, http.StatusOK, dataMeta{Data: pageOf(list, page, perPage),
		Meta: listMeta{Total: len(list), Page: page, PerPage: perPage, Storage: "operational"}})
	return nil
}

// DELETE /api/seo/not-found/{opaqueId}: forget a recorded 404.
func (a *api) deleteNotFound(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "seo-errors", "delete", ""); err != nil {
		return err
	}
	if _, err := a.NotFound.Delete(r.PathValue("opaqueId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// promoteInput is the body of POST /api/seo/not-found/promote.
type promoteInput struct {
	Site        string `json:"site"`
	Source      string `json:"source"`
	Destination string `json:"destination"`
	OpaqueID    string `json:"opaqueId"`
	Status      int    `json:"status"`
}

// POST /api/seo/not-found/promote: turn a recorded 404 into a redirect (301 unless a status is
// given) and forget the record; 201 with the redirect.
func (a *api) promote(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Authenticated(a.Auth, r); err != nil {
		return err
	}
	var in promoteInput
	if err := web.DecodeJSON(w, r, a.BodyLimit, &in); err != nil {
		return err
	}
	if _, err := web.Require(a.Auth, r, "seo-redirects", "create", in.Site); err != nil {
		return err
	}
	site, err := a.site(in.Site)
	if err != nil {
		return err
	}
	if in.OpaqueID != "" {
		o, err := a.NotFound.Get(site.Handle, in.OpaqueID)
		if err != nil {
			return err
		}
		if in.Source == "" {
			in.Source = o.Path
		}
	}
	if in.Status == 0 {
		in.Status = 301
	}
	rd, _, err := a.Redirects.Save(redirects.Redirect{ID: redirects.NewID(), Site: site.Handle, Source: in.Source,
		Destination: in.Destination, Status: in.Status, Enabled: true}, "")
	if err != nil {
		return err
	}
	if err := a.NotFound.DeletePath(site.Handle, rd.Source); err != nil {
		return content.Internalf("seo.promote", site.Handle, err)
	}
	web.WriteJSON(w, http.StatusCreated, web.Data{Data: rd})
	return nil
}
