package sitemap_test

import (
	"bytes"
	"encoding/xml"
	"testing"

	"cms/content/sitemap"
)

func TestURLSet(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w := sitemap.NewURLSet(&b)
	w.URL(sitemap.URL{Loc: "https://example.com/a?x=1&y=<2>", LastMod: "2026-04-06T09:00:00.000Z", ChangeFrequency: "weekly", Priority: 0.75})
	w.URL(sitemap.URL{Loc: "https://example.com/b", Priority: -1})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>https://example.com/a?x=1&amp;y=&lt;2&gt;</loc>
    <lastmod>2026-04-06T09:00:00.000Z</lastmod>
    <changefreq>weekly</changefreq>
    <priority>0.8</priority>
  </url>
  <url>
    <loc>https://example.com/b</loc>
  </url>
</urlset>
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var doc struct {
		XMLName xml.Name
		URLs    []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.XMLName.Space != sitemap.Namespace || doc.XMLName.Local != "urlset" || len(doc.URLs) != 2 || doc.URLs[0].Loc != "https://example.com/a?x=1&y=<2>" {
		t.Errorf("parsed %+v", doc)
	}
}

// The image namespace is declared only when asked for, and images are written only then.
func TestImages(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w := sitemap.NewURLSetImages(&b)
	w.URL(sitemap.URL{Loc: "https://example.com/a", Priority: -1, Image: "https://example.com/assets/a.png"})
	w.Close()
	want := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/a</loc>
    <image:image>
      <image:loc>https://example.com/assets/a.png</image:loc>
    </image:image>
  </url>
</urlset>
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var doc struct {
		URLs []struct {
			Image struct {
				Loc string `xml:"http://www.google.com/schemas/sitemap-image/1.1 loc"`
			} `xml:"http://www.google.com/schemas/sitemap-image/1.1 image"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil || len(doc.URLs) != 1 || doc.URLs[0].Image.Loc != "https://example.com/assets/a.png" {
		t.Errorf("parsed %+v, %v", doc, err)
	}
	b.Reset()
	w = sitemap.NewURLSet(&b)
	w.URL(sitemap.URL{Loc: "https://example.com/a", Priority: -1, Image: "https://example.com/assets/a.png"})
	w.Close()
	if bytes.Contains(b.Bytes(), []byte("image")) {
		t.Errorf("image without the namespace:\n%s", b.String())
	}
}

func TestIndex(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w := sitemap.NewIndex(&b)
	w.Sitemap("https://example.com/sitemap-1.xml", "")
	w.Close()
	want := `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap>
    <loc>https://example.com/sitemap-1.xml</loc>
  </sitemap>
</sitemapindex>
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	for n, want := range map[int]int{0: 1, 1: 1, 50000: 1, 50001: 2, 100000: 2, 100001: 3} {
		if got := sitemap.Parts(n, sitemap.MaxURLs); got != want {
			t.Errorf("Parts(%d) = %d, want %d", n, got, want)
		}
	}
}
