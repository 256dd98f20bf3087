package seo

import (
	"net/http"

	"cms/content"
	"cms/content/seo/redirects"
	"cms/content/seo/report"
	"cms/handlers/web"
)

// reportSummary is a kept report in a list, without its issues.
type reportSummary struct {
	ID        string         `json:"id"`
	Site      string         `json:"site"`
	CreatedAt string         `json:"createdAt"`
	Score     int            `json:"score"`
	Summary   report.Summary `json:"summary"`
	Records   int            `json:"records"`
}

func summarise(r *report.Report) reportSummary {
	return reportSummary{ID: r.ID, Site: r.Site, CreatedAt: r.CreatedAt, Score: r.Score, Summary: r.Summary, Records: r.Records}
}

// GET /api/seo/reports: a site's kept reports, newest first, without their issues.
func (a *api) listReports(w http.ResponseWriter, r *http.Request) error {
	h, err := web.QueryParam(r.URL.Query(), "site")
	if err != nil {
		return err
	}
	if _, err := web.Require(a.Auth, r, "seo-reports", "view", h); err != nil {
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
	list, err := a.Reports.List(site.Handle)
	if err != nil {
		return err
	}
	out := []reportSummary{}
	for _, rep := range pageOf(list, page, perPage) {
		out = append(out, summarise(rep))
	}
	web.WriteJSON(w, http.StatusOK, dataMeta{Data: out, Meta: listMeta{Total: len(list), Page: page, PerPage: perPage}})
	return nil
}

// GET /api/seo/reports/{id}: one kept report with its issues (?site= when not the default).
func (a *api) getReport(w http.ResponseWriter, r *http.Request) error {
	h, err := web.QueryParam(r.URL.Query(), "site")
	if err != nil {
		return err
	}
	if _, err := web.Require(a.Auth, r, "seo-reports", "view", h); err != nil {
		return err
	}
	site, err := a.site(h)
	if err != nil {
		return err
	}
	list, err := a.Reports.List(site.Handle)
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	if id == "latest" && len(list) > 0 {
		id = list[0].ID
	}
	for _, rep := range list {
		if rep.ID == id {
			web.WriteJSON(w, http.StatusOK, web.Data{Data: rep})
			return nil
		}
	}
	return &content.Error{Kind: content.NotFound, Op: "seo.getReport", Code: "SEO_NOT_FOUND", Message: "Report " + quote(id) + " not found"}
}

// POST /api/seo/reports/run: audit a site now ({site?}, the default site when left out); the
// report is kept and returned with 201.
func (a *api) runReport(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Authenticated(a.Auth, r); err != nil {
		return err
	}
	var in struct {
		Site string `json:"site"`
	}
	if r.ContentLength != 0 {
		if err := web.DecodeJSON(w, r, a.BodyLimit, &in); err != nil {
			return err
		}
	}
	if _, err := web.Require(a.Auth, r, "seo-reports", "edit", in.Site); err != nil {
		return err
	}
	site, err := a.site(in.Site)
	if err != nil {
		return err
	}
	rep, err := a.audit(site)
	if err != nil {
		return err
	}
	if err := a.Reports.Save(rep); err != nil {
		return err
	}
	web.WriteJSON(w, http.StatusCreated, web.Data{Data: rep})
	return nil
}

// audit runs a report for site.
func (a *api) audit(site content.Site) (*report.Report, error) {
	var rds []redirects.Redirect
	if a.Redirects != nil {
		rds = a.Redirects.List(site.Handle)
	}
	in, err := report.Gather(a.Store, a.Resolver, site, rds, a.Features.SocialImages)
	if err != nil {
		return nil, content.Internalf("seo.audit", site.Handle, err)
	}
	in.Surfaces = a.Surfaces
	return report.Audit(in, a.Now()), nil
}

// GET /api/seo/status: which SEO features are on, and per site the latest report's score.
func (a *api) status(w http.ResponseWriter, r *http.Request) error {
	if _, err := web.Require(a.Auth, r, "seo-reports", "view", ""); err != nil {
		return err
	}
	type siteStatus struct {
		Site      string         `json:"site"`
		URL       string         `json:"url"`
		Latest    *reportSummary `json:"latest"`
		Redirects int            `json:"redirects"`
	}
	sites := []siteStatus{}
	for _, s := range a.Sites {
		st := siteStatus{Site: s.Handle, URL: s.URL}
		if list, err := a.Reports.List(s.Handle); err == nil && len(list) > 0 {
			sum := summarise(list[0])
			st.Latest = &sum
		}
		if a.Redirects != nil {
			st.Redirects = len(a.Redirects.List(s.Handle))
		}
		sites = append(sites, st)
	}
	var problems []string
	if a.Redirects != nil {
		problems = a.Redirects.Problems()
	}
	web.WriteJSON(w, http.StatusOK, web.Data{Data: struct {
		Features         Features     `json:"features"`
		Sites            []siteStatus `json:"sites"`
		RedirectProblems int          `json:"redirectProblems"`
	}{a.Features, sites, len(problems)}})
	return nil
}
