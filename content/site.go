package content

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
