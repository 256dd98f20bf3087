package graphql_test

import (
	"log/slog"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/content/seo"
	"cms/handlers/graphql"
)

// TestEntrySEOField: with a resolver, entry types have an seo field carrying the same object as
// the public API's single entry; without one they have none.
func TestEntrySEOField(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site+`
-- resources/seo/sections/collection/blog.yaml --
seo:
  titleSuffix: Test
  description: {kind: field, value: excerpt}
`))
	h, err := graphql.New(graphql.Deps{Store: st, Auth: newAuth(t), Markdown: markdown.New(false), Config: testConfig(), Log: slog.New(slog.DiscardHandler),
		SEO:  seo.NewResolver(seo.Config{Enabled: true, Metadata: true}, st),
		Site: content.Site{Handle: "default", URL: "https://example.com", Locale: "en"}})
	if err != nil {
		t.Fatal(err)
	}
	r := post(t, h, gqlReq{token: readerTok, query: `{ blog(slug: "alpha") { seo } blogs(limit: 1, sort: "title:asc") { slug seo } }`})
	noErrors(t, r)
	s, _ := r.Data["blog"].(map[string]any)["seo"].(map[string]any)
	og, _ := s["openGraph"].(map[string]any)
	if s["title"] != "Alpha | Test" || s["description"] != "First" || s["canonical"] != "https://example.com/blog/alpha" || og["type"] != "article" || s["jsonLd"] != nil {
		t.Errorf("seo = %v", s)
	}
	if l := r.Data["blogs"].([]any); len(l) != 1 || l[0].(map[string]any)["seo"].(map[string]any)["title"] != "Alpha | Test" {
		t.Errorf("list seo = %v", l)
	}

	// Without a resolver there is no seo field.
	h = newHandlerOn(t, st, testConfig())
	if r := post(t, h, gqlReq{token: readerTok, query: `{ blog(slug: "alpha") { seo } }`}); len(r.Errors) == 0 {
		t.Errorf("seo field without a resolver: %s", r.raw)
	}
}

// On a sub-path site an entry's url carries the site's base path.
func TestSubPathSiteURL(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	h, err := graphql.New(graphql.Deps{Store: st, Auth: newAuth(t), Markdown: markdown.New(false), Config: testConfig(), Log: slog.New(slog.DiscardHandler),
		Site: content.Site{Handle: "default", URL: "https://example.com/journal"}})
	if err != nil {
		t.Fatal(err)
	}
	r := post(t, h, gqlReq{token: readerTok, query: `{ blog(slug: "alpha") { url } }`})
	noErrors(t, r)
	if u := r.Data["blog"].(map[string]any)["url"]; u != "/journal/blog/alpha" {
		t.Errorf("url = %v, want /journal/blog/alpha", u)
	}
}
