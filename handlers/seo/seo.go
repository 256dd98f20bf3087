// Package seo is the SEO operations API (notes 14.8), in the service's one envelope:
//
//	GET    /api/seo/sites                         seo:view            site documents (?site=)
//	GET    /api/seo/sites/{site}                  seo:view            one, with its revision
//	PUT    /api/seo/sites/{site}  (also POST)     seo:edit            body SeoValues or {seo, expectedRevision}
//	DELETE /api/seo/sites/{site}                  seo:edit
//	GET    /api/seo/sections/{kind}               seo:view            kind collection|taxonomy
//	GET    /api/seo/sections/{kind}/{handle}      seo:view
//	PUT    /api/seo/sections/{kind}/{handle}      seo:edit            (also POST)
//	DELETE /api/seo/sections/{kind}/{handle}      seo:edit
//	POST   /api/seo/preview                       seo:view            resolved metadata (drafts: seo:edit too)
//	GET    /api/seo/reports  (also /report)       seo-reports:view    kept reports, newest first (?site=&page=&perPage=)
//	GET    /api/seo/reports/{id}                  seo-reports:view    one report with its issues
//	POST   /api/seo/reports/run  (also /report/run) seo-reports:edit  {site?} → 201 the new report
//	GET    /api/seo/status                        seo-reports:view    features and latest scores
//	GET    /api/seo/redirects                     seo-redirects:view  (?site=)
//	POST   /api/seo/redirects  (also PUT)         seo-redirects:edit  body redirect or {redirect, expectedRevision}
//	GET    /api/seo/redirects/{id}                seo-redirects:view
//	DELETE /api/seo/redirects/{id}                seo-redirects:delete (?expectedRevision=)
//	GET    /api/seo/not-found                     seo-errors:view     (?site=&page=&perPage=)
//	POST   /api/seo/not-found/promote             seo-redirects:create {site, source, destination, opaqueId?, status?}
//	DELETE /api/seo/not-found/{opaqueId}          seo-errors:delete
//
// Checks are scoped to the site where the request names one. seo.enabled false makes the whole
// family 404 SEO_FEATURE_DISABLED; seo.reports, seo.redirects and seo.errorTracking false do so
// for their part. Revisions are the SHA-256 of a file's bytes; a stale expectedRevision is 409
// SEO_REVISION_CONFLICT and nothing is written.
package seo

import (
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"cms/content"
	"cms/content/seo"
	"cms/content/seo/notfound"
	"cms/content/seo/redirects"
	"cms/content/seo/report"
	"cms/handlers/web"
)

// Store is what the group reads and writes of the content.
type Store interface {
	report.Store
	// SEODocument reads an SEO document ("site", "collection", "taxonomy") with its revision.
	SEODocument(kind, handle string) (*content.Map, string, error)
	// SaveSEODocument validates and writes an SEO document; a stale revision is a Conflict.
	SaveSEODocument(kind, handle string, values *content.Map, wantRevision string) (string, bool, error)
	// DeleteSEODocument removes an SEO document; a stale revision is a Conflict.
	DeleteSEODocument(kind, handle, wantRevision string) error
	// SEODocumentHandles lists the documents of a kind.
	SEODocumentHandles(kind string) []string
	// Collection returns a collection definition, or a NotFound error.
	Collection(h string) (*content.Collection, error)
}

// Redirects is the redirect store (content/seo/redirects).
type Redirects interface {
	List(site string) []redirects.Redirect
	Get(id string) (redirects.Redirect, error)
	Save(r redirects.Redirect, expectedRevision string) (redirects.Redirect, bool, error)
	Delete(id, expectedRevision string) error
	Problems() []string
}

// NotFound is the 404 record store (content/seo/notfound).
type NotFound interface {
	List(site string) ([]notfound.Observation, error)
	Get(site, id string) (notfound.Observation, error)
	Delete(id string) (notfound.Observation, error)
	DeletePath(site, path string) error
}

// Reports keeps report snapshots (content/seo/report).
type Reports interface {
	List(site string) ([]*report.Report, error)
	Save(r *report.Report) error
}

// Features are the seo.* switches.
type Features struct {
	Enabled       bool `json:"enabled"`
	Reports       bool `json:"reports"`
	Redirects     bool `json:"redirects"`
	ErrorTracking bool `json:"errorTracking"`
	SocialImages  bool `json:"socialImages"`
}

// Deps are the inputs of the group.
type Deps struct {
	Store    Store
	Auth     web.Authenticator
	Log      *slog.Logger
	Sites    []content.Site // the configured sites, the default first
	Resolver *seo.Resolver
	Features Features
	// Redirects, NotFound and Reports may be nil when their feature is off (or the store is
	// read-only, for NotFound and Reports): their routes then answer SEO_FEATURE_DISABLED.
	Redirects Redirects
	NotFound  NotFound
	Reports   Reports
	Now       func() time.Time
	// Surfaces are path prefixes the service answers outside the website (cp.path, /api): links
	// there are not broken in reports.
	Surfaces []string
	// BodyLimit bounds request bodies; 0 means 256 KiB.
	BodyLimit int64
}

// Prefixes are the path prefixes the group serves.
func Prefixes() []string { return []string{"/api/seo/"} }

type api struct{ Deps }

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil || d.Resolver == nil {
		return nil, errors.New("seo: Store and Resolver are required")
	}
	if len(d.Sites) == 0 {
		return nil, errors.New("seo: at least one site is required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.BodyLimit <= 0 {
		d.BodyLimit = 256 << 10
	}
	a := &api{Deps: d}
	rt := web.NewRouter()
	on := func(f web.HandlerFunc, feature func() bool) web.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) error {
			if !d.Features.Enabled || !feature() {
				return disabled()
			}
			return f(w, r)
		}
	}
	always := func() bool { return true }
	reports := func() bool { return d.Features.Reports && d.Reports != nil }
	redirectsOn := func() bool { return d.Features.Redirects && d.Redirects != nil }
	notFoundOn := func() bool { return d.Features.ErrorTracking && d.NotFound != nil }

	rt.HandleFunc("GET /api/seo/sites", on(a.listSites, always))
	rt.HandleFunc("GET /api/seo/sites/{site}", on(a.getSite, always))
	rt.HandleFunc("PUT /api/seo/sites/{site}", on(a.putSite, always))
	rt.HandleFunc("POST /api/seo/sites/{site}", on(a.putSite, always))
	rt.HandleFunc("DELETE /api/seo/sites/{site}", on(a.deleteSite, always))
	rt.HandleFunc("GET /api/seo/sections/{kind}", on(a.listSections, always))
	rt.HandleFunc("GET /api/seo/sections/{kind}/{handle}", on(a.getSection, always))
	rt.HandleFunc("PUT /api/seo/sections/{kind}/{handle}", on(a.putSection, always))
	rt.HandleFunc("POST /api/seo/sections/{kind}/{handle}", on(a.putSection, always))
	rt.HandleFunc("DELETE /api/seo/sections/{kind}/{handle}", on(a.deleteSection, always))
	rt.HandleFunc("POST /api/seo/preview", on(a.preview, always))

	rt.HandleFunc("GET /api/seo/reports", on(a.listReports, reports))
	rt.HandleFunc("GET /api/seo/report", on(a.listReports, reports))
	rt.HandleFunc("GET /api/seo/reports/{id}", on(a.getReport, reports))
	rt.HandleFunc("POST /api/seo/reports/run", on(a.runReport, reports))
	rt.HandleFunc("POST /api/seo/report/run", on(a.runReport, reports))
	rt.HandleFunc("GET /api/seo/status", on(a.status, reports))

	rt.HandleFunc("GET /api/seo/redirects", on(a.listRedirects, redirectsOn))
	rt.HandleFunc("POST /api/seo/redirects", on(a.saveRedirect, redirectsOn))
	rt.HandleFunc("PUT /api/seo/redirects", on(a.saveRedirect, redirectsOn))
	rt.HandleFunc("GET /api/seo/redirects/{id}", on(a.getRedirect, redirectsOn))
	rt.HandleFunc("DELETE /api/seo/redirects/{id}", on(a.deleteRedirect, redirectsOn))

	rt.HandleFunc("GET /api/seo/not-found", on(a.listNotFound, notFoundOn))
	rt.HandleFunc("POST /api/seo/not-found/promote", on(a.promote, func() bool { return notFoundOn() && redirectsOn() }))
	rt.HandleFunc("DELETE /api/seo/not-found/{opaqueId}", on(a.deleteNotFound, notFoundOn))
	rt.NotFound("/api/seo/")
	return rt, nil
}

// disabled is the answer of a switched-off feature.
func disabled() error {
	return &web.Error{Status: http.StatusNotFound, Code: "SEO_FEATURE_DISABLED", Message: "This SEO feature is disabled in the configuration"}
}

// invalid is a 422 SEO_INVALID_INPUT naming a field.
func invalid(field, msg string) error {
	return &content.Error{Kind: content.Invalid, Op: "seo", Code: "SEO_INVALID_INPUT", Message: msg, Fields: map[string][]string{field: {msg}}}
}

// site returns the configured site named handle; "" is the default site.
func (a *api) site(handle string) (content.Site, error) {
	if handle == "" {
		return a.Sites[0], nil
	}
	i := slices.IndexFunc(a.Sites, func(s content.Site) bool { return s.Handle == handle })
	if i < 0 {
		return content.Site{}, &content.Error{Kind: content.NotFound, Op: "seo.site", Code: "SEO_NOT_FOUND", Message: "Site " + quote(handle) + " is not configured"}
	}
	return a.Sites[i], nil
}

// quote shortens and quotes a request value for a message.
func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return `"` + s + `"`
}

// paging reads ?page=&perPage= (perPage at most 100, default 50).
func paging(r *http.Request) (page, perPage int, err error) {
	q := r.URL.Query()
	page, perPage = 1, 50
	for name, dst := range map[string]*int{"page": &page, "perPage": &perPage} {
		v, err := web.QueryParam(q, name)
		if err != nil {
			return 0, 0, err
		}
		if v == "" {
			continue
		}
		n := 0
		for _, c := range v {
			if c < '0' || c > '9' || n > 1_000_000 {
				return 0, 0, web.BadRequest("%s must be a positive whole number", name)
			}
			n = n*10 + int(c-'0')
		}
		if n < 1 {
			return 0, 0, web.BadRequest("%s must be a positive whole number", name)
		}
		*dst = n
	}
	if perPage > 100 {
		return 0, 0, web.BadRequest("perPage must be at most 100")
	}
	return page, perPage, nil
}

func pageOf[T any](list []T, page, perPage int) []T {
	from := (page - 1) * perPage
	if from >= len(list) {
		return []T{}
	}
	return list[from:min(from+perPage, len(list))]
}

// listMeta is the meta of a paged list.
type listMeta struct {
	Total   int    `json:"total"`
	Page    int    `json:"page"`
	PerPage int    `json:"perPage"`
	Storage string `json:"storage,omitempty"`
}

type dataMeta struct {
	Data any `json:"data"`
	Meta any `json:"meta"`
}
