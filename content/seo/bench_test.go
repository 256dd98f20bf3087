package seo_test

import (
	"testing"

	"cms/content"
	"cms/content/seo"
)

type parsedDocs map[string]*content.Map

func (d parsedDocs) SEOSite(site string) (*content.Map, error) { return d[site], nil }
func (d parsedDocs) SEOSection(kind, handle string) (*content.Map, error) {
	return d[kind+"/"+handle], nil
}

// BenchmarkResolveHead: one page's metadata and head tags with a site and a section document
// and a record seo key, as the site renders each page.
func BenchmarkResolveHead(b *testing.B) {
	d := parsedDocs{
		"default":         yamlMap(b, "siteName: Example\ntitleSuffix: Example\nsocial: {twitterSite: '@ex', image: brand.png}"),
		"collection/blog": yamlMap(b, "description: {kind: field, value: summary}\nsitemap: {priority: 0.8}\njsonLd: {type: Article}"),
	}
	r := seo.NewResolver(allOn, d)
	s := subject(b, "summary: A summary of the post\nseo:\n  robots: {nosnippet: true}")
	b.ReportAllocs()
	for b.Loop() {
		if r.Resolve(s).Head() == "" {
			b.Fatal("empty head")
		}
	}
}
