package site_test

import (
	"bytes"
	"image/png"
	"net/http"
	"testing"

	"cms/content/seo"
	"cms/content/seo/socialcard"
	"cms/handlers/site"
)

// seo.socialImages: a page whose metadata names no image points og:image at its generated card,
// which the site draws; drafts, unknown pages and pages with an image of their own have none.
func TestSocialImages(t *testing.T) {
	t.Parallel()
	archive := testSite + `-- content/collections/pages/photo.md --
---
title: Photo
status: published
og_image: https://cdn.example.com/p.jpg
---
`
	on := func(d *site.Deps) {
		d.SEO = seo.NewResolver(seo.Config{Enabled: true, Metadata: true, SocialImages: true}, nil)
		d.SocialImages = true
		d.CacheBytes = 1 << 20
	}
	f := newSite(t, archive, on)
	page := f.get(t, "/blog/2026/04/hello")
	wantContains(t, "page", page.Body.String(),
		`<meta property="og:image" content="https://example.com/_social/blog/2026/04/hello.png">`,
		`<meta name="twitter:card" content="summary_large_image">`)
	wantContains(t, "home", f.get(t, "/").Body.String(), `<meta property="og:image" content="https://example.com/_social/_home.png">`)
	wantContains(t, "photo", f.get(t, "/photo").Body.String(), `<meta property="og:image" content="https://cdn.example.com/p.jpg">`)

	w := f.get(t, "/_social/blog/2026/04/hello.png")
	if w.Code != 200 || w.Header().Get("Content-Type") != "image/png" || w.Header().Get("Etag") == "" {
		t.Fatalf("card: %d %v", w.Code, w.Header())
	}
	img, err := png.Decode(bytes.NewReader(w.Body.Bytes()))
	if err != nil || img.Bounds().Dx() != socialcard.Width || img.Bounds().Dy() != socialcard.Height {
		t.Fatalf("card is not a %dx%d PNG: %v", socialcard.Width, socialcard.Height, err)
	}
	want, _ := socialcard.Render(socialcard.Card{Title: "Hello World", Site: "Test Site"})
	if !bytes.Equal(w.Body.Bytes(), want) {
		t.Error("the card does not show the page's title and site name")
	}
	nm := f.do(t, req{path: "/_social/blog/2026/04/hello.png", header: http.Header{"If-None-Match": {w.Header().Get("Etag")}}})
	if nm.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", nm.Code)
	}
	if w := f.get(t, "/_social/_home.png"); w.Code != 200 {
		t.Errorf("home card: %d", w.Code)
	}
	for _, p := range []string{"/_social/blog/2026/04/hidden.png", "/_social/photo.png", "/_social/nope.png", "/_social/about", "/_social/.png", "/_social/about/.png"} {
		if w := f.get(t, p); w.Code != 404 || w.Header().Get("Content-Type") == "image/png" {
			t.Errorf("%s: %d %s", p, w.Code, w.Header().Get("Content-Type"))
		}
	}

	off := newSite(t, archive, nil)
	if w := off.get(t, "/_social/blog/2026/04/hello.png"); w.Code != 404 {
		t.Errorf("switched off: %d", w.Code)
	}
	wantNotContains(t, "switched off", off.get(t, "/blog/2026/04/hello").Body.String(), "/_social/")
}
