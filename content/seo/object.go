package seo

import "encoding/json"

// Object is the resolved metadata as the public API serves it (the `seo` member of a single
// entry), so a headless frontend can render the same tags as the site's Head.
type Object struct {
	Excluded    bool            `json:"excluded"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Canonical   string          `json:"canonical"`
	Robots      ObjectRobots    `json:"robots"`
	OpenGraph   ObjectOG        `json:"openGraph"`
	Twitter     ObjectTwitter   `json:"twitter"`
	JSONLD      json.RawMessage `json:"jsonLd"` // the document, or null
	Sitemap     ObjectSitemap   `json:"sitemap"`
}

// ObjectRobots is the robots part of Object; Content is the meta tag's value ("" = default).
type ObjectRobots struct {
	Index   bool   `json:"index"`
	Follow  bool   `json:"follow"`
	Content string `json:"content"`
}

// ObjectOG is the Open Graph part of Object.
type ObjectOG struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	URL         string `json:"url"`
	Type        string `json:"type"`
	SiteName    string `json:"siteName"`
	Locale      string `json:"locale"`
	Image       string `json:"image"`
	ImageAlt    string `json:"imageAlt"`
}

// ObjectTwitter is the Twitter card part of Object.
type ObjectTwitter struct {
	Card    string `json:"card"`
	Site    string `json:"site"`
	Creator string `json:"creator"`
}

// ObjectSitemap says whether and how the record is listed in the sitemap.
type ObjectSitemap struct {
	Included        bool     `json:"included"`
	Priority        *float64 `json:"priority"`
	ChangeFrequency string   `json:"changeFrequency"`
}

// Object returns m in the public API's shape. An excluded record has only its exclusion, its
// title and noindex.
func (m Meta) Object() Object {
	if m.Excluded {
		m = Meta{Excluded: true, Title: m.Title, NoIndex: true, Robots: "noindex", SitemapPriority: -1}
	}
	o := Object{
		Excluded: m.Excluded, Title: m.Title, Description: m.Description, Canonical: m.Canonical,
		Robots: ObjectRobots{Index: !m.NoIndex, Follow: !m.NoFollow, Content: m.Robots},
		OpenGraph: ObjectOG{Title: m.SocialTitle, Description: m.Description, URL: m.Canonical, Type: m.Type,
			SiteName: m.SiteName, Locale: ogLocale(m.Locale), Image: m.Image, ImageAlt: m.ImageAlt},
		Twitter: ObjectTwitter{Card: m.TwitterCard, Site: m.TwitterSite, Creator: m.TwitterCreator},
		JSONLD:  json.RawMessage("null"),
		Sitemap: ObjectSitemap{Included: m.InSitemap, ChangeFrequency: m.ChangeFrequency},
	}
	if m.JSONLD != "" && json.Valid([]byte(m.JSONLD)) {
		o.JSONLD = json.RawMessage(m.JSONLD)
	}
	if m.SitemapPriority >= 0 {
		p := m.SitemapPriority
		o.Sitemap.Priority = &p
	}
	return o
}
