package entries_test

import (
	"net/http"
	"testing"

	"cms/handlers/web/webtest"
)

type wireCollection struct {
	Handle        string   `json:"handle"`
	Title         string   `json:"title"`
	Blueprint     string   `json:"blueprint"`
	Route         string   `json:"route"`
	Sortable      bool     `json:"sortable"`
	Dated         bool     `json:"dated"`
	DefaultStatus string   `json:"defaultStatus"`
	Taxonomies    []string `json:"taxonomies"`
}

func TestCollections(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Run("list", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Path: "/api/collections", Token: tokEditor})
		if w.Code != http.StatusOK {
			t.Fatalf("status = %d; body %s", w.Code, w.Body)
		}
		var body struct{ Data []wireCollection }
		webtest.DecodeJSON(t, w, &body)
		var handles []string
		for _, c := range body.Data {
			handles = append(handles, c.Handle)
		}
		if len(handles) != 3 || handles[0] != "blog" || handles[1] != "news" || handles[2] != "pages" {
			t.Errorf("handles = %v", handles)
		}
	})
	t.Run("one", func(t *testing.T) {
		t.Parallel()
		w := e.do(t, webtest.Request{Path: "/api/collections/news", Token: tokEditor})
		if w.Code != http.StatusOK {
			t.Fatalf("status = %d; body %s", w.Code, w.Body)
		}
		var body struct{ Data wireCollection }
		webtest.DecodeJSON(t, w, &body)
		want := wireCollection{Handle: "news", Title: "News", Blueprint: "news", Route: "/news/{year}/{slug}", DefaultStatus: "published", Taxonomies: []string{}}
		if got := body.Data; got.Handle != want.Handle || got.Title != want.Title || got.Blueprint != want.Blueprint ||
			got.Route != want.Route || got.DefaultStatus != want.DefaultStatus || got.Taxonomies == nil {
			t.Errorf("collection = %+v, want %+v", got, want)
		}
	})
	errs := []struct {
		name, path string
		want       errCase
	}{
		{"unknown", "/api/collections/recipes", errCase{404, "NOT_FOUND", `Collection "recipes" not found`, nil}},
		{"invalid handle", "/api/collections/bl%20og", errCase{400, "BAD_REQUEST", `Invalid collection handle "bl og": use letters, digits, '-' and '_'`, nil}},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkError(t, e.do(t, webtest.Request{Path: tc.path, Token: tokEditor}), tc.want)
		})
	}
}
