package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"cms/content"
	"cms/content/pagecache"
	"cms/content/routing"
	"cms/content/seo"
	"cms/handlers/web"
)

// request is one page request: the response, the chosen site and the path inside it.
type request struct {
	w           http.ResponseWriter
	r           *http.Request
	s           *site
	site        content.Site
	escapedPath string // the path inside the site, as the client escaped it

	views    *viewSet // the site's templates, read once per request
	cacheKey string   // set when the page may be cached
	version  uint64
	preview  string              // the request's ?preview= token, "" for none
	noStore  bool                // the page shows a draft: never cached, anywhere
	rec      *pagecache.Recorder // the static cache's, when it stores this page
}

// Page is the data every page template receives (docs/templates.md).
type Page struct {
	Site       SiteView
	Path       string     // the page's path inside its site, e.g. /blog/2026/04/hello
	URL        string     // the page's absolute URL on its configured site
	Query      url.Values // the request's query parameters
	PageNumber int        // ?page=N, 1 when absent or not a positive number
	Status     int        // 200, or 404 on the not-found page
	Title      string     // the record's title ("" on the home template)
	Entry      *EntryView
	Collection *CollectionView
	Term       *TermView
	Taxonomy   *TaxonomyView
	Settings   map[string]any // content/settings.yaml (site_name, locale, timezone)
	SEO        seo.Meta
	Preview    bool // the page shows an entry's current draft for a preview token

	seoHead template.HTML
}

// SiteView is the request's site.
type SiteView struct {
	Handle string
	URL    string // configured origin and base path, no trailing slash
	Locale string
	Base   string // the base path of a sub-path site, "" at the root
}

// CollectionView is a collection definition as templates see it.
type CollectionView struct {
	Handle, Title, Route string
}

// TaxonomyView is a taxonomy definition as templates see it.
type TaxonomyView struct {
	Handle, Title, Route string
}

func (q *request) newPage(status int) *Page {
	p := &Page{
		Site:       SiteView{Handle: q.site.Handle, URL: q.site.URL, Locale: q.site.Locale, Base: q.site.BasePath()},
		Query:      q.r.URL.Query(),
		PageNumber: 1,
		Status:     status,
	}
	if d, err := url.PathUnescape(q.escapedPath); err == nil {
		p.Path = d
	}
	p.URL = q.site.Absolute(q.escapedPath)
	if n, err := strconv.Atoi(p.Query.Get("page")); err == nil && n > 0 {
		p.PageNumber = n
	}
	p.Settings = q.s.data.siteSettings()
	return p
}

// page answers a page path: an entry, a term, the home page, or the 404 page.
func (q *request) page() {
	path := q.escapedPath
	if canon, moved := q.site.CanonicalRequest(path); moved {
		// One URL per page (seo.trailingSlash): "never" moves /about/ to /about, "always" /about
		// to /about/; "preserve" answers both.
		target := q.site.Link(canon)
		if q.r.URL.RawQuery != "" {
			target += "?" + q.r.URL.RawQuery
		}
		if strings.HasPrefix(target, "//") { // never a protocol-relative URL to another host
			q.notFound()
			return
		}
		q.w.Header().Set("Location", target)
		q.w.Header().Set("Cache-Control", q.s.CacheControl)
		q.w.WriteHeader(http.StatusPermanentRedirect)
		return
	}
	if path != "/" {
		path = strings.TrimRight(path, "/") // records are matched by their URL without the slash
	}
	// A page the static cache is storing renders afresh from current files (here its reads are
	// recorded) and is not kept twice; the site's own cache serves the requests the static
	// cache lets through.
	if q.rec = pagecache.FromContext(q.r.Context()); q.rec != nil {
		q.s.recheck()
	}
	var gen uint64
	q.views, gen = q.s.views.current(q.site)
	q.version = q.s.version(gen)
	if pv := q.r.URL.Query()["preview"]; len(pv) > 0 && q.s.Preview != nil {
		// A preview request is never answered from or kept in the page cache: whatever it
		// renders (a draft, or the published page for a bad token) depends on the token.
		if len(pv) == 1 {
			q.preview = pv[0]
		}
	} else {
		// A page the static cache is storing renders fresh, to record what it reads.
		if q.rec == nil {
			q.cacheKey = cacheKey(q.site.Handle, path, q.r.URL.RawQuery)
		}
		if q.cacheKey != "" && q.fromCache(q.cacheKey, q.version) {
			return
		}
	}
	page, names := q.find(path)
	if page == nil && q.s.upstream != nil {
		q.s.upstream.ServeHTTP(q.w, q.r) // a headless frontend's page (upstream.go)
		return
	}
	if page == nil {
		q.notFound()
		return
	}
	q.render(page, names)
}

// find returns the page at a path inside the site (its trailing slash removed) and the names of
// the templates that may render it, or nil when no published record, home or search page is there.
func (q *request) find(path string) (*Page, []string) {
	var buf [routing.MaxSegments]string
	segs, ok := routing.Split(path, buf[:])
	if !ok {
		return nil, nil
	}
	var page *Page
	var names []string
	q.s.table().Match(segs, func(c routing.Candidate) bool {
		switch c.Kind {
		case routing.Entry:
			page, names = q.entryPage(c, segs)
		case routing.Term:
			page, names = q.termPage(c, segs)
		}
		return page == nil
	})
	if page == nil && path == "/" {
		page, names = q.newPage(http.StatusOK), []string{"home.html"}
		name, _ := page.Settings["site_name"].(string)
		page.SEO = q.resolve(seo.Subject{Site: q.site, Kind: "page", Path: "/", Title: name})
	}
	if page == nil && path == searchPath && q.s.Search != nil {
		// Only when no entry or term has this URL: the search page never shadows a record.
		page, names = q.newPage(http.StatusOK), []string{"search.html"}
		page.Title = "Search"
		// A results page is for visitors, not for search engines' indexes.
		page.SEO = q.resolve(seo.Subject{Site: q.site, Kind: "page", Path: searchPath, Title: page.Title})
		noIndex(&page.SEO)
	}
	return page, names
}

// searchPath is the search page's path inside a site (docs/templates.md).
const searchPath = "/search"

// samePath reports whether a record's URL (from the one URL function) is the requested path, so
// that a route's date parts must be the entry's own and each record has one URL.
func samePath(u string, segs []string) bool {
	var buf [routing.MaxSegments]string
	got, ok := routing.Split(u, buf[:])
	if !ok || len(got) != len(segs) {
		return false
	}
	for i := range got {
		if got[i] != segs[i] {
			return false
		}
	}
	return true
}

// entryPage loads a published entry for a candidate, or nil.
func (q *request) entryPage(c routing.Candidate, segs []string) (*Page, []string) {
	coll, err := q.s.Store.Collection(c.Handle)
	if err != nil || !coll.OnSite(q.site.Handle) || !content.ValidHandle(c.Slug) {
		return nil, nil
	}
	// A draft is shown only to the holder of a preview token signed for exactly this entry.
	draft := q.preview != "" && q.s.Preview.Verify(q.preview, c.Handle, c.Slug) == nil
	meta, err := q.s.Store.EntryMeta(c.Handle, c.Slug)
	if err != nil || !samePath(content.EntryURL(coll, meta), segs) {
		return nil, nil
	}
	e, body := q.s.readEntry(coll, meta, draft)
	if e == nil || !samePath(content.EntryURL(coll, e), segs) {
		return nil, nil
	}
	p := q.newPage(http.StatusOK)
	p.Entry = q.s.entryView(q.site, coll, e, body)
	p.Title = e.Title
	p.Collection = &CollectionView{Handle: coll.Handle, Title: coll.Title, Route: coll.Route}
	p.SEO = q.resolve(seo.Subject{Site: q.site, Kind: "entry", Section: coll.Handle, Path: content.EntryURL(coll, e), Title: e.Title, UpdatedAt: e.UpdatedAt, Data: e.Data})
	if draft {
		q.noStore, p.Preview = true, true
		noIndex(&p.SEO)
	}
	var names []string
	if t, ok := e.Data.String("template"); ok {
		names = append(names, t+".html")
	}
	if coll.Template != "" {
		names = append(names, coll.Template+".html")
	}
	return p, append(names, coll.Handle+".html", "entry.html")
}

// termPage loads a public term (not marked status: draft) for a candidate, or nil.
func (q *request) termPage(c routing.Candidate, segs []string) (*Page, []string) {
	tax, err := q.s.Store.Taxonomy(c.Handle)
	if err != nil || !content.ValidHandle(c.Slug) {
		return nil, nil
	}
	term, _, err := q.s.Store.Term(c.Handle, c.Slug)
	if err != nil || !termPublic(term) || !samePath(content.TermURL(tax, term), segs) {
		return nil, nil
	}
	p := q.newPage(http.StatusOK)
	p.Term = q.s.termView(q.site, tax, term)
	p.Title = term.Title
	p.Taxonomy = &TaxonomyView{Handle: tax.Handle, Title: tax.Title, Route: tax.Route}
	p.SEO = q.resolve(seo.Subject{Site: q.site, Kind: "term", Section: tax.Handle, Path: content.TermURL(tax, term), Title: term.Title, Data: term.Data})
	return p, []string{tax.Handle + ".html", "term.html"}
}

// noIndex marks a page's metadata noindex, keeping its other robots directives.
func noIndex(m *seo.Meta) {
	m.NoIndex = true
	if !strings.Contains(m.Robots, "noindex") {
		m.Robots = strings.TrimSuffix("noindex, "+m.Robots, ", ")
	}
}

func termPublic(t *content.Term) bool {
	s, _ := t.Data.String("status")
	return s != content.StatusDraft
}

func (q *request) resolve(sub seo.Subject) seo.Meta {
	m := q.s.SEO.Resolve(sub)
	if m.Title == "" {
		m.Title = sub.Title
	}
	return m
}

// notFound renders the 404 page.
func (q *request) notFound() {
	p := q.newPage(http.StatusNotFound)
	p.Title = "Page not found"
	p.SEO = seo.Meta{Title: p.Title, NoIndex: true, Robots: "noindex"}
	q.render(p, []string{"404.html"})
}

// render executes the first template of names the site has (else the built-in theme's) into a
// buffer, so a failing template never sends half a page, and answers it with an ETag.
func (q *request) render(p *Page, names []string) {
	if q.s.Flags.Metadata {
		p.seoHead = p.SEO.Head()
	} else if p.SEO.Title != "" {
		p.seoHead = template.HTML("<title>" + template.HTMLEscapeString(p.SEO.Title) + "</title>\n")
	}
	if p.Preview && !q.s.Flags.Metadata {
		p.seoHead += `<meta name="robots" content="noindex">` + "\n"
	}
	set := q.views
	if set == nil {
		set = q.s.views.set(q.site)
	}
	t, name, err := set.lookup(names)
	if t == nil && err == nil {
		set = q.s.themeSet(q.site)
		t, name, err = set.lookup(names)
	}
	var b bytes.Buffer
	if err == nil {
		err = set.execute(&b, t, p)
	}
	if err == nil && q.rec != nil {
		q.recordReads(q.rec, &set.reads, t, p)
	}
	if err != nil {
		q.s.Log.Error("template failed", "template", name, "err", err, "path", q.r.URL.Path)
		q.serverError()
		return
	}
	body := b.Bytes()
	etag := etagOf(body)
	if q.noStore {
		q.w.Header().Set("X-Robots-Tag", "noindex")
		q.sendTagged(p.Status, "text/html; charset=utf-8", "no-store", body, etag)
		return
	}
	var gz []byte
	if q.cacheKey != "" {
		gz = q.toCache(q.cacheKey, q.version, p.Status, body, etag)
	}
	q.sendPage(p.Status, body, gz, etag)
}

func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// send answers a complete body with an ETag, or 304 when the client has it; HEAD gets the
// headers only.
func (q *request) send(status int, contentType, cacheControl string, body []byte) {
	q.sendTagged(status, contentType, cacheControl, body, etagOf(body))
}

func (q *request) sendTagged(status int, contentType, cacheControl string, body []byte, etag string) {
	h := q.w.Header()
	h.Set("Cache-Control", cacheControl)
	h.Set("Etag", etag)
	if q.s.ContentSecurityPolicy != "" {
		h.Set("Content-Security-Policy", q.s.ContentSecurityPolicy)
	}
	if status == http.StatusOK && web.NoneMatch(q.r, etag) {
		q.w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", itoa(len(body)))
	_ = web.SendBody(q.w, q.r, status, body) // an error: the client went away
}

// noneMatchEither reports whether If-None-Match names either ETag.
func noneMatchEither(r *http.Request, a, b string) bool {
	return web.NoneMatch(r, a) || web.NoneMatch(r, b)
}

// serverError is the page of a failed template: fixed, so it cannot fail itself.
func (q *request) serverError() {
	h := q.w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	if q.s.ContentSecurityPolicy != "" {
		h.Set("Content-Security-Policy", q.s.ContentSecurityPolicy)
	}
	q.w.WriteHeader(http.StatusInternalServerError)
	if q.r.Method != http.MethodHead {
		_, _ = q.w.Write([]byte(errorPage))
	}
}

const errorPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Something went wrong</title>
</head>
<body>
<h1>Something went wrong</h1>
<p>This page could not be shown. Please try again later.</p>
</body>
</html>
`
