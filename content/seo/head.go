package seo

import (
	"html/template"
	"strings"

	"cms/content"
)

// jsonLD builds the subject's JSON-LD document: a schema.org object of the configured type
// (default Article for entries, WebPage otherwise) with the custom object merged over it, or the
// custom object itself for type custom. It is encoded with <, > and & escaped, so it cannot end
// the <script> element it is written into.
func jsonLD(s Subject, v *Values, m Meta) string {
	typ := v.JSONLD.Type
	if typ == "" {
		typ = "WebPage"
		if s.Kind == "entry" {
			typ = "Article"
		}
	}
	doc := content.NewMap(12)
	doc.Set("@context", "https://schema.org")
	set := func(k, val string) {
		if val != "" {
			doc.Set(k, val)
		}
	}
	if typ != "custom" {
		doc.Set("@type", typ)
		switch typ {
		case "Article":
			set("headline", m.SocialTitle)
			set("description", m.Description)
			set("url", m.Canonical)
			set("image", m.Image)
			set("datePublished", s.CreatedAt)
			set("dateModified", s.UpdatedAt)
			set("inLanguage", m.Locale)
			if m.SiteName != "" {
				pub := content.NewMap(2)
				pub.Set("@type", "Organization")
				pub.Set("name", m.SiteName)
				doc.Set("publisher", pub)
			}
		case "WebPage":
			set("name", m.SocialTitle)
			set("description", m.Description)
			set("url", m.Canonical)
			set("image", m.Image)
			set("dateModified", s.UpdatedAt)
			set("inLanguage", m.Locale)
		case "Organization":
			name := m.SiteName
			if name == "" {
				name = m.SocialTitle
			}
			set("name", name)
			set("url", s.Site.URL)
			set("logo", m.Image)
			set("description", m.Description)
		case "Person":
			set("name", m.SocialTitle)
			set("url", m.Canonical)
			set("image", m.Image)
			set("description", m.Description)
		case "BreadcrumbList":
			doc.Set("itemListElement", breadcrumbs(s, m))
		}
	}
	if c := v.JSONLD.Custom; c != nil {
		for _, k := range c.Keys() {
			if k == "@context" && typ != "custom" {
				continue
			}
			doc.Set(k, content.CloneValue(c.Value(k)))
		}
	}
	b, err := doc.MarshalJSON()
	if err != nil {
		return ""
	}
	return escapeJSON(string(b))
}

// breadcrumbs lists the site's home and each folder of the subject's path, ending with the
// subject itself.
func breadcrumbs(s Subject, m Meta) []any {
	item := func(pos int, name, url string) *content.Map {
		it := content.NewMap(4)
		it.Set("@type", "ListItem")
		it.Set("position", int64(pos))
		it.Set("name", name)
		if url != "" {
			it.Set("item", url)
		}
		return it
	}
	out := []any{item(1, "Home", s.Site.Absolute("/"))}
	segs := strings.Split(strings.Trim(s.Path, "/"), "/")
	if s.Path == "" || s.Path == "/" {
		return out
	}
	prefix := ""
	for i, seg := range segs {
		prefix += "/" + seg
		name, url := seg, s.Site.PageAbsolute(prefix)
		if i == len(segs)-1 {
			name, url = m.SocialTitle, m.Canonical
			if name == "" {
				name = seg
			}
		}
		out = append(out, item(len(out)+1, name, url))
	}
	return out
}

// escapeJSON makes JSON text safe inside a <script> element: <, > and & (and the two line
// separators JavaScript once rejected) become \u escapes. Outside strings these characters are
// not valid JSON, so the replacement never changes the document's meaning.
var jsonEscaper = strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "\u2028", `\u2028`, "\u2029", `\u2029`)

func escapeJSON(s string) string { return jsonEscaper.Replace(s) }

// ogLocale turns a BCP 47 tag (en-US) into Open Graph's form (en_US).
func ogLocale(l string) string { return strings.ReplaceAll(l, "-", "_") }

// Head renders the metadata as tags for a page's <head>, escaped: attribute values and the title
// HTML-escaped, the JSON-LD block by escapeJSON. An excluded record gets its title and noindex
// only.
func (m Meta) Head() template.HTML {
	if m.Excluded {
		m = Meta{Title: m.Title, Robots: "noindex"}
	}
	var b strings.Builder
	b.Grow(1024 + len(m.JSONLD))
	tag := func(open, name, value string) { // <meta name="x" content="value">
		if value != "" {
			b.WriteString(open)
			b.WriteString(name)
			b.WriteString(`" content="`)
			b.WriteString(template.HTMLEscapeString(value))
			b.WriteString("\">\n")
		}
	}
	meta := func(name, value string) { tag(`<meta name="`, name, value) }
	prop := func(name, value string) { tag(`<meta property="`, name, value) }
	if m.Title != "" {
		b.WriteString("<title>" + template.HTMLEscapeString(m.Title) + "</title>\n")
	}
	meta("description", m.Description)
	canonical := httpOnly(m.Canonical)
	if canonical != "" {
		b.WriteString(`<link rel="canonical" href="` + template.HTMLEscapeString(canonical) + "\">\n")
	}
	meta("robots", m.Robots)
	if m.Type != "" {
		prop("og:title", m.SocialTitle)
		prop("og:description", m.Description)
		prop("og:url", canonical)
		prop("og:type", m.Type)
		prop("og:site_name", m.SiteName)
		prop("og:locale", ogLocale(m.Locale))
		if img := httpOnly(m.Image); img != "" {
			prop("og:image", img)
			prop("og:image:alt", m.ImageAlt)
		}
		meta("twitter:card", m.TwitterCard)
		meta("twitter:site", m.TwitterSite)
		meta("twitter:creator", m.TwitterCreator)
	}
	if m.JSONLD != "" {
		// A data block: browsers do not execute it, so a script-src policy does not apply.
		b.WriteString(`<script type="application/ld+json">`)
		b.WriteString(escapeJSON(m.JSONLD))
		b.WriteString("</script>\n")
	}
	return template.HTML(b.String())
}

// httpOnly passes absolute http(s) URLs and drops anything else (a Meta built by hand could
// hold javascript:).
func httpOnly(u string) string {
	l := strings.ToLower(u)
	if strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") {
		return u
	}
	return ""
}
