package routing_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"cms/content"
	"cms/content/routing"
)

func candidates(t *routing.Table, path string) []string {
	segs, ok := routing.Split(path, nil)
	if !ok {
		return []string{"malformed"}
	}
	var out []string
	t.Match(segs, func(c routing.Candidate) bool {
		k := "entry"
		if c.Kind == routing.Term {
			k = "term"
		}
		out = append(out, k+":"+c.Handle+"/"+c.Slug)
		return true
	})
	return out
}

func TestMatchTable(t *testing.T) {
	t.Parallel()
	tab, errs := routing.New([]routing.Route{
		{Kind: routing.Entry, Handle: "pages"},                                        // default /{slug}
		{Kind: routing.Entry, Handle: "blog", Pattern: "/blog/{year}/{month}/{slug}"}, // date parts
		{Kind: routing.Entry, Handle: "news", Pattern: "/{collection}/{day}-{slug}"},  // {collection} is literal
		{Kind: routing.Entry, Handle: "docs", Pattern: "/docs/{slug}"},                //
		{Kind: routing.Entry, Handle: "guides", Pattern: "/docs/{slug}"},              // same pattern, declared later
		{Kind: routing.Entry, Handle: "files", Pattern: "/files/{slug}.html"},         // suffix
		{Kind: routing.Term, Handle: "tags"},                                          // default /{taxonomy}/{slug}
		{Kind: routing.Term, Handle: "topics", Pattern: "/t/{slug}"},                  //
		{Kind: routing.Entry, Handle: "broken", Pattern: "/broken"},                   // no {slug}
		{Kind: routing.Entry, Handle: "broken2", Pattern: "/x/{parent_uri}/{slug}"},   // unsupported
		{Kind: routing.Term, Handle: "broken3", Pattern: "/x/{year}/{slug}"},          // dates are entries only
		{Kind: routing.Entry, Handle: "broken4", Pattern: "/y/{slug}{year}"},          // ambiguous
	})
	if len(errs) != 4 {
		t.Errorf("errors = %v, want 4", errs)
	}
	for _, e := range errs {
		if !strings.Contains(e.Error(), "broken") {
			t.Errorf("error does not name the collection: %v", e)
		}
	}
	cases := []struct {
		path string
		want []string
	}{
		{"/about", []string{"entry:pages/about"}},
		{"/", nil},
		{"/about/", nil}, // trailing slash: no route ends in an empty segment
		{"/blog/2026/04/hello", []string{"entry:blog/hello"}},
		{"/blog/26/04/hello", nil},  // year is four digits
		{"/blog/2026/4/hello", nil}, // month is two digits
		{"/blog/2026/ab/hello", nil},
		{"/blog", []string{"entry:pages/blog"}},
		{"/news/07-launch", []string{"entry:news/launch"}},
		{"/news/launch", nil},                                               // no day part
		{"/docs/intro", []string{"entry:docs/intro", "entry:guides/intro"}}, // same rank: declaration order
		{"/files/report.html", []string{"entry:files/report"}},
		{"/files/report.v2.html", []string{"entry:files/report.v2"}},
		{"/files/.html", nil}, // empty slug
		{"/tags/go", []string{"term:tags/go"}},
		{"/t/go", []string{"term:topics/go"}},
		{"/hello%20world", []string{"entry:pages/hello world"}},
		{"/caf%C3%A9", []string{"entry:pages/café"}},
		{"/bad%zz", []string{"malformed"}},
		{"/bad%", []string{"malformed"}},
		{"/a%2Fb", []string{"entry:pages/a/b"}}, // an encoded slash stays in the slug (no entry has one)
		{"/broken", []string{"entry:pages/broken"}},
	}
	for _, c := range cases {
		got := candidates(tab, c.path)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: candidates %v, want %v", c.path, got, c.want)
		}
	}
}

// Ranking: more literal characters first, then more segments, then declaration order.
func TestSpecificity(t *testing.T) {
	t.Parallel()
	tab, errs := routing.New([]routing.Route{
		{Kind: routing.Entry, Handle: "a", Pattern: "/{slug}/{year}"},       // 0 literal, 2 segments
		{Kind: routing.Entry, Handle: "b", Pattern: "/{slug}/{month}{day}"}, // 0 literal, 2 segments, later
		{Kind: routing.Entry, Handle: "c", Pattern: "/{slug}/2026"},         // 4 literal
		{Kind: routing.Entry, Handle: "d", Pattern: "/p-{slug}/{year}"},     // 2 literal
	})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	got := candidates(tab, "/p-x/2026")
	want := []string{"entry:c/p-x", "entry:d/x", "entry:a/p-x", "entry:b/p-x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates %v, want %v", got, want)
	}
	// Stopping early: yield false ends the walk.
	n := 0
	segs, _ := routing.Split("/p-x/2026", nil)
	tab.Match(segs, func(routing.Candidate) bool { n++; return false })
	if n != 1 {
		t.Errorf("yield called %d times after returning false", n)
	}
}

// The URL functions and the matcher agree: every URL an entry or term gets leads back to it.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	colls := []*content.Collection{{Handle: "pages"}, {Handle: "blog", Route: "/blog/{year}/{month}/{day}/{slug}"}, {Handle: "news", Route: "/{collection}/{slug}"}}
	taxes := []*content.Taxonomy{{Handle: "tags"}, {Handle: "topics", Route: "/topic/{slug}"}}
	tab, errs := routing.New(routing.Routes(colls, taxes))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	for _, c := range colls {
		e := &content.Entry{Collection: c.Handle, Slug: "my-post", CreatedAt: "2026-04-06T09:00:00.000Z"}
		u := content.EntryURL(c, e)
		if got := candidates(tab, u); len(got) == 0 || got[0] != "entry:"+c.Handle+"/my-post" {
			t.Errorf("%s: %s -> %v", c.Handle, u, got)
		}
	}
	for _, x := range taxes {
		u := content.TermURL(x, &content.Term{Taxonomy: x.Handle, Slug: "go"})
		if got := candidates(tab, u); len(got) == 0 || got[0] != "term:"+x.Handle+"/go" {
			t.Errorf("%s: %s -> %v", x.Handle, u, got)
		}
	}
	if u := content.TermURL(&content.Taxonomy{Handle: "tags"}, &content.Term{Slug: "go"}); u != "/tags/go" {
		t.Errorf("default term URL = %q", u)
	}
}

func TestSelectSite(t *testing.T) {
	t.Parallel()
	sites := routing.NewSites([]content.Site{
		{Handle: "main", URL: "https://example.com"},
		{Handle: "de", URL: "https://example.com/de"},
		{Handle: "blog", URL: "https://Blog.Example.org:8443"},
		{Handle: "shop", URL: "http://shop.example.net/store", Default: true},
	})
	cases := []struct {
		host, path string
		site, rest string
		inside     bool
	}{
		{"example.com", "/about", "main", "/about", true},
		{"EXAMPLE.com:443", "/about", "main", "/about", true},
		{"example.com:80", "/", "main", "/", true},
		{"example.com", "/de/about", "de", "/about", true},
		{"example.com", "/de", "de", "/", true},
		{"example.com", "/deutsch", "main", "/deutsch", true}, // prefix on a segment boundary only
		{"blog.example.org:8443", "/x", "blog", "/x", true},
		{"blog.example.org", "/x", "shop", "/x", false},  // another port is another origin
		{"unknown.test", "/store/x", "shop", "/x", true}, // unknown host: the default site
		{"unknown.test", "/x", "shop", "/x", false},
		{"shop.example.net", "/store", "shop", "/", true},
	}
	for _, c := range cases {
		s, rest, inside := sites.Select(c.host, c.path)
		if s.Handle != c.site || rest != c.rest || inside != c.inside {
			t.Errorf("%s %s: %s %s %v, want %s %s %v", c.host, c.path, s.Handle, rest, inside, c.site, c.rest, c.inside)
		}
	}
	if d := sites.Default(); d.Handle != "shop" {
		t.Errorf("default = %s", d.Handle)
	}
}

// BenchmarkMatch resolves a path among 20 collections of 10,000 entries each: the table match
// plus the existence check a caller makes (a map here, the store's index in the site group).
func BenchmarkMatch(b *testing.B) {
	var routes []routing.Route
	exists := map[[2]string]bool{}
	var paths []string
	for c := 0; c < 20; c++ {
		h := fmt.Sprintf("c%02d", c)
		pattern := "/" + h + "/{slug}"
		if c%4 == 0 {
			pattern = "/" + h + "/{year}/{month}/{slug}"
		}
		if c == 19 {
			pattern = "/{slug}" // a catch-all competing with every one-segment path
		}
		routes = append(routes, routing.Route{Kind: routing.Entry, Handle: h, Pattern: pattern})
		for i := 0; i < 10000; i++ {
			slug := fmt.Sprintf("entry-%05d", i)
			exists[[2]string{h, slug}] = true
			if i%500 == 0 {
				e := &content.Entry{Collection: h, Slug: slug, CreatedAt: "2026-04-06"}
				paths = append(paths, content.EntryURL(&content.Collection{Handle: h, Route: pattern}, e))
			}
		}
	}
	tab, errs := routing.New(routes)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	var buf [routing.MaxSegments]string
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		segs, _ := routing.Split(paths[i%len(paths)], buf[:])
		found := false
		tab.Match(segs, func(c routing.Candidate) bool {
			found = exists[[2]string{c.Handle, c.Slug}]
			return !found
		})
		if !found {
			b.Fatal("not found")
		}
	}
}
