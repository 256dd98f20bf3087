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
