package seo

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"cms/content"
	"cms/content/seo/redirects"
	"cms/handlers/web"
)

// GET /api/seo/redirects: the redirects of a site (?site=), or of every site, by id.
func (a *api) listRedirects(w http.ResponseWriter, r *http.Request) error {
	h, err := web.QueryParam(r.URL.Query(), "site")
	if err != nil {
		return err
	}
	if _, err := web.Require(a.Auth, r, "seo-redirects", "view", h); err != nil {
		return err
	}
	if h != "" {
		if _, err := a.site(h); err != nil {
			return err
		}
	}
	list := a.Redirects.List(h)
	if list == nil {
		list = []redirects.Redirect{}
	}
	web.WriteJSON(w, http.StatusOK, dataMeta{Data: list, Meta: struct {
		Total    int      `json:"total"`
		Problems []string `json:"problems"`
	}{len(list), problemNames(a.Redirects.Problems())}})
	return nil
}

// problemNames keeps problems client-safe: they name files of the site folder by their place
// under content/seo/redirects only.
func problemNames(ps []string) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if i := strings.Index(p, "content/seo/redirects/"); i >= 0 {
			p = p[i:]
		}
		out = append(out, p)
	}
	return out
}

// GET /api/seo/redirects/{id}: one redirect with its revision.
func (a *api) getRedirect(w http.ResponseWriter, r *http.Request) error {
	rd, err := a.redirectFor(r, "view")
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: rd})
	return nil
}

// redirectFor returns the redirect of the path's {id} when the caller may act on it: the
// permission in the redirect's site. A caller without the permission on any site learns
// nothing (403 before the lookup); one with it somewhere gets 404 for an unknown id.
func (a *api) redirectFor(r *http.Request, action string) (redirects.Redirect, error) {
	p, err := web.Authenticated(a.Auth, r)
	if err != nil {
		return redirects.Redirect{}, err
	}
	if !p.Can("seo-redirects", action, "") && !slices.ContainsFunc(a.Sites, func(s content.Site) bool { return p.Can("seo-redirects", action, s.Handle) }) {
		return redirects.Redirect{}, p.Require("seo-redirects", action, "")
	}
	rd, err := a.Redirects.Get(r.PathValue("id"))
	if err != nil {
		return rd, err
	}
	return rd, p.Require("seo-redirects", action, rd.Site)
}

// redirectInput is a redirect, bare or wrapped as {redirect, expectedRevision}.
type redirectInput struct {
	redirects.Redirect
	Wrapped          *redirects.Redirect `json:"redirect"`
	ExpectedRevision string              `json:"expectedRevision"`
}

// POST /api/seo/redirects: create or replace a redirect (an id is made when there is none);
// 201 when new. The topology rules refuse with 422 naming the rule and the redirects.
func (a *api) saveRedirect(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Authenticated(a.Auth, r); err != nil {
		return err
	}
	body, err := web.ReadBody(w, r, a.BodyLimit)
	if err != nil {
		return err
	}
	if err := web.RequireJSON(r); err != nil {
		return err
	}
	var in redirectInput
	if err := content.CheckJSONNesting("seo.saveRedirect", body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		if _, syntax := errors.AsType[*json.SyntaxError](err); syntax || errors.Is(err, io.ErrUnexpectedEOF) {
			return web.BadRequest("Request body is not valid JSON: %v", err)
		}
		return &content.Error{Kind: content.Invalid, Op: "seo.saveRedirect", Code: "SEO_INVALID_INPUT", Message: "The redirect is not valid JSON of the redirect's shape: " + err.Error()}
	}
	rd := in.Redirect
	rev := in.ExpectedRevision
	if in.Wrapped != nil {
		rd = *in.Wrapped
	}
	if rev == "" {
		rev = rd.Revision
	}
	if h, err := web.IfMatch(r); err != nil {
		return err
	} else if h != "" {
		rev = h
	}
	if _, err := web.Require(a.Auth, r, "seo-redirects", "edit", rd.Site); err != nil {
		return err
	}
	if rd.ID == "" {
		rd.ID = redirects.NewID()
	} else if cur, err := a.Redirects.Get(rd.ID); err == nil && cur.Site != rd.Site {
		// Moving a redirect to another site needs the right on both.
		if _, err := web.Require(a.Auth, r, "seo-redirects", "edit", cur.Site); err != nil {
			return err
		}
	}
	if rd.Status == 0 {
		rd.Status = 301
	}
	saved, created, err := a.Redirects.Save(rd, rev)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	web.WriteJSON(w, status, web.Data{Data: saved})
	return nil
}

// DELETE /api/seo/redirects/{id}: remove a redirect (?expectedRevision= or If-Match).
func (a *api) deleteRedirect(w http.ResponseWriter, r *http.Request) error {
	rd, err := a.redirectFor(r, "delete")
	if err != nil {
		return err
	}
	rev, err := revisionOf(r)
	if err != nil {
		return err
	}
	if err := a.Redirects.Delete(rd.ID, rev); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
