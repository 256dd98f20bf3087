package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"cms/content"
	"cms/content/seo"
)

// MaxRedirectOrigins bounds seo.allowedRedirectOrigins (notes 14.1).
const MaxRedirectOrigins = 100

// SEOConfig returns what the SEO resolver (content/seo) needs of the configuration: the site
// group and the public API build their resolver from it. seo.enabled false switches every SEO
// feature off, metadata included.
func (c *Config) SEOConfig() seo.Config {
	return seo.Config{
		Enabled:                 c.SEO.Enabled,
		Metadata:                c.SEO.Enabled && c.SEO.Metadata,
		StructuredData:          c.SEO.Enabled && c.SEO.StructuredData,
		AllowExternalCanonicals: c.SEO.AllowExternalCanonicals,
		SocialImages:            c.SEO.Enabled && c.SEO.Metadata && c.SEO.SocialImages,
	}
}

// SEOUnavailable lists the SEO permission resources whose feature is off: seo.enabled false
// switches off all four, seo.reports, seo.redirects and seo.errorTracking their own.
func (c *Config) SEOUnavailable() []string {
	if !c.SEO.Enabled {
		return []string{"seo", "seo-reports", "seo-redirects", "seo-errors"}
	}
	var out []string
	for res, on := range map[string]bool{"seo-reports": c.SEO.Reports, "seo-redirects": c.SEO.Redirects, "seo-errors": c.SEO.ErrorTracking} {
		if !on {
			out = append(out, res)
		}
	}
	slices.Sort(out)
	return out
}

// SEOSites are the configured sites as the SEO packages take them.
func (c *Config) SEOSites() []content.Site {
	out := make([]content.Site, len(c.Sites))
	for i, s := range c.Sites {
		out[i] = content.Site{Handle: s.Handle, URL: strings.TrimSuffix(s.URL, "/"), Locale: s.Locale, Default: i == 0, TrailingSlash: c.SEO.TrailingSlash}
	}
	return out
}

// SEOSite is the site whose URLs the public API's and GraphQL's SEO metadata use: the first
// configured site, until requests choose their site by host.
func (c *Config) SEOSite() content.Site {
	if len(c.Sites) == 0 {
		return content.Site{}
	}
	s := c.Sites[0]
	return content.Site{Handle: s.Handle, URL: strings.TrimSuffix(s.URL, "/"), Locale: s.Locale, Default: true, TrailingSlash: c.SEO.TrailingSlash}
}

func (c *Config) validateSEO() []error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}
	switch c.SEO.TrailingSlash {
	case "never", "always", "preserve":
	default:
		bad("seo.trailingSlash", "must be never, always or preserve, not %q", c.SEO.TrailingSlash)
	}
	if len(c.SEO.AllowedRedirectOrigins) > MaxRedirectOrigins {
		bad("seo.allowedRedirectOrigins", "may list at most %d origins, not %d", MaxRedirectOrigins, len(c.SEO.AllowedRedirectOrigins))
	}
	for i, o := range c.SEO.AllowedRedirectOrigins {
		if !isOrigin(o) {
			bad(fmt.Sprintf("seo.allowedRedirectOrigins[%d]", i), "must be an http(s) origin such as https://example.com, not %q", o)
		}
	}
	if c.SEO.ReportRetentionDays < 1 {
		bad("seo.reportRetentionDays", "must be at least 1")
	}
	if c.SEO.ReportSnapshotLimit < 1 {
		bad("seo.reportSnapshotLimit", "must be at least 1")
	}
	return errs
}

// isOrigin reports whether s is scheme://host[:port] with an http(s) scheme, no credentials,
// query or fragment, and no path but "/".
func isOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil &&
		(u.Path == "" || u.Path == "/") && u.RawQuery == "" && !u.ForceQuery && u.Fragment == "" && u.Opaque == ""
}
