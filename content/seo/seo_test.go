package seo_test

import (
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/content/frontmatter"
	"cms/content/seo"
)

// docs is an in-memory seo.Docs: site handle or "kind/handle" -> the `seo:` YAML.
type docs map[string]string

func yamlMap(t testing.TB, src string) *content.Map {
	t.Helper()
	m, err := frontmatter.ParseYAMLMap([]byte(src), 1)
	if err != nil {
		t.Fatalf("fixture YAML: %v\n%s", err, src)
	}
	return m
}

func (d docs) get(key string) (*content.Map, error) {
	src, ok := d[key]
	if !ok {
		return nil, nil
	}
	if src == "BROKEN" {
		return nil, errors.New("line 1: did not parse")
	}
	m, err := frontmatter.ParseYAMLMap([]byte(src), 1)
	return m, err
}

func (d docs) SEOSite(site string) (*content.Map, error) { return d.get(site) }
func (d docs) SEOSection(kind, handle string) (*content.Map, error) {
	return d.get(kind + "/" + handle)
}

var site = content.Site{Handle: "default", URL: "https://example.com", Locale: "en-US", Default: true}

var allOn = seo.Config{Enabled: true, Metadata: true, StructuredData: true}

func subject(t testing.TB, front string) seo.Subject {
	s := seo.Subject{Site: site, Kind: "entry", Section: "blog", Path: "/blog/hello", Title: "Hello", Slug: "hello",
		UpdatedAt: "2026-01-02T03:04:05Z", CreatedAt: "2026-01-01T00:00:00Z"}
	if front != "" {
		s.Data = yamlMap(t, front)
	}
	return s
}

// TestCascade is the SEO cascade table of issue 11: each row resolves one subject through the
// site document, the blog collection's section document and the record's front matter.
func TestCascade(t *testing.T) {
	type want struct {
		title, description, canonical, robots, image, imageAlt, card, siteName string
		excluded, noSitemap                                                    bool
	}
	rows := []struct {
		name          string
		site, section string // the `seo:` values of the site and section documents
		record        string // the record's front matter
		cfg           *seo.Config
		want          want
	}{
		{name: "system only: the record's title and public URL",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "site literal description and suffix",
			site: "description: Site wide\ntitleSuffix: Example", want: want{title: "Hello | Example", description: "Site wide",
				canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "section overrides site, record overrides section",
			site: "description: Site", section: "description: Blog", record: "seo:\n  description: Mine",
			want: want{title: "Hello", description: "Mine", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "section wins over site when the record inherits",
			site: "description: Site", section: "description: {kind: literal, value: Blog}", record: "seo:\n  description: {kind: inherit}",
			want: want{title: "Hello", description: "Blog", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "field source",
			section: "description: {kind: field, value: summary}", record: "summary: A summary\n",
			want: want{title: "Hello", description: "A summary", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "field source of a missing field is empty",
			section: "description: {kind: field, value: nope}",
			want:    want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "a field source without a value falls back to the layer before",
			site: "description: Site\nsocial: {image: brand.png, imageAlt: Logo}", section: "description: {kind: field, value: summary}\nsocial: {image: {kind: field, value: cover}}",
			want: want{title: "Hello", description: "Site", canonical: "https://example.com/blog/hello", image: "https://example.com/assets/brand.png",
				imageAlt: "Logo", card: "summary_large_image"}},
		{name: "an image's alt text comes from its own layer or a later one",
			site: "social: {imageAlt: Logo}", section: "social: {image: {kind: field, value: cover}}", record: "cover: cat.jpg",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", image: "https://example.com/assets/cat.jpg", card: "summary_large_image"}},
		{name: "an ignored record canonical falls back to the section's",
			section: "canonical: /blog", record: "seo:\n  canonical: https://other.example/x",
			want: want{title: "Hello", canonical: "https://example.com/blog", card: "summary"}},
		{name: "template source with field tokens, braces that are not tokens kept",
			section: "description: {kind: template, value: '{title} by {author} {not a token}'}", record: "author: Ann",
			want: want{title: "Hello", description: "Hello by Ann {not a token}", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "title template then suffix",
			site: "titleSuffix: Example", section: "titleTemplate: 'Blog: {title}'",
			want: want{title: "Blog: Hello | Example", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "disabled source suppresses the description set above",
			site: "description: Site", record: "seo:\n  description: {kind: disabled}",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "disabled title template and suffix",
			site: "titleSuffix: Example\ntitleTemplate: 'X {title}'", record: "seo:\n  titleSuffix: {kind: disabled}\n  titleTemplate: {kind: disabled}",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "disabled canonical",
			record: "seo:\n  canonical: {kind: disabled}", want: want{title: "Hello", card: "summary"}},
		{name: "enabled false on the site",
			site: "enabled: false", want: want{title: "Hello", robots: "noindex", excluded: true, noSitemap: true}},
		{name: "enabled false on the section",
			section: "enabled: false", want: want{title: "Hello", robots: "noindex", excluded: true, noSitemap: true}},
		{name: "enabled false on the record",
			record: "seo:\n  enabled: false", want: want{title: "Hello", robots: "noindex", excluded: true, noSitemap: true}},
		{name: "enabled true below does not undo enabled false above",
			section: "enabled: false", record: "seo:\n  enabled: true", want: want{title: "Hello", robots: "noindex", excluded: true, noSitemap: true}},
		{name: "legacy flat keys",
			record: "meta_title: Legacy\nmeta_description: Old desc\nog_image: img/a.png\ncanonical_url: /elsewhere\nno_index: true",
			want: want{title: "Legacy", description: "Old desc", canonical: "https://example.com/elsewhere", robots: "noindex",
				image: "https://example.com/assets/img/a.png", card: "summary_large_image", noSitemap: true}},
		{name: "nested seo wins over legacy keys",
			record: "meta_title: Legacy\nmeta_description: Old\nno_index: true\nseo:\n  title: New\n  robots: {indexing: index}",
			want:   want{title: "New", description: "Old", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "canonical tracking parameters stripped, others kept in order",
			record: "seo:\n  canonical: 'https://example.com/a?utm_source=x&b=1&gclid=2&UTM_Medium=m&fbclid=3&dclid=4&msclkid=5&c=2'",
			want:   want{title: "Hello", canonical: "https://example.com/a?b=1&c=2", card: "summary"}},
		{name: "canonical with only tracking parameters",
			record: "seo:\n  canonical: 'https://example.com:443/a?utm_campaign=x'",
			want:   want{title: "Hello", canonical: "https://example.com:443/a", card: "summary"}},
		{name: "foreign canonical ignored",
			record: "seo:\n  canonical: https://other.example/a",
			want:   want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "foreign canonical allowed by seo.allowExternalCanonicals",
			record: "seo:\n  canonical: 'https://other.example/a?utm_source=x'",
			cfg:    &seo.Config{Enabled: true, Metadata: true, AllowExternalCanonicals: true},
			want:   want{title: "Hello", canonical: "https://other.example/a", card: "summary"}},
		{name: "javascript canonical ignored even when external canonicals are allowed",
			record: "seo:\n  canonical: 'javascript:alert(1)'",
			cfg:    &seo.Config{Enabled: true, Metadata: true, AllowExternalCanonicals: true},
			want:   want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "robots: every directive",
			section: "robots: {indexing: noindex, following: nofollow, noarchive: true, noimageindex: true, nosnippet: true}",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", robots: "noindex, nofollow, noarchive, noimageindex, nosnippet",
				card: "summary", noSitemap: true}},
		{name: "robots: nofollow alone stays in the sitemap",
			site: "robots: {following: nofollow}",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", robots: "nofollow", card: "summary"}},
		{name: "robots: record re-allows indexing and unsets noarchive",
			site: "robots: {indexing: noindex, noarchive: true}", record: "seo:\n  robots: {indexing: index, noarchive: false}",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "social image from a URL, alt, twitter",
			site: "siteName: Example\nsocial: {twitterSite: example, twitterCard: summary}", record: "seo:\n  social: {image: 'https://cdn.example.org/x.png', imageAlt: A cat}",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", image: "https://cdn.example.org/x.png", imageAlt: "A cat",
				card: "summary", siteName: "Example"}},
		{name: "social image site path is absolute and escaped",
			record: "seo:\n  social: {image: /img/a b.png}",
			want:   want{title: "Hello", canonical: "https://example.com/blog/hello", image: "https://example.com/img/a%20b.png", card: "summary_large_image"}},
		{name: "canonical path escaped, fragment dropped",
			record: "seo:\n  canonical: '/a b?x=1&utm_term=y#top'",
			want:   want{title: "Hello", canonical: "https://example.com/a%20b?x=1", card: "summary"}},
		{name: "social image from a field holding an asset path",
			section: "social: {image: {kind: field, value: cover}}", record: "cover: photos/cat.jpg",
			want: want{title: "Hello", canonical: "https://example.com/blog/hello", image: "https://example.com/assets/photos/cat.jpg", card: "summary_large_image"}},
		{name: "social image as an asset field stores it",
			record: "seo:\n  social: {image: /assets/photos/cat.jpg}",
			want:   want{title: "Hello", canonical: "https://example.com/blog/hello", image: "https://example.com/assets/photos/cat.jpg", card: "summary_large_image"}},
		{name: "unsafe social image dropped",
			record: "seo:\n  social: {image: '../../etc/passwd'}",
			want:   want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "sitemap disabled keeps indexing",
			section: "sitemap: {enabled: false}",
			want:    want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary", noSitemap: true}},
		{name: "broken site document is skipped, the rest applies",
			site: "BROKEN", section: "description: Blog",
			want: want{title: "Hello", description: "Blog", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "invalid section document (unknown key) is skipped",
			section: "descripton: typo\nenabled: false",
			want:    want{title: "Hello", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "invalid record seo is skipped, legacy keys still apply",
			record: "meta_title: Legacy\nseo:\n  title: {kind: literal, value: x, extra: 1}",
			want:   want{title: "Legacy", canonical: "https://example.com/blog/hello", card: "summary"}},
		{name: "seo.metadata off: title only",
			site: "description: Site\ntitleSuffix: S", cfg: &seo.Config{Enabled: true},
			want: want{title: "Hello", canonical: ""}},
		{name: "seo.metadata off: noindex still applies",
			site: "description: Site\nrobots: {indexing: noindex}", cfg: &seo.Config{Enabled: true},
			want: want{title: "Hello", robots: "noindex", noSitemap: true}},
		{name: "seo.metadata off: an excluded record stays excluded",
			record: "seo:\n  enabled: false", cfg: &seo.Config{Enabled: true},
			want: want{title: "Hello", robots: "noindex", excluded: true, noSitemap: true}},
		{name: "seo.enabled off: nothing applies",
			record: "seo:\n  enabled: false\n  title: X", cfg: &seo.Config{Metadata: true},
			want: want{title: "Hello"}},
		{name: "whitespace in titles collapses",
			record: "seo:\n  title: {kind: field, value: long}\nlong: \"  a\\n  b  \"",
			want:   want{title: "a b", canonical: "https://example.com/blog/hello", card: "summary"}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			d := docs{}
			if row.site != "" {
				d["default"] = row.site
			}
			if row.section != "" {
				d["collection/blog"] = row.section
			}
			cfg := allOn
			if row.cfg != nil {
				cfg = *row.cfg
			}
			m := seo.NewResolver(cfg, d).Resolve(subject(t, row.record))
			got := want{title: m.Title, description: m.Description, canonical: m.Canonical, robots: m.Robots, image: m.Image,
				imageAlt: m.ImageAlt, card: m.TwitterCard, siteName: m.SiteName, excluded: m.Excluded, noSitemap: !m.InSitemap}
			if got != row.want {
				t.Errorf("\n got %+v\nwant %+v", got, row.want)
			}
			if m.Excluded && (m.JSONLD != "" || m.Description != "" || m.Canonical != "" || !m.NoIndex) {
				t.Errorf("excluded record still has metadata: %+v", m)
			}
		})
	}
}

// A page titled like the site (its home page) is not suffixed with the site's name again.
func TestTitleSuffixNotDoubled(t *testing.T) {
	d := docs{site.Handle: "titleSuffix: Acme"}
	for title, want := range map[string]string{"Acme": "Acme", "News | Acme": "News | Acme", "News": "News | Acme", "Acme News": "Acme News | Acme"} {
		if got := seo.NewResolver(allOn, d).Resolve(seo.Subject{Site: site, Kind: "page", Path: "/", Title: title}).Title; got != want {
			t.Errorf("title %q: got %q, want %q", title, got, want)
		}
	}
}

func TestTermUsesTaxonomySection(t *testing.T) {
	d := docs{"taxonomy/tags": "description: {kind: template, value: 'Posts about {title}'}", "collection/tags": "description: wrong"}
	m := seo.NewResolver(allOn, d).Resolve(seo.Subject{Site: site, Kind: "term", Section: "tags", Path: "/tags/go", Title: "Go"})
	if m.Description != "Posts about Go" || m.Type != "website" {
		t.Errorf("got %q (type %q)", m.Description, m.Type)
	}
}

func TestSitemapSettings(t *testing.T) {
	d := docs{"default": "sitemap: {priority: 0.5, changeFrequency: weekly}", "collection/blog": "sitemap: {priority: 1}"}
	m := seo.NewResolver(allOn, d).Resolve(subject(t, ""))
	if !m.InSitemap || m.SitemapPriority != 1 || m.ChangeFrequency != "weekly" {
		t.Errorf("got in=%v priority=%v freq=%q", m.InSitemap, m.SitemapPriority, m.ChangeFrequency)
	}
	m = seo.NewResolver(allOn, nil).Resolve(subject(t, ""))
	if m.SitemapPriority >= 0 || m.ChangeFrequency != "" {
		t.Errorf("unset: priority=%v freq=%q", m.SitemapPriority, m.ChangeFrequency)
	}
	s := subject(t, "")
	s.Path = ""
	if seo.NewResolver(allOn, nil).Resolve(s).InSitemap {
		t.Error("a record without a route is in the sitemap")
	}
}

// TestHeadEscapes puts markup into every value: attribute values are escaped and the JSON-LD
// block cannot be closed from inside.
func TestHeadEscapes(t *testing.T) {
	evil := `</script><script>alert(1)</script>"'&<b>`
	s := subject(t, "")
	s.Title = evil
	s.Data = content.NewMap(0)
	sv := content.NewMap(0)
	sv.Set("description", evil)
	sv.Set("siteName", "A&B")
	social := content.NewMap(0)
	social.Set("image", "https://cdn.example.org/x.png")
	social.Set("imageAlt", evil)
	sv.Set("social", social)
	s.Data.Set("seo", sv)
	m := seo.NewResolver(allOn, nil).Resolve(s)
	h := string(m.Head())
	if strings.Count(h, "<script") != 1 || strings.Count(h, "</script>") != 1 {
		t.Fatalf("a value opened or closed a script element:\n%s", h)
	}
	if strings.Contains(h, "<b>") || strings.Contains(h, `"'&<`) {
		t.Fatalf("unescaped markup in head:\n%s", h)
	}
	ld := h[strings.Index(h, `<script type="application/ld+json">`):]
	for _, bad := range []string{"<b", "&B", "</script><"} {
		if strings.Contains(ld[len(`<script type="application/ld+json">`):], bad) {
			t.Errorf("JSON-LD holds %q unescaped: %s", bad, ld)
		}
	}
	if !strings.Contains(ld, `\u003c/script\u003e`) {
		t.Errorf("JSON-LD does not carry the title escaped: %s", ld)
	}
	// A JSONLD value set by hand (not from Resolve) is escaped as well.
	h = string(seo.Meta{JSONLD: `{"a":"</script><x>"}`}.Head())
	if strings.Contains(h, "</script><x>") {
		t.Errorf("hand-set JSON-LD broke out: %s", h)
	}
}

func TestHeadTags(t *testing.T) {
	d := docs{"default": "siteName: Example\ntitleSuffix: Example\nsocial: {twitterSite: '@ex', twitterCreator: ann}",
		"collection/blog": "description: {kind: field, value: summary}"}
	s := subject(t, "summary: Sum\nseo:\n  social: {image: cat.jpg, imageAlt: A cat}\n  robots: {nosnippet: true}")
	h := string(seo.NewResolver(allOn, d).Resolve(s).Head())
	for _, want := range []string{
		"<title>Hello | Example</title>\n",
		`<meta name="description" content="Sum">`,
		`<link rel="canonical" href="https://example.com/blog/hello">`,
		`<meta name="robots" content="nosnippet">`,
		`<meta property="og:title" content="Hello">`,
		`<meta property="og:description" content="Sum">`,
		`<meta property="og:url" content="https://example.com/blog/hello">`,
		`<meta property="og:type" content="article">`,
		`<meta property="og:site_name" content="Example">`,
		`<meta property="og:locale" content="en_US">`,
		`<meta property="og:image" content="https://example.com/assets/cat.jpg">`,
		`<meta property="og:image:alt" content="A cat">`,
		`<meta name="twitter:card" content="summary_large_image">`,
		`<meta name="twitter:site" content="@ex">`,
		`<meta name="twitter:creator" content="@ann">`,
		`<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Hello",`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("head lacks %s\n%s", want, h)
		}
	}
	// Excluded: the title and noindex, nothing else.
	d["collection/blog"] = "enabled: false"
	h = string(seo.NewResolver(allOn, d).Resolve(s).Head())
	if h != "<title>Hello</title>\n<meta name=\"robots\" content=\"noindex\">\n" {
		t.Errorf("excluded head:\n%s", h)
	}
	var _ template.HTML = seo.Meta{}.Head()
}

func TestJSONLD(t *testing.T) {
	cases := []struct {
		name, section, record string
		cfg                   seo.Config
		want                  string // "" = no JSON-LD
	}{
		{name: "structured data off", cfg: seo.Config{Enabled: true, Metadata: true}},
		{name: "disabled in a layer", cfg: allOn, section: "jsonLd: {enabled: false}"},
		{name: "webpage", cfg: allOn, section: "jsonLd: {type: WebPage}",
			want: `{"@context":"https://schema.org","@type":"WebPage","name":"Hello","url":"https://example.com/blog/hello","dateModified":"2026-01-02T03:04:05Z","inLanguage":"en-US"}`},
		{name: "custom merged over a type", cfg: allOn, section: "jsonLd: {type: Person, custom: {jobTitle: Writer, '@context': 'https://evil.example'}}",
			want: `{"@context":"https://schema.org","@type":"Person","name":"Hello","url":"https://example.com/blog/hello","jobTitle":"Writer"}`},
		{name: "custom document", cfg: allOn, record: "seo:\n  jsonLd: {type: custom, custom: {'@type': Event, name: Launch, n: [1, 2]}}",
			want: `{"@context":"https://schema.org","@type":"Event","name":"Launch","n":[1,2]}`},
		{name: "breadcrumbs", cfg: allOn, section: "jsonLd: {type: BreadcrumbList}",
			want: `{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Home","item":"https://example.com/"},{"@type":"ListItem","position":2,"name":"blog","item":"https://example.com/blog"},{"@type":"ListItem","position":3,"name":"Hello","item":"https://example.com/blog/hello"}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := docs{}
			if c.section != "" {
				d["collection/blog"] = c.section
			}
			m := seo.NewResolver(c.cfg, d).Resolve(subject(t, c.record))
			if m.JSONLD != c.want {
				t.Errorf("\n got %s\nwant %s", m.JSONLD, c.want)
			}
		})
	}
}

// TestParseValuesRefuses: strict validation, with an error naming the key.
func TestParseValuesRefuses(t *testing.T) {
	deep := "a: "
	for range 9 {
		deep += "{b: "
	}
	deep += "1" + strings.Repeat("}", 9)
	manyKeys := "{" + func() string {
		var b []string
		for i := range 201 {
			b = append(b, fmt.Sprintf("k%d: 1", i))
		}
		return strings.Join(b, ", ")
	}() + "}"
	cases := map[string]string{
		"titel: x": "seo.titel: unknown key",
		"title: {kind: literal, value: x, extra: 1}":                   `seo.title: unknown key "extra"`,
		"title: {kind: guess}":                                         `seo.title: kind must be`,
		"title: {value: x}":                                            "seo.title: a source needs a kind",
		"title: 5":                                                     "seo.title: must be a string or a source",
		"title: \"a\\nb\"":                                             "seo.title: a literal must be a single line",
		"title: " + strings.Repeat("x", 2001):                          "at most 2000 characters",
		"titleTemplate: " + strings.Repeat("x", 4001):                  "at most 4000 characters",
		"description: {kind: field, value: 'a b'}":                     "seo.description: a field source needs a field handle",
		"description: {kind: template}":                                "a template source needs a value",
		"canonical: {kind: disabled, value: x}":                        "a disabled source has no value",
		"enabled: yes please":                                          "seo.enabled: must be true or false",
		"robots: {indexing: maybe}":                                    "seo.robots.indexing: must be one of index, noindex",
		"robots: {follow: nofollow}":                                   "seo.robots.follow: unknown key",
		"robots: {noarchive: 1}":                                       "seo.robots.noarchive: must be true or false",
		"robots: noindex":                                              "seo.robots: must be a mapping",
		"social: {twitterCard: large}":                                 "seo.social.twitterCard: must be one of summary, summary_large_image",
		"social: {twitterSite: 'not a handle'}":                        "seo.social.twitterSite: must be an account name",
		"social: {picture: x}":                                         "seo.social.picture: unknown key",
		"sitemap: {priority: 1.5}":                                     "seo.sitemap.priority: must be a number from 0 to 1",
		"sitemap: {priority: high}":                                    "seo.sitemap.priority: must be a number from 0 to 1",
		"sitemap: {changeFrequency: often}":                            "seo.sitemap.changeFrequency: must be one of always",
		"jsonLd: {type: Recipe}":                                       "seo.jsonLd.type: must be one of WebPage",
		"jsonLd: {type: custom}":                                       "seo.jsonLd.custom: type custom needs a custom object",
		"jsonLd: {custom: [1]}":                                        "seo.jsonLd.custom: must be a mapping",
		"jsonLd: {custom: {" + deep + "}}":                             "seo.jsonLd.custom: may nest at most 8 levels",
		"jsonLd: {custom: " + manyKeys + "}":                           "seo.jsonLd.custom: may have at most 200 keys",
		"jsonLd: {custom: {a: " + strings.Repeat("x", 32<<10+1) + "}}": "seo.jsonLd.custom: a string may have at most 32768 bytes",
	}
	for src, want := range cases {
		name := src
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			_, err := seo.ParseValues(yamlMap(t, src))
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("ParseValues(%.80q) = %v, want an error with %q", src, err, want)
			}
		})
	}
	if _, err := seo.ParseValues("a string"); err == nil {
		t.Error("a non-mapping seo value was accepted")
	}
	if v, err := seo.ParseValues(nil); err != nil || v == nil {
		t.Errorf("nil: %v, %v", v, err)
	}
}

func TestParseValuesAcceptsFullDocument(t *testing.T) {
	src := `
enabled: true
title: {kind: template, value: '{title} — {category}'}
description: {kind: field, value: summary}
canonical: {kind: inherit}
titleTemplate: '{title}'
titleSuffix: Example
siteName: {kind: literal, value: Example}
robots: {indexing: index, following: follow, noarchive: false, noimageindex: false, nosnippet: false}
social: {image: a.png, imageAlt: {kind: field, value: alt}, twitterCard: summary, twitterSite: '@ex', twitterCreator: ann}
sitemap: {enabled: true, priority: 0, changeFrequency: never}
jsonLd: {enabled: true, type: Organization, custom: {sameAs: ['https://x.example']}}
`
	if _, err := seo.ParseValues(yamlMap(t, src)); err != nil {
		t.Fatal(err)
	}
}

// FuzzParseValues: any YAML mapping is either refused with an error or accepted, and accepted
// values resolve and render without panicking and without breaking out of the JSON-LD block.
func FuzzParseValues(f *testing.F) {
	for _, s := range []string{"title: x", "title: {kind: template, value: '{title}'}", "jsonLd: {type: custom, custom: {a: '</script>'}}",
		"robots: {indexing: noindex}", "sitemap: {priority: 0.3}", "social: {image: /x.png}", "canonical: 'https://example.com/?utm_x=1'", "canonical: '/a b?gclid=1&x=2'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := frontmatter.ParseYAMLMap([]byte(src), 1)
		if err != nil {
			return
		}
		if _, err := seo.ParseValues(m); err != nil {
			return
		}
		s := subject(t, "")
		s.Title = "</script>"
		s.Data = content.NewMap(1)
		s.Data.Set("seo", m)
		meta := seo.NewResolver(seo.Config{Enabled: true, Metadata: true, StructuredData: true, AllowExternalCanonicals: true}, nil).Resolve(s)
		h := string(meta.Head())
		if strings.Count(h, "</script>") > 1 {
			t.Fatalf("JSON-LD broke out:\n%s", h)
		}
		for _, u := range []string{meta.Canonical, meta.Image} {
			if u != "" && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
				t.Fatalf("URL %q is not http(s)", u)
			}
			if strings.ContainsAny(u, " <>\"") {
				t.Fatalf("URL %q is not escaped", u)
			}
		}
		if strings.Contains(meta.Canonical, "utm_") || strings.Contains(meta.Canonical, "gclid") {
			t.Fatalf("tracking parameter kept: %q", meta.Canonical)
		}
	})
}

// TestBrokenLayerLoggedOnce: a layer that does not validate is skipped with one warning naming
// it, not one per page view, and resolving stays safe from many goroutines.
func TestBrokenLayerLoggedOnce(t *testing.T) {
	var buf syncBuffer
	cfg := allOn
	cfg.Log = slog.New(slog.NewTextHandler(&buf, nil))
	r := seo.NewResolver(cfg, docs{"collection/blog": "robots: {indexing: sometimes}"})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if m := r.Resolve(subject(t, "")); m.NoIndex || m.Title != "Hello" {
					t.Errorf("broken layer applied: %+v", m)
				}
			}
		})
	}
	wg.Wait()
	out := buf.String()
	if n := strings.Count(out, "skipping SEO layer"); n != 1 || !strings.Contains(out, "collection blog") || !strings.Contains(out, "seo.robots.indexing") {
		t.Errorf("%d warnings:\n%s", n, out)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSubPathSite: a site on a sub-path keeps its paths under it, assets stay at the origin's
// /assets/, and the origin check compares origins only.
func TestSubPathSite(t *testing.T) {
	fr := content.Site{Handle: "fr", URL: "https://example.com/fr", Locale: "fr-FR"}
	r := seo.NewResolver(allOn, nil)
	for _, c := range []struct{ front, canonical, image string }{
		{"", "https://example.com/fr/blog/x", ""},
		{"seo:\n  canonical: /autre\n  social: {image: /assets/a.png}", "https://example.com/fr/autre", "https://example.com/assets/a.png"},
		{"seo:\n  canonical: 'https://EXAMPLE.com:443/en/x'\n  social: {image: /img/a.png}", "https://EXAMPLE.com:443/en/x", "https://example.com/fr/img/a.png"},
		{"seo:\n  canonical: 'http://example.com/x'\n  social: {image: a.png}", "https://example.com/fr/blog/x", "https://example.com/assets/a.png"},
	} {
		m := r.Resolve(seo.Subject{Site: fr, Kind: "entry", Section: "blog", Path: "/blog/x", Title: "X", Data: yamlMap(t, c.front)})
		if m.Canonical != c.canonical || m.Image != c.image || m.Locale != "fr-FR" {
			t.Errorf("%q: canonical %q image %q locale %q, want %q %q", c.front, m.Canonical, m.Image, m.Locale, c.canonical, c.image)
		}
	}
}
