package publicentries_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/publicentries"
	"cms/handlers/web/webtest"
)

type searchJSON struct {
	Data []struct {
		Collection, Slug, Title, URL, Snippet string
		Score                                 float64
	}
	Meta struct {
		Q                    string
		Total, Offset, Limit int
	}
}

func (s searchJSON) slugs() string {
	var out []string
	for _, h := range s.Data {
		out = append(out, h.Collection+"/"+h.Slug)
	}
	return strings.Join(out, ",")
}

func TestSearch(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	st := contenttest.OpenStore(t, dir)
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false)})
	if err != nil {
		t.Fatal(err)
	}
	get := func(t *testing.T, query string) searchJSON {
		t.Helper()
		w := webtest.Do(t, h, webtest.Request{Path: "/api/public/search?" + query})
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", query, w.Code, w.Body)
		}
		var s searchJSON
		webtest.DecodeJSON(t, w, &s)
		return s
	}
	q := url.QueryEscape
	for _, tt := range []struct{ query, want string }{
		{"q=one", "blog/one"},
		{"q=" + q("body"), "blog/two,news/first"}, // a title-less match in two collections; the draft's body says "public"
		{"q=" + q("public"), ""},                  // only the draft holds it
		{"q=" + q("secret"), ""},                  // the draft's title
		{"q=" + q("projec"), "news/first"},        // prefix of the last word
		{"q=" + q("FIRST"), "news/first"},         // folded
		{"q=" + q("long body"), "news/first"},     // every word
		{"q=" + q("long nothing"), ""},            //
		{"q=" + q("body") + "&collection=news", "news/first"},
		{"q=" + q("body") + "&limit=1", "blog/two"},
		{"q=" + q("body") + "&limit=1&offset=1", "news/first"},
	} {
		if got := get(t, tt.query).slugs(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.query, got, tt.want)
		}
	}
	s := get(t, "q="+q("projection"))
	if len(s.Data) != 1 || s.Data[0].URL != "/news/first" || s.Data[0].Title != "First" || s.Meta.Total != 1 || s.Meta.Limit != 10 || s.Meta.Q != "projection" {
		t.Fatalf("got %+v", s)
	}
	if want := "A long body that a <mark>projection</mark> leaves out."; s.Data[0].Snippet != want {
		t.Errorf("snippet = %q, want %q", s.Data[0].Snippet, want)
	}
	// The blog entry "one" has a <script> in its body: snippets are plain text, tags dropped.
	if s := get(t, "q=alert"); len(s.Data) != 1 || s.Data[0].Snippet != "One <mark>alert</mark>(1)" {
		t.Errorf("snippet = %+v", s.Data)
	}

	// Changes are searchable at once: an edit, a publication and a delete.
	cur, err := st.Entry("news", "second")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Content = "Now about gardening."
	if _, err := st.UpdateEntry("news", "second", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	if got := get(t, "q=gardening").slugs(); got != "news/second" {
		t.Errorf("after an edit: %s", got)
	}
	draft, _ := st.Entry("blog", "secret")
	pub := *draft
	pub.Status = "published"
	if _, err := st.UpdateEntry("blog", "secret", draft.Hash, &pub); err != nil {
		t.Fatal(err)
	}
	if got := get(t, "q=public").slugs(); got != "blog/secret" {
		t.Errorf("after publishing: %s", got)
	}
	if err := st.DeleteEntry("news", "first"); err != nil {
		t.Fatal(err)
	}
	if got := get(t, "q=projection").slugs(); got != "" {
		t.Errorf("after a delete: %s", got)
	}
}

func TestSearchErrors(t *testing.T) {
	t.Parallel()
	h := newHandler(t, contenttest.WriteSite(t, site))
	for _, tt := range []struct {
		path, code, msg string
		status          int
	}{
		{"/api/public/search", "BAD_REQUEST", "q is required", 400},
		{"/api/public/search?q=" + strings.Repeat("a", 201), "BAD_REQUEST", "longer than 200", 400},
		{"/api/public/search?q=a&limit=51", "BAD_REQUEST", "limit must be a whole number from 1 to 50", 400},
		{"/api/public/search?q=a&offset=1001", "BAD_REQUEST", "offset must be a whole number from 0 to 1000", 400},
		{"/api/public/search?q=a&q=b", "BAD_REQUEST", "only once", 400},
		{"/api/public/search?q=a&collection=nope", "NOT_FOUND", `Collection "nope" not found`, 404},
		{"/api/public/search?q=a&collection=..", "BAD_REQUEST", "Invalid collection", 400},
	} {
		w := webtest.Do(t, h, webtest.Request{Path: tt.path})
		if w.Code != tt.status {
			t.Errorf("%s: status %d, want %d: %s", tt.path, w.Code, tt.status, w.Body)
			continue
		}
		if e := webtest.DecodeError(t, w); e.Error.Code != tt.code || !strings.Contains(e.Error.Message, tt.msg) {
			t.Errorf("%s: error %+v, want %s %q", tt.path, e.Error, tt.code, tt.msg)
		}
	}
}
