// Package seo resolves a public record's search-engine and social metadata through the cascade
// of docs/seo.md (notes 14.3): system → site document → section document → the record's own
// `seo:` key (legacy flat keys understood), and renders it as <head> tags.
//
// The API here is what the site group, the public API and the sitemap use.
package seo

import (
	"log/slog"
	"strings"
	"sync"

	"cms/content"
)

// Config is the part of the `seo.*` configuration the resolver reads (runtime/config.SEO
// builds it from the service configuration).
type Config struct {
	Enabled                 bool // seo.enabled: false = nothing but <title>, every record in the sitemap
	Metadata                bool // seo.metadata: false = <title> and robots only (exclusion still applies)
	StructuredData          bool // seo.structuredData: JSON-LD
	AllowExternalCanonicals bool // explicit canonicals on another origin are kept
	// SocialImages (seo.socialImages): a routed record whose layers name no social image gets
	// its generated card, served by the website at [SocialImagePath].
	SocialImages bool
	// Log receives a warning, once per problem, when a layer does not validate and is skipped.
	Log *slog.Logger
}

// Docs reads the Git-authored layer documents. A missing document is (nil, nil); a document
// that does not load is an error, and the resolver skips that layer. A returned map must not be
// modified afterwards (the resolver keeps what it parsed from it); a changed file is a new map.
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
	Slug      string       // optional, for {slug} tokens
	CreatedAt string       // optional, JSON-LD datePublished and {createdAt} tokens
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

	SocialTitle    string // og:title: the title before template and suffix
	TwitterSite    string
	TwitterCreator string
}

// Resolver resolves metadata for subjects. It is safe for concurrent use.
type Resolver struct {
	cfg  Config
	docs Docs

	mu     sync.Mutex
	logged map[string]bool          // problems already logged, bounded
	parsed map[*content.Map]*Values // site and section documents already validated, bounded
}

// maxParsed bounds the cache of parsed documents; a site has a few dozen.
const maxParsed = 1024

// parseDoc parses a site or section document's values once: the maps Docs returns are not
// modified afterwards (a changed file is a new map), so the pointer names the content.
func (r *Resolver) parseDoc(m *content.Map) (*Values, error) {
	r.mu.Lock()
	v, ok := r.parsed[m]
	r.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := ParseValues(m)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if len(r.parsed) >= maxParsed {
		clear(r.parsed) // old snapshots' maps go; current ones come back on the next pages
	}
	r.parsed[m] = v
	r.mu.Unlock()
	return v, nil
}

// NewResolver returns a resolver; docs may be nil (no site or section layers).
func NewResolver(cfg Config, docs Docs) *Resolver {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Resolver{cfg: cfg, docs: docs, logged: map[string]bool{}, parsed: map[*content.Map]*Values{}}
}

// warn logs a skipped layer once per distinct problem, so a broken record does not log on
// every page view.
func (r *Resolver) warn(layer string, err error) {
	msg := layer + ": " + err.Error()
	r.mu.Lock()
	seen := r.logged[msg]
	if !seen {
		if len(r.logged) >= 1000 {
			clear(r.logged)
		}
		r.logged[msg] = true
	}
	r.mu.Unlock()
	if !seen {
		r.cfg.Log.Warn("skipping SEO layer that does not validate", "layer", layer, "problem", err.Error())
	}
}

// Layers returns the cascade of a subject, system first. A layer that does not load or validate
// is left out (and logged): a broken document must not break the page.
func (r *Resolver) Layers(s Subject) []*Values {
	layers := []*Values{{Title: &Source{Kind: KindField, Value: "title"}}}
	if r.docs != nil {
		if m, err := r.docs.SEOSite(s.Site.Handle); err != nil {
			r.warn("site "+s.Site.Handle, err)
		} else if m != nil {
			if v, err := r.parseDoc(m); err != nil {
				r.warn("site "+s.Site.Handle, err)
			} else {
				layers = append(layers, v)
			}
		}
		if kind := sectionKind(s.Kind); kind != "" && s.Section != "" {
			if m, err := r.docs.SEOSection(kind, s.Section); err != nil {
				r.warn(kind+" "+s.Section, err)
			} else if m != nil {
				if v, err := r.parseDoc(m); err != nil {
					r.warn(kind+" "+s.Section, err)
				} else {
					layers = append(layers, v)
				}
			}
		}
	}
	if s.Data != nil {
		layers = append(layers, legacyValues(s.Data))
		if raw, ok := s.Data.Get("seo"); ok {
			if v, err := ParseValues(raw); err != nil {
				name := s.Section + "/" + s.Slug
				if s.Slug == "" {
					name = s.Path
				}
				r.warn(s.Kind+" "+name, err)
			} else {
				layers = append(layers, v) // nested seo wins over the legacy keys
			}
		}
	}
	return layers
}

func sectionKind(kind string) string {
	switch kind {
	case "entry":
		return "collection"
	case "term":
		return "taxonomy"
	}
	return ""
}

// Resolve computes the metadata of one subject.
func (r *Resolver) Resolve(s Subject) Meta {
	if !r.cfg.Enabled {
		return Meta{Title: collapse(s.Title), InSitemap: s.Path != "", SitemapPriority: -1}
	}
	layers := r.Layers(s)
	m := r.resolve(s, merge(layers), layers)
	if !r.cfg.Metadata {
		// No metadata tags, but what keeps a record out of search engines and the sitemap still
		// applies: a robots directive is not decoration.
		m = Meta{Excluded: m.Excluded, Title: collapse(s.Title), NoIndex: m.NoIndex, NoFollow: m.NoFollow, Robots: m.Robots,
			InSitemap: m.InSitemap, SitemapPriority: m.SitemapPriority, ChangeFrequency: m.ChangeFrequency}
	}
	return m
}

// merge folds the settings of layers in order: a later layer's settings win, objects merge key by
// key, and enabled:false anywhere sticks. Sources are resolved by first, layer by layer.
func merge(layers []*Values) *Values {
	out := &Values{}
	for _, l := range layers {
		if l.Enabled != nil && (out.Enabled == nil || *out.Enabled) {
			out.Enabled = l.Enabled
		}
		str(&out.Robots.Indexing, l.Robots.Indexing)
		str(&out.Robots.Following, l.Robots.Following)
		flag(&out.Robots.NoArchive, l.Robots.NoArchive)
		flag(&out.Robots.NoImageIndex, l.Robots.NoImageIndex)
		flag(&out.Robots.NoSnippet, l.Robots.NoSnippet)
		str(&out.Social.TwitterCard, l.Social.TwitterCard)
		str(&out.Social.TwitterSite, l.Social.TwitterSite)
		str(&out.Social.TwitterCreator, l.Social.TwitterCreator)
		flag(&out.Sitemap.Enabled, l.Sitemap.Enabled)
		if l.Sitemap.Priority != nil {
			out.Sitemap.Priority = l.Sitemap.Priority
		}
		str(&out.Sitemap.ChangeFrequency, l.Sitemap.ChangeFrequency)
		flag(&out.JSONLD.Enabled, l.JSONLD.Enabled)
		str(&out.JSONLD.Type, l.JSONLD.Type)
		if l.JSONLD.Custom != nil {
			out.JSONLD.Custom = l.JSONLD.Custom
		}
	}
	return out
}

// first resolves a source through the layers, last first, down to layer lowest: a disabled source
// ends the search with no value; one whose value comes out empty (a field the record does not
// have, a foreign canonical) falls back to the layer before. accept turns a source's text into
// the value (cleaned, made absolute) or "" when it is not usable. It returns the value and the
// layer it came from (-1: none).
func (f fields) first(layers []*Values, lowest int, get func(*Values) *Source, accept func(string) string) (string, int) {
	for i := len(layers) - 1; i >= lowest; i-- {
		src := get(layers[i])
		if src == nil || src.Kind == KindInherit {
			continue
		}
		if src.Kind == KindDisabled {
			return "", i
		}
		if v := accept(f.source(src)); v != "" {
			return v, i
		}
	}
	return "", -1
}

func str(dst *string, s string) {
	if s != "" {
		*dst = s
	}
}

func flag(dst **bool, b *bool) {
	if b != nil {
		*dst = b
	}
}

func (r *Resolver) resolve(s Subject, v *Values, layers []*Values) Meta {
	m := Meta{Locale: s.Site.Locale, SitemapPriority: -1, Type: "website"}
	if s.Kind == "entry" {
		m.Type = "article"
	}
	if v.Enabled != nil && !*v.Enabled {
		return Meta{Excluded: true, NoIndex: true, Robots: "noindex", Title: collapse(s.Title), SitemapPriority: -1}
	}
	f := fields{s}
	text := func(get func(*Values) *Source) string {
		t, _ := f.first(layers, 0, get, collapse)
		return t
	}
	m.SocialTitle = text(func(v *Values) *Source { return v.Title })
	m.Title = m.SocialTitle
	if m.Title != "" {
		tf := f
		tf.s.Title = m.Title // {title} in a title template is the resolved title
		if t, _ := tf.first(layers, 0, func(v *Values) *Source { return v.TitleTemplate }, collapse); t != "" {
			m.Title = t
		}
		// A title that already is (or ends with) the suffix, as a home page named after the
		// site, does not get it twice.
		if suffix := text(func(v *Values) *Source { return v.TitleSuffix }); suffix != "" && m.Title != suffix && !strings.HasSuffix(m.Title, " | "+suffix) {
			m.Title += " | " + suffix
		}
	}
	m.Description = text(func(v *Values) *Source { return v.Description })
	m.SiteName = text(func(v *Values) *Source { return v.SiteName })

	if s.Path != "" {
		m.Canonical = s.Site.PageAbsolute(s.Path)
	}
	canonical, from := f.first(layers, 0, func(v *Values) *Source { return v.Canonical }, func(u string) string {
		return canonicalURL(s.Site, strings.TrimSpace(u), r.cfg.AllowExternalCanonicals)
	})
	if from >= 0 {
		m.Canonical = canonical // "" when disabled
	}
	m.Canonical = stripTracking(m.Canonical)

	m.NoIndex = v.Robots.Indexing == "noindex"
	m.NoFollow = v.Robots.Following == "nofollow"
	var robots []string
	for _, d := range []struct {
		on    bool
		token string
	}{{m.NoIndex, "noindex"}, {m.NoFollow, "nofollow"}, {isTrue(v.Robots.NoArchive), "noarchive"},
		{isTrue(v.Robots.NoImageIndex), "noimageindex"}, {isTrue(v.Robots.NoSnippet), "nosnippet"}} {
		if d.on {
			robots = append(robots, d.token)
		}
	}
	m.Robots = strings.Join(robots, ", ")

	m.Image, from = f.first(layers, 0, func(v *Values) *Source { return v.Social.Image }, func(u string) string {
		return imageURL(s.Site, strings.TrimSpace(u))
	})
	if m.Image != "" { // the alt text of that image: from its layer or a later one
		m.ImageAlt, _ = f.first(layers, from, func(v *Values) *Source { return v.Social.ImageAlt }, collapse)
	} else if r.cfg.SocialImages && s.Path != "" {
		m.Image = s.Site.Absolute(SocialImagePath(s.Path))
		m.ImageAlt = m.SocialTitle
		if m.ImageAlt == "" {
			m.ImageAlt = s.Title
		}
	}
	m.TwitterCard = v.Social.TwitterCard
	if m.TwitterCard == "" {
		m.TwitterCard = "summary"
		if m.Image != "" {
			m.TwitterCard = "summary_large_image"
		}
	}
	m.TwitterSite, m.TwitterCreator = v.Social.TwitterSite, v.Social.TwitterCreator

	m.InSitemap = !m.NoIndex && s.Path != "" && (v.Sitemap.Enabled == nil || *v.Sitemap.Enabled)
	if v.Sitemap.Priority != nil {
		m.SitemapPriority = *v.Sitemap.Priority
	}
	m.ChangeFrequency = v.Sitemap.ChangeFrequency

	if r.cfg.StructuredData && (v.JSONLD.Enabled == nil || *v.JSONLD.Enabled) {
		m.JSONLD = jsonLD(s, v, m)
	}
	return m
}

func isTrue(b *bool) bool { return b != nil && *b }

// collapse turns runs of white space (newlines included) into single spaces and trims.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
