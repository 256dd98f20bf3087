package seo

import (
	"net/http"

	"cms/content"
	"cms/content/seo"
	"cms/handlers/web"
)

// document is an SEO document as the API shows it.
type document struct {
	Kind     string       `json:"kind"`              // site or section
	Site     string       `json:"site,omitempty"`    // a site document's site
	Section  string       `json:"section,omitempty"` // collection or taxonomy
	Handle   string       `json:"handle,omitempty"`  // a section document's handle
	SEO      *content.Map `json:"seo"`
	Revision string       `json:"revision"`
}

// read returns a document, or a 404 SEO_NOT_FOUND.
func (a *api) read(kind, handle string) (document, error) {
	v, rev, err := a.Store.SEODocument(kind, handle)
	if err != nil {
		if content.IsNotFound(err) {
			return document{}, &content.Error{Kind: content.NotFound, Op: "seo.read", Code: "SEO_NOT_FOUND", Message: "SEO document " + kind + "/" + handle + " not found"}
		}
		return document{}, err
	}
	return a.doc(kind, handle, v, rev), nil
}

func (a *api) doc(kind, handle string, v *content.Map, rev string) document {
	if kind == "site" {
		return document{Kind: "site", Site: handle, SEO: v, Revision: rev}
	}
	return document{Kind: "section", Section: kind, Handle: handle, SEO: v, Revision: rev}
}

// GET /api/seo/sites: the site documents of the configured sites (?site= for one), null where
// a site has none.
func (a *api) listSites(w http.ResponseWriter, r *http.Request) error {
	filter, err := web.QueryParam(r.URL.Query(), "site")
	if err != nil {
		return err
	}
	if _, err := web.Require(a.Auth, r, "seo", "view", filter); err != nil {
		return err
	}
	type item struct {
		Site     string    `json:"site"`
		URL      string    `json:"url"`
		Document *document `json:"document"`
	}
	out := []item{}
	for _, s := range a.Sites {
		if filter != "" && s.Handle != filter {
			continue
		}
		it := item{Site: s.Handle, URL: s.URL}
		if d, err := a.read("site", s.Handle); err == nil {
			it.Document = &d
		} else if !content.IsNotFound(err) && content.KindOf(err) != content.Invalid {
			return err
		}
		out = append(out, it)
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// GET /api/seo/sites/{site}: one site document.
func (a *api) getSite(w http.ResponseWriter, r *http.Request) error {
	h := r.PathValue("site")
	if _, err := web.Require(a.Auth, r, "seo", "view", h); err != nil {
		return err
	}
	if _, err := a.site(h); err != nil {
		return err
	}
	d, err := a.read("site", h)
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: d})
	return nil
}

// PUT /api/seo/sites/{site}: write a site document.
func (a *api) putSite(w http.ResponseWriter, r *http.Request) error {
	h := r.PathValue("site")
	if _, err := web.Require(a.Auth, r, "seo", "edit", h); err != nil {
		return err
	}
	if _, err := a.site(h); err != nil {
		return err
	}
	return a.write(w, r, "site", h)
}

// DELETE /api/seo/sites/{site}: remove a site document (?expectedRevision= or If-Match).
func (a *api) deleteSite(w http.ResponseWriter, r *http.Request) error {
	h := r.PathValue("site")
	if _, err := web.Require(a.Auth, r, "seo", "edit", h); err != nil {
		return err
	}
	if _, err := a.site(h); err != nil {
		return err
	}
	return a.remove(w, r, "site", h)
}

// sectionKind checks the {kind} of a sections path.
func sectionKind(r *http.Request) (string, error) {
	k := r.PathValue("kind")
	if k != "collection" && k != "taxonomy" {
		return "", &content.Error{Kind: content.NotFound, Op: "seo.section", Code: "SEO_NOT_FOUND", Message: "Section kind " + quote(k) + " not found (collection or taxonomy)"}
	}
	return k, nil
}

// GET /api/seo/sections/{kind}: the section documents of a kind.
func (a *api) listSections(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "seo", "view", ""); err != nil {
		return err
	}
	k, err := sectionKind(r)
	if err != nil {
		return err
	}
	out := []document{}
	for _, h := range a.Store.SEODocumentHandles(k) {
		d, err := a.read(k, h)
		if err != nil {
			continue // removed meanwhile, or broken (cms check names it)
		}
		out = append(out, d)
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: out})
	return nil
}

// GET /api/seo/sections/{kind}/{handle}: one section document.
func (a *api) getSection(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "seo", "view", ""); err != nil {
		return err
	}
	k, err := sectionKind(r)
	if err != nil {
		return err
	}
	d, err := a.read(k, r.PathValue("handle"))
	if err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: d})
	return nil
}

// PUT /api/seo/sections/{kind}/{handle}: write a section document.
func (a *api) putSection(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "seo", "edit", ""); err != nil {
		return err
	}
	k, err := sectionKind(r)
	if err != nil {
		return err
	}
	h := r.PathValue("handle")
	if !content.ValidHandle(h) {
		return invalid("handle", "Invalid section handle "+quote(h))
	}
	return a.write(w, r, k, h)
}

// DELETE /api/seo/sections/{kind}/{handle}: remove a section document.
func (a *api) deleteSection(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "seo", "edit", ""); err != nil {
		return err
	}
	k, err := sectionKind(r)
	if err != nil {
		return err
	}
	return a.remove(w, r, k, r.PathValue("handle"))
}

// revisionOf takes the expected revision from the If-Match header or ?expectedRevision=.
func revisionOf(r *http.Request) (string, error) {
	rev, err := web.IfMatch(r)
	if err != nil || rev != "" {
		return rev, err
	}
	return web.QueryParam(r.URL.Query(), "expectedRevision")
}

// write decodes SeoValues or {seo, expectedRevision|revision} and writes the document.
func (a *api) write(w http.ResponseWriter, r *http.Request, kind, handle string) error {
	body := content.NewMap(0)
	if err := web.DecodeJSON(w, r, a.BodyLimit, body); err != nil {
		return err
	}
	rev, err := revisionOf(r)
	if err != nil {
		return err
	}
	values := body
	if inner, ok := body.Value("seo").(*content.Map); ok && wrapperOnly(body) {
		values = inner
		for _, k := range []string{"expectedRevision", "revision"} {
			if s, ok := body.Value(k).(string); ok && s != "" {
				rev = s
			}
		}
	}
	if _, err := seo.ParseValues(values); err != nil {
		return &content.Error{Kind: content.Invalid, Op: "seo.write", Code: "SEO_INVALID_INPUT", Message: "The SEO values are invalid",
			Fields: map[string][]string{"seo": {err.Error()}}}
	}
	newRev, created, err := a.Store.SaveSEODocument(kind, handle, values, rev)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	web.WriteJSON(w, status, web.Data{Data: a.doc(kind, handle, values, newRev)})
	return nil
}

// wrapperOnly reports whether a body is {seo, expectedRevision?, revision?}.
func wrapperOnly(m *content.Map) bool {
	for _, k := range m.Keys() {
		if k != "seo" && k != "expectedRevision" && k != "revision" {
			return false
		}
	}
	return true
}

func (a *api) remove(w http.ResponseWriter, r *http.Request, kind, handle string) error {
	rev, err := revisionOf(r)
	if err != nil {
		return err
	}
	if err := a.Store.DeleteSEODocument(kind, handle, rev); err != nil {
		if content.IsNotFound(err) {
			return &content.Error{Kind: content.NotFound, Op: "seo.remove", Code: "SEO_NOT_FOUND", Message: "SEO document " + kind + "/" + handle + " not found"}
		}
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// previewInput is the body of POST /api/seo/preview.
type previewInput struct {
	Type         string `json:"type"` // entry, site or section
	Site         string `json:"site"`
	Collection   string `json:"collection"`
	Slug         string `json:"slug"`
	Section      string `json:"section"` // collection or taxonomy, with handle
	Handle       string `json:"handle"`
	IncludeDraft bool   `json:"includeDraft"`
}

// POST /api/seo/preview: the metadata a record (or a site's or section's defaults) resolves to.
func (a *api) preview(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Authenticated(a.Auth, r); err != nil {
		return err
	}
	var in previewInput
	if err := web.DecodeJSON(w, r, a.BodyLimit, &in); err != nil {
		return err
	}
	if _, err := web.Require(a.Auth, r, "seo", "view", in.Site); err != nil {
		return err
	}
	site, err := a.site(in.Site)
	if err != nil {
		return err
	}
	subj := seo.Subject{Site: site, Kind: "page", Path: "/"}
	switch {
	case in.Type == "entry":
		c, err := a.Store.Collection(in.Collection)
		if err != nil {
			return invalid("collection", "Collection "+quote(in.Collection)+" not found")
		}
		e, err := a.Store.Entry(c.Handle, in.Slug)
		if err != nil {
			if content.IsNotFound(err) {
				return &content.Error{Kind: content.NotFound, Op: "seo.preview", Code: "SEO_NOT_FOUND", Message: "Entry " + quote(in.Collection+"/"+in.Slug) + " not found"}
			}
			return err
		}
		if !e.Published() {
			if !in.IncludeDraft {
				return &content.Error{Kind: content.NotFound, Op: "seo.preview", Code: "SEO_NOT_FOUND", Message: "Entry " + quote(in.Collection+"/"+in.Slug) + " is a draft; ask with includeDraft"}
			}
			if _, err := web.Require(a.Auth, r, "seo", "edit", in.Site); err != nil {
				return err
			}
		}
		subj = seo.Subject{Site: site, Kind: "entry", Section: c.Handle, Path: content.EntryURL(c, e), Title: e.Title,
			Slug: e.Slug, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, Data: e.Data}
	case in.Type == "section" || (in.Type == "" && in.Section != ""):
		kind := map[string]string{"collection": "entry", "taxonomy": "term"}[in.Section]
		if kind == "" || !content.ValidHandle(in.Handle) {
			return invalid("section", "section must be collection or taxonomy, with a handle")
		}
		subj = seo.Subject{Site: site, Kind: kind, Section: in.Handle, Path: "/"}
	case in.Type == "site" || in.Type == "":
	default:
		return invalid("type", "type must be entry, section or site")
	}
	m := a.Resolver.Resolve(subj)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: struct {
		Site string     `json:"site"`
		Path string     `json:"path"`
		SEO  seo.Object `json:"seo"`
	}{site.Handle, subj.Path, m.Object()}})
	return nil
}
