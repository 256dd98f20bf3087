package entries_test

import (
	"net/http"
	"os"
	"testing"

	"cms/handlers/web/webtest"
)

// A published entry is live: changing it in any way (title, body, slug, status) or deleting it
// needs entries:publish on its collection, on top of edit or delete. Drafts stay open to writers.
func TestPublishedEntriesNeedPublish(t *testing.T) {
	t.Parallel()
	tokWriter := webtest.Token("writer") // entries view/create/edit/delete everywhere, publish on news only
	changeRefused := errCase{403, "AUTHORIZATION_ERROR", "Changing a published entry needs the publish permission", nil}
	deleteRefused := errCase{403, "AUTHORIZATION_ERROR", "Deleting a published entry needs the publish permission", nil}
	publishRefused := errCase{403, "AUTHORIZATION_ERROR", "Insufficient permissions to publish entries", nil}
	cases := []struct {
		name   string
		token  string
		method string
		coll   string
		slug   string
		body   map[string]any // contentHash is added
		want   errCase        // status 200 = allowed
		gone   string         // on success, the slug whose file must no longer exist
	}{
		{name: "author edits the title of a published entry", token: tokAuthor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"title": "Defaced"}, want: changeRefused},
		{name: "author edits the body of a published entry", token: tokAuthor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"content": "Defaced"}, want: changeRefused},
		{name: "author edits a published entry naming its status", token: tokAuthor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"status": "published", "data": map[string]any{"excerpt": "Defaced"}}, want: changeRefused},
		{name: "author renames a published entry", token: tokAuthor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"slug": "moved"}, want: changeRefused},
		{name: "author unpublishes", token: tokAuthor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"status": "draft"}, want: changeRefused},
		{name: "author saves a published entry unchanged", token: tokAuthor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{}, want: changeRefused},
		{name: "deleter without publish deletes a published entry", token: tokDeleter, method: "DELETE", coll: "blog", slug: "hello",
			want: deleteRefused},
		{name: "publish on another collection does not count", token: tokWriter, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"title": "Defaced"}, want: changeRefused},
		{name: "publish on another collection does not count for delete", token: tokWriter, method: "DELETE", coll: "blog", slug: "third",
			want: deleteRefused},
		{name: "author still may not publish a draft", token: tokAuthor, method: "PUT", coll: "blog", slug: "second",
			body: map[string]any{"status": "published"}, want: publishRefused},

		{name: "author edits a draft", token: tokAuthor, method: "PUT", coll: "blog", slug: "second",
			body: map[string]any{"title": "Second post, revised", "content": "New body"}, want: errCase{status: 200}},
		{name: "author renames a draft", token: tokAuthor, method: "PUT", coll: "blog", slug: "second",
			body: map[string]any{"slug": "second-renamed"}, want: errCase{status: 200}, gone: "second"},
		{name: "deleter deletes a draft", token: tokDeleter, method: "DELETE", coll: "blog", slug: "second",
			want: errCase{status: 200}, gone: "second"},
		{name: "editor edits a published entry", token: tokEditor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"title": "Hello, edited"}, want: errCase{status: 200}},
		{name: "editor renames a published entry", token: tokEditor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"slug": "hello-moved"}, want: errCase{status: 200}, gone: "hello"},
		{name: "editor unpublishes", token: tokEditor, method: "PUT", coll: "blog", slug: "hello",
			body: map[string]any{"status": "draft"}, want: errCase{status: 200}},
		{name: "admin deletes a published entry", token: tokAdmin, method: "DELETE", coll: "blog", slug: "hello",
			want: errCase{status: 200}, gone: "hello"},
		{name: "publish scoped to the collection counts", token: tokWriter, method: "PUT", coll: "news", slug: "launch",
			body: map[string]any{"title": "Launch, edited"}, want: errCase{status: 200}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			auth := newAuth(t)
			auth.Add(tokWriter, "writer", webtest.Role("writer",
				webtest.Grant("entries", "view", "create", "edit", "delete"), scoped("entries", "news", "publish")))
			h := e.withAuth(t, auth)
			before := e.hashOf(t, tc.coll, tc.slug)
			req := webtest.Request{Method: tc.method, Path: "/api/entries/" + tc.coll + "/" + tc.slug, Token: tc.token}
			if tc.body != nil {
				tc.body["contentHash"] = before
				req.Body = tc.body
			}
			w := webtest.Do(t, h, req)
			if tc.want.status != http.StatusOK {
				checkError(t, w, tc.want)
				if e.hashOf(t, tc.coll, tc.slug) != before {
					t.Errorf("a refused request changed %s/%s", tc.coll, tc.slug)
				}
				if s, ok := tc.body["slug"].(string); ok {
					if _, err := os.Stat(e.file(tc.coll, s)); err == nil {
						t.Errorf("a refused rename wrote %s/%s", tc.coll, s)
					}
				}
				return
			}
			if w.Code != http.StatusOK {
				t.Fatalf("status = %d, want 200; body %s", w.Code, w.Body)
			}
			if tc.gone != "" {
				if _, err := os.Stat(e.file(tc.coll, tc.gone)); err == nil {
					t.Errorf("%s/%s still exists", tc.coll, tc.gone)
				}
			} else if e.hashOf(t, tc.coll, tc.slug) == before {
				t.Errorf("the update did not change %s/%s", tc.coll, tc.slug)
			}
		})
	}
}
