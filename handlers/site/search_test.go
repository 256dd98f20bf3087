package site_test

import (
	"html"
	"net/http"
	"strings"
	"testing"

	"cms/content/imgurl"
	"cms/handlers/site"
)

// /search renders the search page from the store's index: published entries only, with links,
// highlighted snippets and pagination, marked noindex.
func TestSearchPage(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, nil)
	w := f.get(t, "/search?q=welcome")
	if w.Code != http.StatusOK {
		t.Fatalf("search = %d\n%s", w.Code, w.Body)
	}
	wantContains(t, "search", w.Body.String(), `<h1>Search</h1>`, `<input id="search-q" type="search" name="q" value="welcome"`,
		`<a href="/blog/2026/04/hello">Hello World</a>`, `<mark>Welcome</mark>`, `1 result for “welcome”`,
		`<meta name="robots" content="noindex">`)

	// Drafts are never found; what a visitor types is escaped.
	w = f.get(t, "/search?q=yet")
	wantContains(t, "draft search", w.Body.String(), `Nothing found for “yet”.`)
	wantNotContains(t, "draft search", w.Body.String(), "Hidden Draft")
	w = f.get(t, "/search?q=%3Cscript%3E")
	wantNotContains(t, "script search", w.Body.String(), "<script>")

	// A page past the last says so and links to the first, rather than "Page 5 of 1".
	w = f.get(t, "/search?q=welcome&page=5")
	wantContains(t, "past the last page", w.Body.String(), `<p>There is no page 5 of results. <a href="/search?q=welcome">Back to the first page</a>.</p>`)
	wantNotContains(t, "past the last page", w.Body.String(), "Page 5 of", `rel="prev"`)

	// Without words the page shows the form only.
	w = f.get(t, "/search")
	if w.Code != http.StatusOK || strings.Contains(w.Body.String(), "search-results") {
		t.Errorf("empty search = %d\n%s", w.Code, w.Body)
	}

	// Pages of hits: one per page, links to the next and previous ones.
	f2 := newSite(t, testSite+`
-- resources/views/search.html --
{{with search . "perPage=1&collection=blog"}}{{.Total}}|{{range .Items}}{{.URL}}{{end}}|{{.PrevURL}}|{{.NextURL}}{{end}}
-- content/collections/blog/third.md --
---
title: Third
status: published
createdAt: 2026-06-01T09:00:00.000Z
---
Welcome back.
`, nil)
	w = f2.get(t, "/search?q=welcome")
	first := w.Body.String()
	if !strings.HasPrefix(first, "2|/blog/") || !strings.HasSuffix(strings.TrimSpace(first), "||/search?page=2&amp;q=welcome") {
		t.Errorf("first page of hits %q", first)
	}
	w = f2.get(t, "/search?q=welcome&page=2")
	second := w.Body.String()
	if !strings.HasPrefix(second, "2|/blog/") || !strings.HasSuffix(strings.TrimSpace(second), "|/search?q=welcome|") || second[:20] == first[:20] {
		t.Errorf("second page of hits %q after %q", second, first)
	}
}

// An entry whose URL is /search is that entry: the search page never shadows a record.
func TestSearchPageNeverShadows(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite+`
-- content/collections/pages/search.md --
---
title: Our Search Page
status: published
createdAt: 2026-01-01T00:00:00.000Z
---
Custom.
`, nil)
	w := f.get(t, "/search?q=welcome")
	wantContains(t, "search entry", w.Body.String(), "<h1>Our Search Page</h1>")
	wantNotContains(t, "search entry", w.Body.String(), "Hello World</a>")
}

// img and srcset build transform URLs from the configured presets and signing key; a transform
// the configuration does not allow fails the page instead of linking an image that would 403.
func TestImageFuncs(t *testing.T) {
	t.Parallel()
	b := imgurl.Builder{Key: []byte(strings.Repeat("k", 32)), Presets: map[string]imgurl.Params{
		"thumb":    {Width: 200, Height: 200, Fit: imgurl.Cover, Format: imgurl.WebP},
		"card-400": {Width: 400, Format: imgurl.WebP},
		"card-800": {Width: 800, Format: imgurl.WebP}}}
	f := newSite(t, testSite+`
-- resources/views/gallery.html --
<img src="{{img "photos/cat one.jpg" "preset=thumb"}}" srcset="{{srcset "photos/cat one.jpg" "fm=webp" 400 1200}}">
<img src="{{img "photos/cat one.jpg" "w=800&fm=webp"}}" srcset="{{srcset "photos/cat one.jpg" "preset=card-400" "preset=card-800"}}">
-- resources/views/broken.html --
<img src="{{img "photos/cat.jpg" "preset=huge"}}">
-- content/collections/pages/gallery.md --
---
title: Gallery
status: published
createdAt: 2026-01-01T00:00:00.000Z
template: gallery
---
-- content/collections/pages/broken.md --
---
title: Broken
status: published
createdAt: 2026-01-01T00:00:00.000Z
template: broken
---
`, func(d *site.Deps) { d.Images = b })
	b.Prefix = "/assets/"
	thumb, _ := b.Preset("photos/cat one.jpg", "thumb")
	set, _ := b.SrcSet("photos/cat one.jpg", imgurl.Params{Format: imgurl.WebP}, 400, 1200)
	card, _ := b.URL("photos/cat one.jpg", imgurl.Params{Width: 800, Format: imgurl.WebP})
	presets, _ := b.PresetSrcSet("photos/cat one.jpg", "card-400", "card-800")
	if !strings.Contains(set, "&s=") || !strings.Contains(card, "preset=card-800") {
		t.Fatalf("builder: %q %q", set, card)
	}
	w := f.get(t, "/gallery")
	if w.Code != http.StatusOK {
		t.Fatalf("gallery = %d\n%s", w.Code, w.Body)
	}
	wantContains(t, "gallery", w.Body.String(), `src="`+html.EscapeString(thumb)+`"`, `srcset="`+html.EscapeString(set)+`"`,
		`src="`+html.EscapeString(card)+`"`, `srcset="`+html.EscapeString(presets)+`"`)

	if w := f.get(t, "/broken"); w.Code != http.StatusInternalServerError || !strings.Contains(f.log.String(), "unknown preset") {
		t.Errorf("unknown preset = %d, log %s", w.Code, f.log.String())
	}
}
