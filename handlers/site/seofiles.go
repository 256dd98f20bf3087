package site

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"cms/content"
	"cms/content/query"
	"cms/content/seo"
	"cms/content/sitemap"
)

const notFoundText = "Not Found\n"

// contentPublished selects every published entry of a collection, in its own order.
var contentPublished = query.Query{Status: content.StatusPublished}

// disabled answers a switched-off SEO route (notes 14.4).
func (q *request) disabled() {
	plain(q.w, http.StatusNotFound, notFoundText, "no-store")
}

// text answers robots.txt or humans.txt: the site's template of that name, else body.
func (q *request) text(name, body string) {
	if t := q.s.views.set(q.site).text[name]; t != nil {
		out, err := executeText(t, map[string]any{"Site": q.site, "Sitemap": q.site.Absolute("/sitemap.xml")})
		if err != nil {
			q.s.Log.Error("template failed", "template", name, "err", err)
			plain(q.w, http.StatusInternalServerError, notFoundText, "no-store")
			return
		}
		body = string(out)
	}
	q.send(http.StatusOK, "text/plain; charset=utf-8", q.s.CacheControl, []byte(body))
}

// GET /robots.txt: everything allowed, the site's origin and its sitemap.
func (q *request) robots() {
	if !q.s.Flags.Robots {
		q.disabled()
		return
	}
	body := "User-agent: *\nAllow: /\n\nHost: " + q.site.URL + "\n"
	if q.s.Flags.Sitemap {
		body += "Sitemap: " + q.site.Absolute("/sitemap.xml") + "\n"
	}
	q.text("robots.txt", body)
}

// GET /humans.txt: the site's credits.
func (q *request) humans() {
	if !q.s.Flags.Humans {
		q.disabled()
		return
	}
	q.text("humans.txt", "/* SITE */\n"+q.site.URL+"\n")
}

// sitemapURL is one record in the sitemap, before sorting. It holds the record's path (the
// site's URL is the same for all) unless its canonical URL is elsewhere, and its own updatedAt
// string: collecting 100,000 records makes no copy of either.
type sitemapURL struct {
	path     string // the public path, when the canonical URL is the site's URL + path
	loc      string // else the canonical URL
	lastMod  string
	freq     string
	priority float64
	image    string // the social image (absolute), when the metadata has one
}

// text is the URL's full text.
func (u *sitemapURL) text(site string) string {
	if u.loc != "" {
		return u.loc
	}
	return site + u.path
}

// sitemapList is a site's sorted sitemap records and what they were built from.
type sitemapList struct {
	version uint64
	urls    []sitemapURL
}

// sitemapURLs returns the site's sorted records, rebuilt when an entry, a definition or a data
// file (terms) changed. Building them for 100,000 entries takes a good part of a second; a kept
// list starts streaming at once. One build per site at a time.
func (q *request) sitemapURLs() ([]sitemapURL, error) {
	s := q.s
	version := s.version(0)
	s.sitemapMu.Lock()
	defer s.sitemapMu.Unlock()
	if l := s.sitemaps[q.site.Handle]; l != nil && l.version == version {
		return l.urls, nil
	}
	urls, err := q.urls()
	if err != nil {
		return nil, err
	}
	s.sitemaps[q.site.Handle] = &sitemapList{version: version, urls: urls}
	return urls, nil
}

// urls lists the site's published entries and public terms that belong in its sitemap, sorted
// by URL.
func (q *request) urls() ([]sitemapURL, error) {
	type coll struct {
		c    *content.Collection
		list []*content.Entry
	}
	var colls []coll
	total := 0
	for _, c := range q.s.Store.Collections() {
		if !c.OnSite(q.site.Handle) {
			continue
		}
		list, _, err := q.s.Store.Entries(c.Handle, contentPublished)
		if err != nil {
			return nil, err
		}
		colls = append(colls, coll{c, list})
		total += len(list)
	}
	out := make([]sitemapURL, 0, total)
	base := q.site.URL
	add := func(sub seo.Subject) {
		m := q.s.SEO.Resolve(sub)
		if !m.InSitemap || m.Excluded || m.NoIndex {
			return
		}
		u := sitemapURL{path: sub.Path, lastMod: sub.UpdatedAt, freq: m.ChangeFrequency, priority: m.SitemapPriority, image: m.Image}
		if c := m.Canonical; c != "" && !(strings.HasPrefix(c, base) && c[len(base):] == sub.Path) {
			u.path, u.loc = "", c
		}
		out = append(out, u)
	}
	for _, c := range colls {
		for _, e := range c.list {
			if !e.Published() {
				continue
			}
			if p := content.EntryURL(c.c, e); p != "" {
				add(seo.Subject{Site: q.site, Kind: "entry", Section: c.c.Handle, Path: p, Title: e.Title, UpdatedAt: e.UpdatedAt, Data: e.Data})
			}
		}
	}
	for _, t := range q.s.Store.Taxonomies() {
		terms, err := q.s.Store.Terms(t.Handle)
		if err != nil {
			return nil, err
		}
		for _, term := range terms {
			if termPublic(term) {
				updated, _ := term.Data.String("updatedAt")
				add(seo.Subject{Site: q.site, Kind: "term", Section: t.Handle, Path: content.TermURL(t, term), Title: term.Title, UpdatedAt: updated, Data: term.Data})
			}
		}
	}
	slices.SortFunc(out, func(a, b sitemapURL) int {
		if a.loc == "" && b.loc == "" {
			return strings.Compare(a.path, b.path)
		}
		return strings.Compare(a.text(base), b.text(base))
	})
	return out, nil
}

// lastMod is updatedAt as ISO 8601 in UTC with milliseconds, or "" when it is not a date.
func lastMod(s string) string {
	t, ok := content.ParseTime(s)
	if !ok {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// GET /sitemap.xml (part 0) and GET /sitemap-{n}.xml: the site's URLs, sorted; beyond
// sitemap.MaxURLs /sitemap.xml is an index of numbered parts. Streamed: the body is written as
// it is produced.
func (q *request) sitemap(part int) {
	if !q.s.Flags.Sitemap {
		q.disabled()
		return
	}
	urls, err := q.sitemapURLs()
	if err != nil {
		q.s.Log.Error("sitemap failed", "err", err)
		plain(q.w, http.StatusInternalServerError, notFoundText, "no-store")
		return
	}
	per := q.s.SitemapMaxURLs
	parts := sitemap.Parts(len(urls), per)
	if part > 0 && (parts == 1 || part > parts) {
		q.notFound()
		return
	}
	if t := q.s.views.set(q.site).text["sitemap.xml"]; t != nil && part == 0 {
		list := make([]sitemap.URL, len(urls))
		for i, u := range urls {
			list[i] = sitemap.URL{Loc: u.text(q.site.URL), LastMod: lastMod(u.lastMod), ChangeFrequency: u.freq, Priority: u.priority}
		}
		out, err := executeText(t, map[string]any{"Site": q.site, "URLs": list})
		if err != nil {
			q.s.Log.Error("template failed", "template", "sitemap.xml", "err", err)
			plain(q.w, http.StatusInternalServerError, notFoundText, "no-store")
			return
		}
		q.send(http.StatusOK, "application/xml; charset=utf-8", q.s.CacheControl, out)
		return
	}
	h := q.w.Header()
	h.Set("Content-Type", "application/xml; charset=utf-8")
	h.Set("Cache-Control", q.s.CacheControl)
	q.w.WriteHeader(http.StatusOK)
	if q.r.Method == http.MethodHead {
		return
	}
	if parts > 1 && part == 0 {
		w := sitemap.NewIndex(q.w)
		for i := 1; i <= parts; i++ {
			w.Sitemap(q.site.Absolute("/sitemap-"+strconv.Itoa(i)+".xml"), "")
		}
		_ = w.Close()
		return
	}
	if part > 0 {
		urls = urls[(part-1)*per : min(part*per, len(urls))]
	}
	var w *sitemap.Writer
	if slices.ContainsFunc(urls, func(u sitemapURL) bool { return u.image != "" }) {
		w = sitemap.NewURLSetImages(q.w) // the namespace only when used
	} else {
		w = sitemap.NewURLSet(q.w)
	}
	for i, u := range urls {
		if w.URL(sitemap.URL{Loc: u.text(q.site.URL), LastMod: lastMod(u.lastMod), ChangeFrequency: u.freq, Priority: u.priority, Image: u.image}) != nil {
			return // the client went away
		}
		if i == 0 {
			_ = w.Flush()
			if f, ok := q.w.(http.Flusher); ok {
				f.Flush()
			}
		}
	}
	_ = w.Close()
}
