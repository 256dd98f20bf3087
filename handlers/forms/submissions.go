package forms

import (
	"net/http"
	"net/url"
	"strconv"

	"cms/content"
	"cms/content/access"
	"cms/handlers/web"
)

// SubmissionPage is the body of the submissions list.
type SubmissionPage struct {
	Submissions []*content.Submission `json:"submissions"`
	Total       int                   `json:"total"`
	Page        int                   `json:"page"`
	PerPage     int                   `json:"perPage"`
}

// authorize checks the forms permission before anything is read, then that the form exists
// (broken forms included: their submissions can still be read and deleted).
func (a *api) authorize(r *http.Request, action string) (*access.Principal, *content.FormDef, error) {
	p, err := web.Require(a.Auth, r, "forms", action, "")
	if err != nil {
		return nil, nil, err
	}
	def, err := a.Definitions.FormDef(r.PathValue("handle"))
	if err != nil {
		return nil, nil, err
	}
	return p, def, nil
}

// GET /api/forms/{handle}/submissions?page&perPage&sort: a page of submissions.
func (a *api) submissions(w http.ResponseWriter, r *http.Request) error {
	_, def, err := a.authorize(r, "view")
	if err != nil {
		return err
	}
	q := r.URL.Query()
	page, err := intParam(q, "page", 1, 1, 0)
	if err != nil {
		return err
	}
	perPage, err := intParam(q, "perPage", DefaultPerPage, 1, MaxPerPage)
	if err != nil {
		return err
	}
	sort := q.Get("sort")
	switch sort {
	case "":
		sort = "newest"
	case "newest", "oldest":
	default:
		return web.BadRequest("sort must be newest or oldest, not %q", sort)
	}
	subs, total, err := a.Submissions.Submissions(def.Handle, page, perPage, sort)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: SubmissionPage{Submissions: subs, Total: total, Page: page, PerPage: perPage}})
	return nil
}

// intParam reads a whole-number query parameter between lo and hi (hi 0: no upper bound).
func intParam(q url.Values, name string, def, lo, hi int) (int, error) {
	s, ok := q[name]
	if !ok || len(s) == 0 {
		return def, nil
	}
	n, err := strconv.Atoi(s[0])
	switch {
	case err != nil || n < lo:
		return 0, web.BadRequest("%s must be a whole number, %d or more, not %q", name, lo, s[0])
	case hi > 0 && n > hi:
		return 0, web.BadRequest("%s must be at most %d, not %d", name, hi, n)
	}
	return n, nil
}

// GET /api/forms/{handle}/submissions/{id}: one submission.
func (a *api) submission(w http.ResponseWriter, r *http.Request) error {
	_, def, err := a.authorize(r, "view")
	if err != nil {
		return err
	}
	sub, err := a.Submissions.Submission(def.Handle, r.PathValue("id"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	web.WriteJSON(w, http.StatusOK, web.Data{Data: sub})
	return nil
}

// Deleted is the body of a successful delete.
type Deleted struct {
	Deleted bool `json:"deleted"`
}

// DELETE /api/forms/{handle}/submissions/{id}: remove a submission's file.
func (a *api) deleteSubmission(w http.ResponseWriter, r *http.Request) error {
	p, def, err := a.authorize(r, "delete")
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	if err := a.Submissions.DeleteSubmission(def.Handle, id); err != nil {
		return err
	}
	user := ""
	if p.User != nil {
		user = p.User.ID
	}
	a.Log.Info("form submission deleted", "form", def.Handle, "id", id, "user", user)
	web.WriteJSON(w, http.StatusOK, web.Data{Data: Deleted{Deleted: true}})
	return nil
}
