package entries_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"cms/handlers/web/webtest"
)

// TestWhoSeesDrafts is the draft rule of the Control Panel API, the same table as GraphQL's
// (handlers/graphql TestWhoSeesDrafts): whoever may view a collection's entries sees its drafts;
// everyone else sees nothing of the collection.
func TestWhoSeesDrafts(t *testing.T) {
	t.Parallel()
	tokViewer := webtest.Token("viewer") // entries:view everywhere, nothing else
	e := newEnv(t)
	auth := newAuth(t)
	auth.Add(tokViewer, "viewer", webtest.Role("viewer", webtest.Grant("entries", "view")))
	h := e.withAuth(t, auth)
	cases := []struct {
		name   string
		token  string
		drafts bool // sees blog's drafts; false = refused 403
	}{
		{"viewer", tokViewer, true},
		{"author scoped to the collection", tokAuthor, true},
		{"editor", tokEditor, true},
		{"role scoped to another collection", tokNewsOnly, false},
		{"role without entries", tokNothing, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			list := webtest.Do(t, h, webtest.Request{Path: "/api/entries/blog?status=draft", Token: tc.token})
			all := webtest.Do(t, h, webtest.Request{Path: "/api/entries/blog", Token: tc.token})
			one := webtest.Do(t, h, webtest.Request{Path: "/api/entries/blog/second", Token: tc.token})
			if !tc.drafts {
				for _, w := range []*httptest.ResponseRecorder{list, all, one} {
					checkError(t, w, errCase{403, "AUTHORIZATION_ERROR", "Insufficient permissions to view entries", nil})
				}
				return
			}
			var l listBody
			webtest.DecodeJSON(t, list, &l)
			if got := slugs(l); !slices.Equal(got, []string{"second"}) {
				t.Errorf("status=draft: %v, want [second]", got)
			}
			webtest.DecodeJSON(t, all, &l)
			if got := slugs(l); !slices.Equal(got, []string{"hello", "second", "third"}) {
				t.Errorf("every status: %v, want [hello second third]", got)
			}
			if one.Code != http.StatusOK || decodeEntry(t, one).Status != "draft" {
				t.Errorf("GET the draft: status %d; body %s", one.Code, one.Body)
			}
		})
	}
}
