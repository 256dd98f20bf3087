// Package seo resolves a public record's search-engine and social metadata through the cascade
// of docs/behaviour notes 14.3: system → site document → section document → the record's own
// `seo:` key (legacy flat keys understood), and renders it as <head> tags.
//
// The API here is what the site group, the public API and the sitemap use; the resolution
// behind it grows without changing these signatures.
package seo

import (
	"html/template"
	"strings"

	"cms/content"
)

// Config is the part of the `seo.*` configuration the resolver reads.
type Config struct {
	Enabled                 bool
	Metadata                bool
	StructuredData          bool
	AllowExternalCanonicals bool
}

// Docs reads the Git-authored layer documents. A missing document is (nil, nil).
type Docs interface {
	// SEOSite returns the `seo:` value of resources/seo/sites/{site}.yaml.
	SEOSite(site string) (*content.Map, error)
	// SEOSection returns the `seo:` value of resources/seo/sections/{kind}/{handle}.yaml, kind
	// being "collection" or "taxonomy".
	SEOSection(kind, handle string) (*content.Map, error)
}

// Subject is the record metadata is resolved for.
type Subject struct {
	Site      content.Site
	Kind      string // "entry", "term" or "page" (a template page without a record)
	Section   string // the collection or taxonomy handle
	Path      string // the record's public path from the URL function; "" when not routed
	Title     string
	UpdatedAt string
	Data      *content.Map // the record's front matter: `seo:`, legacy keys, fields for sources
}

// Meta is resolved metadata.
type Meta struct {
	Excluded    bool   // enabled:false at some layer: no metadata, noindex, not in the sitemap
	Title       string // final, after template and suffix
	Description string
	Canonical   string // absolute
	NoIndex     bool
	NoFollow    bool
	Robots      string // the robots meta value, "" for the default (index, follow)
	Image       string // absolute social image URL
	ImageAlt    string
	TwitterCard string
	SiteName    string
	Locale      string
	Type        string // Open Graph type: "article" for entries, else "website"
	JSONLD      string // a JSON-LD document, "" when off

	InSitemap       bool
	SitemapPriority float64 // < 0: not set
	ChangeFrequency string
}

// Resolver resolves metadata for subjects.
type Resolver struct {
	cfg  Config
	docs Docs
}

// NewResolver returns a resolver; docs may be nil (no site or section layers).
func NewResolver(cfg Config, docs Docs) *Resolver { return &Resolver{cfg: cfg, docs: docs} }

// Resolve computes the metadata of one subject.
func (r *Resolver) Resolve(s Subject) Meta {
	m := Meta{Title: s.Title, Locale: s.Site.Locale, SitemapPriority: -1, Type: "website"}
	if s.Kind == "entry" {
		m.Type = "article"
	}
	if s.Path != "" {
		m.Canonical = s.Site.Absolute(s.Path)
	}
	if s.Data != nil {
		if v, ok := s.Data.String("meta_title"); ok && strings.TrimSpace(v) != "" {
			m.Title = v
		}
		if v, ok := s.Data.String("meta_description"); ok {
			m.Description = v
		}
		if v, ok := s.Data.Get("no_index"); ok && v == true {
			m.NoIndex = true
		}
	}
	if m.NoIndex {
		m.Robots = "noindex"
	}
	m.InSitemap = !m.Excluded && !m.NoIndex && s.Path != ""
	return m
}

var head = template.Must(template.New("head").Parse(`{{if .Title}}<title>{{.Title}}</title>
{{end}}{{if .Description}}<meta name="description" content="{{.Description}}">
{{end}}{{if .Canonical}}<link rel="canonical" href="{{.Canonical}}">
{{end}}{{if .Robots}}<meta name="robots" content="{{.Robots}}">
{{end}}`))

// Head renders the metadata as tags for a page's <head>, escaped.
func (m Meta) Head() template.HTML {
	if m.Excluded {
		return `<meta name="robots" content="noindex">` + "\n"
	}
	var b strings.Builder
	if err := head.Execute(&b, m); err != nil {
		return ""
	}
	return template.HTML(b.String())
}
