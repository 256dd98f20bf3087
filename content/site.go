package content

import "strings"

// Site is one public origin of the service (configuration `sites`). URL is the configured
// origin plus an optional sub-path, without a trailing slash; canonical and absolute URLs are
// always built from it, never from a request's Host.
type Site struct {
	Handle  string
	URL     string
	Locale  string
	Default bool
	// TrailingSlash is the page URL policy (seo.trailingSlash): "never" (also ""), "always" or
	// "preserve". See [Site.PagePath] and [Site.CanonicalRequest].
	TrailingSlash string
}

// Trailing-slash policies (seo.trailingSlash).
const (
	SlashNever    = "never"
	SlashAlways   = "always"
	SlashPreserve = "preserve"
)

// PagePath is the public path of a page whose URL function gave p ("/blog/x", never with a
// trailing slash): p itself, or p with a trailing slash when the site's policy is "always".
func (s Site) PagePath(p string) string {
	if s.TrailingSlash == SlashAlways && p != "" && !strings.HasSuffix(p, "/") {
		return p + "/"
	}
	return p
}

// PageLink is [Site.Link] of [Site.PagePath].
func (s Site) PageLink(p string) string { return s.Link(s.PagePath(p)) }

// PageAbsolute is [Site.Absolute] of [Site.PagePath].
func (s Site) PageAbsolute(p string) string { return s.Absolute(s.PagePath(p)) }

// CanonicalRequest applies the trailing-slash policy to a requested path inside the site (as
// the client escaped it). It returns the path the page must be requested at and true when that
// differs, so the caller redirects: "never" drops trailing slashes, "always" adds one, except
// to the root and to file-like paths whose last segment has a dot (/sitemap.xml, /robots.txt),
// and "preserve" answers both forms.
func (s Site) CanonicalRequest(escapedPath string) (string, bool) {
	if escapedPath == "" || escapedPath == "/" {
		return escapedPath, false
	}
	switch s.TrailingSlash {
	case SlashPreserve:
		return escapedPath, false
	case SlashAlways:
		if strings.HasSuffix(escapedPath, "/") {
			if t := strings.TrimRight(escapedPath, "/") + "/"; t != escapedPath {
				return t, true // "/x//" → "/x/"
			}
			return escapedPath, false
		}
		if strings.Contains(escapedPath[strings.LastIndexByte(escapedPath, '/')+1:], ".") {
			return escapedPath, false
		}
		return escapedPath + "/", true
	default:
		if !strings.HasSuffix(escapedPath, "/") {
			return escapedPath, false
		}
		t := strings.TrimRight(escapedPath, "/")
		if t == "" {
			t = "/"
		}
		return t, true
	}
}

// Absolute joins the site's configured URL and a public path ("/blog/x").
func (s Site) Absolute(path string) string {
	if path == "" || path[0] != '/' {
		path = "/" + path
	}
	return s.URL + path
}

// BasePath is the path part of the site's URL ("" for a site at the root of its origin, "/de"
// for a sub-path site).
func (s Site) BasePath() string {
	i := strings.Index(s.URL, "://")
	if i < 0 {
		return ""
	}
	rest := s.URL[i+3:]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		return strings.TrimSuffix(rest[j:], "/")
	}
	return ""
}

// Link is the root-relative link to a public path on the site: its base path plus path.
func (s Site) Link(path string) string {
	if path == "" || path[0] != '/' {
		path = "/" + path
	}
	if b := s.BasePath(); b != "" {
		if path == "/" {
			return b + "/"
		}
		return b + path
	}
	return path
}
