package site_test

import (
	"encoding/xml"
	"net/http"
	"slices"
	"strings"
	"testing"

	"cms/content"
	"cms/handlers/site"
)

type urlset struct {
	XMLName xml.Name
	URLs    []struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
	} `xml:"url"`
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

func parseSitemap(t *testing.T, body []byte) urlset {
	t.Helper()
	var u urlset
	if err := xml.Unmarshal(body, &u); err != nil {
		t.Fatalf("sitemap is not XML: %v\n%s", err, body)
	}
	if u.XMLName.Space != "http://www.sitemaps.org/schemas/sitemap/0.9" {
		t.Errorf("namespace %q", u.XMLName.Space)
	}
	return u
}

func TestSitemap(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, nil)
	w := f.get(t, "/sitemap.xml")
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Fatalf("%d %v", w.Code, w.Header())
	}
	u := parseSitemap(t, w.Body.Bytes())
	if u.XMLName.Local != "urlset" {
		t.Errorf("root %s", u.XMLName.Local)
	}
	var locs []string
	for _, x := range u.URLs {
		locs = append(locs, x.Loc)
	}
	// Published entries and public terms, sorted; no draft entry or term, no noindex page, no
	// home page (it is not an entry).
	want := []string{
		"https://example.com/about",
		"https://example.com/blog/2026/04/hello",
		"https://example.com/blog/2026/05/second",
		"https://example.com/contact",
		"https://example.com/tags/news",
	}
	if !slices.Equal(locs, want) {
		t.Errorf("locs\n%v\nwant\n%v", locs, want)
	}
	if u.URLs[1].LastMod != "2026-04-07T10:00:00.000Z" {
		t.Errorf("lastmod %q", u.URLs[1].LastMod)
	}
	if b := w.Body.String(); !strings.HasPrefix(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n<urlset xmlns=") || !strings.HasSuffix(b, "  </url>\n</urlset>\n") {
		t.Errorf("framing:\n%s", b)
	}
	// Per site: the shop's sitemap has its own origin.
	f2 := newSite(t, testSite, func(d *site.Deps) {
		d.Sites = []content.Site{{Handle: "main", URL: "https://example.com", Default: true}, {Handle: "shop", URL: "https://shop.example.net/store"}}
	})
	u = parseSitemap(t, f2.do(t, req{host: "shop.example.net", path: "/store/sitemap.xml"}).Body.Bytes())
	if len(u.URLs) != 5 || u.URLs[0].Loc != "https://shop.example.net/store/about" {
		t.Errorf("shop sitemap: %+v", u.URLs)
	}
}

// Beyond the limit, /sitemap.xml is an index of numbered parts that hold every URL once.
func TestSitemapIndex(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, func(d *site.Deps) { d.SitemapMaxURLs = 2 })
	u := parseSitemap(t, f.get(t, "/sitemap.xml").Body.Bytes())
	if u.XMLName.Local != "sitemapindex" || len(u.Sitemaps) != 3 || u.Sitemaps[2].Loc != "https://example.com/sitemap-3.xml" {
		t.Fatalf("index: %+v", u)
	}
	var all []string
	for i := 1; i <= 3; i++ {
		w := f.get(t, "/sitemap-"+string(rune('0'+i))+".xml")
		if w.Code != 200 {
			t.Fatalf("part %d: %d", i, w.Code)
		}
		for _, x := range parseSitemap(t, w.Body.Bytes()).URLs {
			all = append(all, x.Loc)
		}
	}
	if len(all) != 5 || !slices.IsSorted(all) {
		t.Errorf("parts hold %v", all)
	}
	for _, p := range []string{"/sitemap-4.xml", "/sitemap-0.xml", "/sitemap-01.xml", "/sitemap-x.xml"} {
		if w := f.get(t, p); w.Code != 404 {
			t.Errorf("%s: %d", p, w.Code)
		}
	}
	// Without an index there are no parts.
	if w := newSite(t, testSite, nil).get(t, "/sitemap-1.xml"); w.Code != 404 {
		t.Errorf("part without index: %d", w.Code)
	}
}

func TestRobotsHumans(t *testing.T) {
	t.Parallel()
	f := newSite(t, testSite, func(d *site.Deps) {
		d.Sites = []content.Site{{Handle: "main", URL: "https://example.com", Default: true}, {Handle: "de", URL: "https://example.com/de"}}
	})
	cases := []struct{ host, path, want string }{
		{"example.com", "/robots.txt", "User-agent: *\nAllow: /\n\nHost: https://example.com\nSitemap: https://example.com/sitemap.xml\n"},
		{"example.com", "/de/robots.txt", "User-agent: *\nAllow: /\n\nHost: https://example.com/de\nSitemap: https://example.com/de/sitemap.xml\n"},
		{"attacker.test", "/robots.txt", "User-agent: *\nAllow: /\n\nHost: https://example.com\nSitemap: https://example.com/sitemap.xml\n"},
		{"example.com", "/humans.txt", "/* SITE */\nhttps://example.com\n"},
	}
	for _, c := range cases {
		w := f.do(t, req{host: c.host, path: c.path})
		if w.Code != 200 || w.Body.String() != c.want || w.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("%s%s: %d %q %q", c.host, c.path, w.Code, w.Header().Get("Content-Type"), w.Body)
		}
	}
}

// Switched off, each route is a plain-text 404; a site template of the same name overrides the
// built-in body.
func TestSEOFilesSwitches(t *testing.T) {
	t.Parallel()
	off := newSite(t, testSite, func(d *site.Deps) { d.Flags = site.Flags{} })
	for _, p := range []string{"/sitemap.xml", "/robots.txt", "/humans.txt"} {
		w := off.get(t, p)
		if w.Code != 404 || w.Body.String() != "Not Found\n" || w.Header().Get("Content-Type") != "text/plain; charset=utf-8" || w.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %q %v", p, w.Code, w.Body, w.Header())
		}
	}
	// Only the sitemap off: robots.txt names none.
	noMap := newSite(t, testSite, func(d *site.Deps) { d.Flags.Sitemap = false })
	if b := noMap.get(t, "/robots.txt").Body.String(); b != "User-agent: *\nAllow: /\n\nHost: https://example.com\n" {
		t.Errorf("robots without sitemap: %q", b)
	}
	custom := newSite(t, testSite+`
-- resources/views/robots.txt --
User-agent: *
Disallow: /private
Sitemap: {{.Sitemap}}
-- resources/views/humans.txt --
/* TEAM */ {{.Site.Handle}}
-- resources/views/sitemap.xml --
<urls>{{range .URLs}}<u>{{.Loc}}</u>{{end}}</urls>
`, nil)
	if b := custom.get(t, "/robots.txt").Body.String(); b != "User-agent: *\nDisallow: /private\nSitemap: https://example.com/sitemap.xml\n" {
		t.Errorf("robots override: %q", b)
	}
	if b := custom.get(t, "/humans.txt").Body.String(); b != "/* TEAM */ default\n" {
		t.Errorf("humans override: %q", b)
	}
	if w := custom.get(t, "/sitemap.xml"); w.Code != http.StatusOK || w.Body.String() != "<urls><u>https://example.com/about</u><u>https://example.com/blog/2026/04/hello</u><u>https://example.com/blog/2026/05/second</u><u>https://example.com/contact</u><u>https://example.com/tags/news</u></urls>\n" {
		t.Errorf("sitemap override: %d %q", w.Code, w.Body)
	}
}
