// Package cp serves the Control Panel (CP), the editors' browser application. It is static: an
// HTML shell, CSS and JavaScript modules embedded in the binary, which talk to the Control Panel
// REST API (/api/...) with the browser's cms_session cookie. Under the mount path (default /cp):
//
//	GET {path}/login        the sign-in page (no cookie needed)
//	GET {path}/assets/{f}   CSS, JavaScript and images (no cookie needed; short max-age and ETag)
//	GET {path}, {path}/...  the application shell, or 307 to {path}/login without the cookie
//
// The cookie check is optimistic (spec, Authentication item 4): the group only looks for a
// non-empty cms_session cookie, reads no session and makes no internal call. A stale cookie
// gets the shell, whose first API call answers 401, and the application then sends the browser
// to the sign-in page. Any other path under {path}/ with a static file extension (.js, .css,
// .png, ...) is a 404, never a redirect to an HTML page. Methods other than GET and HEAD get a
// JSON 405.
//
// Every response carries a strict Content-Security-Policy (scripts and styles from this origin
// only, nothing inline, no framing), X-Content-Type-Options: nosniff and X-Frame-Options: DENY.
// HTML is never stored by caches (Cache-Control: no-store; Vary: Cookie), so a shared cache cannot
// hand a signed-in page to anyone else.
package cp

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path"
	"strings"

	"cms/handlers/web"
)

// CookieName is the session cookie whose presence lets the shell through.
const CookieName = "cms_session"

// DefaultPath is the mount path when Deps.Path is empty.
const DefaultPath = "/cp"

// Deps are the inputs of the group.
type Deps struct {
	// Path is where the CP is mounted, e.g. "/cp": it starts with "/", does not end with one, and
	// is not under /api or /assets.
	Path string
	// BasePath is a prefix the browser sees in front of every path but the handler does not (an
	// API Gateway stage the Lambda runner strips), "" when serving locally. Links, redirects and
	// the API address the pages use start with it.
	BasePath string
	// Secure says the session cookie is only sent over HTTPS (production); the sign-in page then
	// warns when it is opened over plain HTTP, where signing in could not work.
	Secure bool
	Log    *slog.Logger
}

// Prefixes are the path patterns the group serves for mount path p: p itself and its subtree.
func Prefixes(p string) []string {
	if p == "" {
		p = DefaultPath
	}
	return []string{p, p + "/"}
}

type server struct {
	login string // Location of the redirect, as the browser sees it
	files *files
	rt    *web.Router
}

// New builds the group's handler. It fails on a malformed Path or BasePath, or when the
// embedded files cannot be prepared.
func New(d Deps) (http.Handler, error) {
	if d.Path == "" {
		d.Path = DefaultPath
	}
	if err := checkPath("path", d.Path, false); err != nil {
		return nil, err
	}
	if err := checkPath("basePath", d.BasePath, true); err != nil {
		return nil, err
	}
	if p := d.Path + "/"; strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/assets/") {
		return nil, fmt.Errorf("cp: path %q would hide the API or the public assets", d.Path)
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	fs, err := loadFiles(pageData{Base: d.BasePath + d.Path, API: d.BasePath + "/api", Secure: d.Secure})
	if err != nil {
		return nil, fmt.Errorf("cp: %w", err)
	}
	d.Log.Debug("control panel ready", "path", d.Path, "assets", len(fs.assets))
	s := &server{login: d.BasePath + d.Path + "/login", files: fs, rt: web.NewRouter()}
	s.rt.HandleFunc("GET "+d.Path, s.shell)
	s.rt.HandleFunc("GET "+d.Path+"/login", s.loginPage)
	s.rt.HandleFunc("GET "+d.Path+"/assets/{file...}", s.asset)
	s.rt.HandleFunc("GET "+d.Path+"/{rest...}", s.shell)
	s.rt.NotFound("/")
	return s, nil
}

// checkPath accepts "/a/b-c" style paths: plain segments of letters, digits, '-', '_' and '.',
// so that the path can be put into a ServeMux pattern and into HTML without escaping surprises.
func checkPath(name, p string, emptyOK bool) error {
	if p == "" && emptyOK {
		return nil
	}
	if !strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || path.Clean(p) != p {
		return fmt.Errorf("cp: %s must start with / and not end with /, and be a clean path, not %q", name, p)
	}
	for _, c := range p {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/-_.", c)) {
			return fmt.Errorf("cp: %s may hold only letters, digits and - _ . /, not %q", name, p)
		}
	}
	return nil
}

// ServeHTTP adds the security headers every response carries, errors included, and routes.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	s.rt.ServeHTTP(w, r)
}

// Routes lists the group's route table (see [web.Router.Routes]).
func (s *server) Routes() []string { return s.rt.Routes() }

// GET /cp/login ({path}/login): the sign-in page; no cookie needed.
func (s *server) loginPage(w http.ResponseWriter, r *http.Request) error {
	return s.files.login.serve(w, r)
}

// GET /cp/assets/{file...} ({path}/assets/...): CSS, JavaScript and images; no cookie needed.
func (s *server) asset(w http.ResponseWriter, r *http.Request) error {
	a, ok := s.files.assets[r.PathValue("file")]
	if !ok {
		return web.NotFound("No such Control Panel file: %s", r.URL.Path)
	}
	return a.serve(w, r)
}

// GET /cp and GET /cp/{rest...} ({path} and below): the application shell, or 307 to the
// sign-in page without the session cookie.
func (s *server) shell(w http.ResponseWriter, r *http.Request) error {
	if staticExt(r.PathValue("rest")) {
		// A missing script or stylesheet must fail as one, not turn into the sign-in page.
		return web.NotFound("No such Control Panel file: %s", r.URL.Path)
	}
	if !hasSession(r) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Vary", "Cookie")
		w.Header().Set("Location", s.login)
		w.WriteHeader(http.StatusTemporaryRedirect)
		return nil
	}
	return s.files.index.serve(w, r)
}

// hasSession is the optimistic check: a non-empty cookie of the right name. An empty value is
// what a cleared cookie leaves behind in some clients, so it counts as absent.
func hasSession(r *http.Request) bool {
	c, err := r.Cookie(CookieName)
	return err == nil && c.Value != ""
}

// staticExt reports whether the last path element names a static file by its extension.
func staticExt(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".mjs", ".css", ".map", ".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico",
		".woff", ".woff2", ".ttf", ".txt", ".json", ".webmanifest":
		return true
	}
	return false
}

// csp allows only this origin's files: no inline script or style, no plugins, no framing, and
// no <base> that could redirect the modules. Images may also be data: or blob: URLs (an upload
// preview).
const csp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
	"frame-ancestors 'none'"

func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

// errNoFiles is returned when the embedded file set is incomplete (a build problem).
var errNoFiles = errors.New("embedded Control Panel files are missing")
