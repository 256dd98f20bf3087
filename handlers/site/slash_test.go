package site_test

import (
	"net/http"
	"testing"

	"cms/content"
	"cms/handlers/site"
)

// seo.trailingSlash: "always" moves /x to /x/ and builds every page link, canonical and sitemap
// URL with the slash; "preserve" answers both forms and builds links without it.
func TestTrailingSlashPolicies(t *testing.T) {
	t.Parallel()
	policy := func(p string) func(*site.Deps) {
		return func(d *site.Deps) { d.Sites[0].TrailingSlash = p }
	}

	always := newSite(t, testSite, policy(content.SlashAlways))
	w := always.get(t, "/about?a=1")
	if w.Code != http.StatusPermanentRedirect || w.Header().Get("Location") != "/about/?a=1" {
		t.Errorf("always /about: %d %q", w.Code, w.Header().Get("Location"))
	}
	w = always.get(t, "/blog/2026/04/hello/")
	if w.Code != 200 {
		t.Fatalf("always /blog/2026/04/hello/: %d", w.Code)
	}
	wantContains(t, "always entry", w.Body.String(),
		`<link rel="canonical" href="https://example.com/blog/2026/04/hello/">`, `<a href="/about/">About</a>`, `<a class="site-name" href="/">Test Site</a>`)
	if w := always.get(t, "/"); w.Code != 200 {
		t.Errorf("always /: %d", w.Code)
	} else {
		wantContains(t, "always home", w.Body.String(), `<a href="/blog/2026/05/second/">Second Post</a>`)
	}
	if w := always.get(t, "/tags/news/"); w.Code != 200 {
		t.Errorf("always /tags/news/: %d", w.Code)
	}
	// Files are not pages: no slash is added to them.
	sm := always.get(t, "/sitemap.xml")
	if sm.Code != 200 {
		t.Fatalf("always sitemap: %d", sm.Code)
	}
	wantContains(t, "always sitemap", sm.Body.String(), "<loc>https://example.com/blog/2026/04/hello/</loc>", "<loc>https://example.com/about/</loc>")
	wantNotContains(t, "always sitemap", sm.Body.String(), "<loc>https://example.com/about</loc>")
	if w := always.get(t, "/robots.txt"); w.Code != 200 {
		t.Errorf("always robots.txt: %d", w.Code)
	}

	preserve := newSite(t, testSite, policy(content.SlashPreserve))
	for _, p := range []string{"/about", "/about/"} {
		w := preserve.get(t, p)
		if w.Code != 200 {
			t.Errorf("preserve %s: %d", p, w.Code)
			continue
		}
		wantContains(t, "preserve "+p, w.Body.String(), `<link rel="canonical" href="https://example.com/about">`)
	}
	if w := preserve.get(t, "/no-such-page/"); w.Code != 404 {
		t.Errorf("preserve /no-such-page/: %d", w.Code)
	}

	never := newSite(t, testSite, policy(content.SlashNever))
	if w := never.get(t, "/about/"); w.Code != http.StatusPermanentRedirect || w.Header().Get("Location") != "/about" {
		t.Errorf("never /about/: %d %q", w.Code, w.Header().Get("Location"))
	}
}
