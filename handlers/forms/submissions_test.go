package forms_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/handlers/web/webtest"
)

// seed stores n submissions of form, one a second from base, numbered by the field n.
func seed(t testing.TB, e *env, form string, n int) []*content.Submission {
	t.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]*content.Submission, n)
	for i := range n {
		d := content.NewMap(1)
		d.Set("n", int64(i))
		s, err := e.store.CreateSubmission(form, d, base.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = s
	}
	return out
}

type page struct {
	Data struct {
		Submissions []struct {
			ID   string         `json:"id"`
			Form string         `json:"form"`
			Data map[string]any `json:"data"`
		} `json:"submissions"`
		Total   int `json:"total"`
		Page    int `json:"page"`
		PerPage int `json:"perPage"`
	} `json:"data"`
}

func TestSubmissionsAuthorization(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	subs := seed(t, e, "contact", 1)
	id := subs[0].ID
	endpoints := []struct {
		method, path string
		action       string
	}{
		{"GET", "/api/forms/contact/submissions", "view"},
		{"GET", "/api/forms/contact/submissions/" + id, "view"},
		{"GET", "/api/forms/contact/export/csv", "view"},
		{"GET", "/api/forms/contact/export/json", "view"},
		{"DELETE", "/api/forms/contact/submissions/" + id, "delete"},
	}
	for _, ep := range endpoints {
		t.Run(ep.method+" "+ep.path, func(t *testing.T) {
			t.Parallel()
			// No session: 401, even for an unknown form (nothing is looked up first).
			wantError(t, webtest.Do(t, e.h, webtest.Request{Method: ep.method, Path: ep.path}), 401, "AUTHENTICATION_ERROR")
			wantError(t, webtest.Do(t, e.h, webtest.Request{Method: ep.method, Path: ep.path, Token: "expired"}), 401, "AUTHENTICATION_ERROR")
			wantError(t, webtest.Do(t, e.h, webtest.Request{Method: ep.method, Path: ep.path, Token: e.nobody}), 403, "AUTHORIZATION_ERROR")
			if ep.action == "delete" {
				wantError(t, webtest.Do(t, e.h, webtest.Request{Method: ep.method, Path: ep.path, Token: e.viewer}), 403, "AUTHORIZATION_ERROR")
				// A cookie session must come from this site to delete.
				w := webtest.Do(t, e.h, webtest.Request{Method: ep.method, Path: ep.path,
					Cookies: []*http.Cookie{{Name: "cms_session", Value: e.deleter}}, Header: http.Header{"Origin": {"https://evil.example"}}})
				wantError(t, w, 403, "CSRF_REJECTED")
			}
		})
	}
	if n := e.files(t, "contact"); n != 1 {
		t.Errorf("refused requests changed the submissions: %d files", n)
	}
}

func TestSubmissionsList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	subs := seed(t, e, "contact", 45)
	tests := []struct {
		query   string
		page    int
		perPage int
		first   int64 // n of the first item, -1 for none
		count   int
	}{
		{"", 1, 20, 44, 20},
		{"?page=3", 3, 20, 4, 5},
		{"?page=4", 4, 20, -1, 0},
		{"?sort=oldest", 1, 20, 0, 20},
		{"?sort=newest&perPage=100", 1, 100, 44, 45},
		{"?page=2&perPage=10&sort=oldest", 2, 10, 10, 10},
		{"?perPage=1", 1, 1, 44, 1},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			w := webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/contact/submissions" + tc.query, Token: e.viewer})
			wantStatus(t, w, http.StatusOK)
			var p page
			webtest.DecodeJSON(t, w, &p)
			if p.Data.Total != 45 || p.Data.Page != tc.page || p.Data.PerPage != tc.perPage || len(p.Data.Submissions) != tc.count {
				t.Fatalf("page = total %d page %d perPage %d count %d; want 45 %d %d %d",
					p.Data.Total, p.Data.Page, p.Data.PerPage, len(p.Data.Submissions), tc.page, tc.perPage, tc.count)
			}
			if tc.first >= 0 {
				s := p.Data.Submissions[0]
				if s.Data["n"] != float64(tc.first) || s.ID != subs[tc.first].ID || s.Form != "contact" {
					t.Errorf("first = %+v, want n %d", s, tc.first)
				}
			}
		})
	}
	bad := []string{"?page=0", "?page=-1", "?page=x", "?page=1.5", "?perPage=0", "?perPage=101", "?perPage=", "?sort=random"}
	for _, q := range bad {
		t.Run("bad "+q, func(t *testing.T) {
			t.Parallel()
			w := webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/contact/submissions" + q, Token: e.viewer})
			wantError(t, w, http.StatusBadRequest, "BAD_REQUEST")
		})
	}
	w := webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/nope/submissions", Token: e.viewer})
	wantError(t, w, http.StatusNotFound, "NOT_FOUND")
	// A form without submissions has an empty list, not null.
	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/plain/submissions", Token: e.viewer})
	wantStatus(t, w, http.StatusOK)
	if got := w.Body.String(); got != `{"data":{"submissions":[],"total":0,"page":1,"perPage":20}}` {
		t.Errorf("empty list = %s", got)
	}
}

func TestSubmissionGetAndDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	subs := seed(t, e, "contact", 3)
	id := subs[1].ID
	w := webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/contact/submissions/" + id, Token: e.viewer})
	wantStatus(t, w, http.StatusOK)
	want := fmt.Sprintf(`{"data":{"id":%q,"form":"contact","submittedAt":"2026-01-01T00:00:01.000Z","data":{"n":1}}}`, id)
	if w.Body.String() != want {
		t.Errorf("body = %s\nwant   %s", w.Body.String(), want)
	}
	for _, bad := range []string{"not-a-uuid", "00000000-0000-0000-0000-000000000000", subs[1].ID[:35] + "x"} {
		w := webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/contact/submissions/" + bad, Token: e.viewer})
		wantError(t, w, http.StatusNotFound, "NOT_FOUND")
	}
	// The id of another form's submission is not found under this form.
	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/plain/submissions/" + id, Token: e.viewer})
	wantError(t, w, http.StatusNotFound, "NOT_FOUND")

	w = webtest.Do(t, e.h, webtest.Request{Method: "DELETE", Path: "/api/forms/contact/submissions/" + id, Token: e.deleter})
	wantStatus(t, w, http.StatusOK)
	if w.Body.String() != `{"data":{"deleted":true}}` {
		t.Errorf("delete body = %s", w.Body.String())
	}
	name := "2026-01-01T00-00-01-" + id + ".yaml"
	if _, err := os.Stat(filepath.Join(e.dir, "content", "forms", "contact", name)); !os.IsNotExist(err) {
		t.Errorf("file %s still exists: %v", name, err)
	}
	w = webtest.Do(t, e.h, webtest.Request{Method: "DELETE", Path: "/api/forms/contact/submissions/" + id, Token: e.deleter})
	wantError(t, w, http.StatusNotFound, "NOT_FOUND")
	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/contact/submissions", Token: e.viewer})
	var p page
	webtest.DecodeJSON(t, w, &p)
	if p.Data.Total != 2 {
		t.Errorf("total after delete = %d, want 2", p.Data.Total)
	}
}

func TestDefinitions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	w := webtest.Do(t, e.h, webtest.Request{Path: "/api/forms"})
	wantStatus(t, w, http.StatusOK)
	if cc := w.Header().Get("Cache-Control"); cc != "public, max-age=0, s-maxage=60" {
		t.Errorf("Cache-Control = %q", cc)
	}
	var list struct {
		Data []struct {
			Handle string `json:"handle"`
		} `json:"data"`
	}
	webtest.DecodeJSON(t, w, &list)
	var handles []string
	for _, f := range list.Data {
		handles = append(handles, f.Handle)
	}
	// broken and orphan cannot take submissions, so they are not offered.
	if got := fmt.Sprint(handles); got != "[contact gated hooked nostore offsite plain rules]" {
		t.Errorf("forms = %s", got)
	}

	w = webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/contact"})
	wantStatus(t, w, http.StatusOK)
	var one struct {
		Data struct {
			Handle        string `json:"handle"`
			Title         string `json:"title"`
			Honeypot      bool   `json:"honeypot"`
			OmittedFields int    `json:"omittedFields"`
			Fields        []struct {
				Handle     string         `json:"handle"`
				Type       string         `json:"type"`
				Display    string         `json:"display"`
				Required   bool           `json:"required"`
				Validate   []string       `json:"validate"`
				Options    map[string]any `json:"options"`
				Visibility map[string]any `json:"visibility"`
			} `json:"fields"`
		} `json:"data"`
	}
	webtest.DecodeJSON(t, w, &one)
	d := one.Data
	if d.Handle != "contact" || d.Title != "Contact" || !d.Honeypot || d.OmittedFields != 1 || len(d.Fields) != 9 {
		t.Fatalf("form = %+v", d)
	}
	name := d.Fields[0]
	if name.Handle != "name" || name.Type != "text" || name.Display != "Your name" || !name.Required || fmt.Sprint(name.Validate) != "[min:2 max:80]" {
		t.Errorf("name field = %+v", name)
	}
	if d.Fields[2].Options == nil || d.Fields[3].Visibility["field"] != "topic" {
		t.Errorf("options or visibility missing: %+v %+v", d.Fields[2], d.Fields[3])
	}
	for _, leak := range []string{"submission", "store_submissions", "redirect"} {
		if strings.Contains(w.Body.String(), leak) {
			t.Errorf("public form shows %q: %s", leak, w.Body.String())
		}
	}

	wantError(t, webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/nope"}), 404, "NOT_FOUND")
	body := wantError(t, webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/broken"}), 500, "FORM_MISCONFIGURED")
	if body.Error.Message == "An unexpected error occurred" || body.Error.Message == "" {
		t.Errorf("misconfigured form message is not clear: %q", body.Error.Message)
	}
	wantError(t, webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/orphan"}), 500, "FORM_MISCONFIGURED")
	w = webtest.Do(t, e.h, webtest.Request{Method: "DELETE", Path: "/api/forms"})
	wantError(t, w, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
	wantError(t, webtest.Do(t, e.h, webtest.Request{Method: "GET", Path: "/api/forms/contact/submit"}), 405, "METHOD_NOT_ALLOWED")
	wantError(t, webtest.Do(t, e.h, webtest.Request{Path: "/api/forms/contact/other"}), 404, "NOT_FOUND")
}
