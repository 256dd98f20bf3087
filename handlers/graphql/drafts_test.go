package graphql_test

import (
	"slices"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/handlers/graphql"
	"cms/handlers/web/webtest"
)

// TestWhoSeesDrafts is the draft rule of GraphQL, the same table as the Control Panel API's
// (handlers/entries TestWhoSeesDrafts): whoever may view a collection's entries sees its drafts
// when they ask for them; everyone else sees nothing of the collection. Without a status argument
// only published entries come back, so a frontend never shows a draft by accident.
func TestWhoSeesDrafts(t *testing.T) {
	t.Parallel()
	var (
		viewerTok = webtest.Token("viewer") // entries:view everywhere, nothing else
		authorTok = webtest.Token("author") // entries view/create/edit on blog only
		otherTok  = webtest.Token("other")  // every entries action on pages only
	)
	auth := newAuth(t)
	auth.Add(viewerTok, "viewer", webtest.Role("viewer", webtest.Grant("entries", "view")))
	auth.Add(authorTok, "author", webtest.Role("author",
		content.Permission{Resource: "entries", Actions: []string{"view", "create", "edit"}, Scope: "blog"}))
	auth.Add(otherTok, "other", webtest.Role("other",
		content.Permission{Resource: "entries", Actions: []string{"view", "create", "edit", "delete", "publish"}, Scope: "pages"}))
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	h := newHandlerWith(t, st, auth, testConfig())
	cases := []struct {
		name   string
		token  string
		drafts bool // sees blog's drafts; false = refused FORBIDDEN
	}{
		{"viewer", viewerTok, true},
		{"author scoped to the collection", authorTok, true},
		{"editor", adminTok, true},
		{"role scoped to another collection", otherTok, false},
		{"role without entries", noneTok, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			drafts := post(t, h, gqlReq{token: tc.token, query: `{ blogs(status: "draft") { slug } }`})
			all := post(t, h, gqlReq{token: tc.token, query: `{ blogs(status: "all", sort: "slug:asc") { slug } }`})
			byDefault := post(t, h, gqlReq{token: tc.token, query: `{ blogs(sort: "slug:asc") { slug } }`})
			one := post(t, h, gqlReq{token: tc.token, query: `{ blog(slug: "draft-post", status: "draft") { slug } }`})
			if !tc.drafts {
				for _, r := range []response{drafts, all, byDefault, one} {
					oneError(t, r, graphql.CodeForbidden, "Insufficient permissions to view entries")
				}
				return
			}
			for _, r := range []response{drafts, all, byDefault, one} {
				noErrors(t, r)
			}
			if got := slugs(t, drafts, "blogs"); !slices.Equal(got, []string{"draft-post"}) {
				t.Errorf("status draft: %v, want [draft-post]", got)
			}
			if got := slugs(t, all, "blogs"); !slices.Equal(got, []string{"alpha", "beta", "draft-post", "gamma"}) {
				t.Errorf("status all: %v", got)
			}
			if got := slugs(t, byDefault, "blogs"); !slices.Equal(got, []string{"alpha", "beta", "gamma"}) {
				t.Errorf("no status: %v, want the published entries only", got)
			}
			if one.Data["blog"] == nil {
				t.Errorf("the draft by slug is null: %s", one.raw)
			}
		})
	}
}
