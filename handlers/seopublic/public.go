// Package seopublic is the SEO middleware of the public website: authored redirects before the
// page, and the 404s it answers recorded. It is its own package so that the site group (and its
// Lambda) links it without the SEO API group.
package seopublic

import (
	"net/http"

	"cms/content/seo/redirects"
)

// Lookuper finds the redirect of a public path (redirects.Store).
type Lookuper interface {
	Lookup(site, path, rawQuery string) (location string, status int, ok bool)
}

// Recorder records a public 404 (notfound.Tracker).
type Recorder interface {
	Record(site, path string, hasQuery bool, referrer string) bool
}

// Public wraps the public website's handler with the SEO operations of a page request: an
// authored redirect is answered before the page renders (GET and HEAD only, never the API, the
// Control Panel at cpPath or asset files), and such a page answered 404 is recorded. site names the
// request's site; rs and nf may be nil (the feature is off). The site group mounts it.
func Public(next http.Handler, site func(*http.Request) string, rs Lookuper, nf Recorder, cpPath string) http.Handler {
	if rs == nil && nf == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !redirects.Applies(r.Method, r.URL.Path, cpPath) {
			next.ServeHTTP(w, r)
			return
		}
		s := site(r)
		if rs != nil {
			if loc, status, ok := rs.Lookup(s, r.URL.EscapedPath(), r.URL.RawQuery); ok {
				w.Header().Set("Location", loc)
				w.Header().Set("Cache-Control", "no-cache")
				w.WriteHeader(status)
				return
			}
		}
		if nf == nil {
			next.ServeHTTP(w, r)
			return
		}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == http.StatusNotFound {
			nf.Record(s, r.URL.EscapedPath(), r.URL.RawQuery != "", r.Referer())
		}
	})
}

// statusWriter notes the status a handler answers with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (flush, deadlines).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
