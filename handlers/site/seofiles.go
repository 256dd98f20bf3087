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
	image    string         // the social image (absolute), when the metadata has one
	e        *content.Entry // the entry it is of (nil for a term)
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
	urls    []sitemapURL // entries and terms, sorted; never modified once built (streams read it)

	// The entries' records are kept per collection and updated per changed entry: the index
	// replaces an entry's pointer when it changes and never modifies one, so an entry seen before
	// under the same definitions (routes, sites, SEO documents) has the same record.
	defs    uint64               // the definitions generation of the records
	colls   map[string]*collURLs // by collection handle
	entries []sitemapURL         // every collection's records, sorted
}

// collURLs are one collection's sitemap records.
type collURLs struct {
	version uint64                    // the collection's version they are of (0: unknown)
	urls    []sitemapURL              // sorted
	seen    map[*content.Entry]uint32 // every published entry resolved, with the last pass that saw it
	pass    uint32
}

// versioned is a store that tells when a collection's entries change (fsstore.Store does).
type versioned interface {
	CollectionVersion(c string) uint64
}

// sitemapURLs returns the site's sorted records, brought up to date when an entry, a definition
// or a data file (terms) changed: only the entries of a changed collection are looked at, only
// new and changed ones resolved again, so the first byte after an edit comes in tens of
// milliseconds even at 100,000 entries. One update per site at a time.
func (q *request) sitemapURLs() ([]sitemapURL, error) {
	s := q.s
	version := s.version(0)
	s.sitemapMu.Lock()
	defer s.sitemapMu.Unlock()
	l := s.sitemaps[q.site.Handle]
	if l != nil && l.version == version {
		return l.urls, nil
	}
	if l == nil {
		l = &sitemapList{}
		s.sitemaps[q.site.Handle] = l
	}
	if err := q.updateEntries(l); err != nil {
		l.colls, l.entries, l.version = nil, nil, 0 // start afresh next time
		return nil, err
	}
	terms, err := q.termURLs()
	if err != nil {
		l.version = 0
		return nil, err
	}
	l.urls = mergeURLs(l.entries, terms, q.site.URL)
	l.version = version
	return l.urls, nil
}

// updateEntries brings l.entries up to date with the site's published entries that belong in
// its sitemap.
func (q *request) updateEntries(l *sitemapList) error {
	if defs := q.s.Store.DefinitionsGeneration(); l.colls == nil || l.defs != defs {
		l.defs, l.colls, l.entries = defs, map[string]*collURLs{}, nil
	}
	vs, _ := q.s.Store.(versioned)
	changed := l.entries == nil
	var lists [][]sitemapURL
	for _, c := range q.s.Store.Collections() {
		if !c.OnSite(q.site.Handle) {
			continue
		}
		cu := l.colls[c.Handle]
		if cu == nil {
			cu = &collURLs{seen: map[*content.Entry]uint32{}}
			l.colls[c.Handle] = cu
		}
		var v uint64
		if vs != nil {
			v = vs.CollectionVersion(c.Handle)
		}
		if v == 0 || v != cu.version {
			ch, err := q.updateCollection(c, cu)
			if err != nil {
				return err
			}
			cu.version, changed = v, changed || ch
		}
		lists = append(lists, cu.urls)
	}
	if changed {
		var all []sitemapURL
		for _, list := range lists {
			all = mergeURLs(all, list, q.site.URL)
		}
		l.entries = all
	}
	return nil
}

// updateCollection brings a collection's records up to date, resolving the SEO metadata of new
// and changed entries only, and reports whether they changed.
func (q *request) updateCollection(c *content.Collection, cu *collURLs) (bool, error) {
	list, _, err := q.s.Store.Entries(c.Handle, contentPublished)
	if err != nil {
		return false, err
	}
	cu.pass++
	var added []sitemapURL
	changed, marked := false, 0
	for _, e := range list {
		if _, known := cu.seen[e]; known { // published when it was first seen: entries never change
			cu.seen[e] = cu.pass
			marked++
			continue
		}
		if !e.Published() {
			continue
		}
		cu.seen[e] = cu.pass
		marked++
		changed = true
		if p := content.EntryURL(c, e); p != "" {
			if u, ok := q.record(seo.Subject{Site: q.site, Kind: "entry", Section: c.Handle, Path: p, Title: e.Title, UpdatedAt: e.UpdatedAt, Data: e.Data}); ok {
				u.e = e
				added = append(added, u)
			}
		}
	}
	// Entries not seen in this pass were replaced, unpublished or deleted.
	var gone map[*content.Entry]bool
	for e, pass := range cu.seen {
		if marked == len(cu.seen) {
			break
		}
		if pass != cu.pass {
			delete(cu.seen, e)
			if gone == nil {
				gone = map[*content.Entry]bool{}
			}
			gone[e] = true
		}
	}
	if !changed && gone == nil {
		return false, nil
	}
	kept := cu.urls
	if gone != nil {
		kept = make([]sitemapURL, 0, len(cu.urls))
		for _, u := range cu.urls {
			if !gone[u.e] {
				kept = append(kept, u)
			}
		}
	}
	sortURLs(added, q.site.URL)
	cu.urls = mergeURLs(kept, added, q.site.URL)
	return true, nil
}

// termURLs lists the site's public terms that belong in its sitemap, sorted.
func (q *request) termURLs() ([]sitemapURL, error) {
	var out []sitemapURL
	for _, t := range q.s.Store.Taxonomies() {
		terms, err := q.s.Store.Terms(t.Handle)
		if err != nil {
			return nil, err
		}
		for _, term := range terms {
			if termPublic(term) {
				updated, _ := term.Data.String("updatedAt")
				if u, ok := q.record(seo.Subject{Site: q.site, Kind: "term", Section: t.Handle, Path: content.TermURL(t, term), Title: term.Title, UpdatedAt: updated, Data: term.Data}); ok {
					out = append(out, u)
				}
			}
		}
	}
	sortURLs(out, q.site.URL)
	return out, nil
}

// record resolves a record's sitemap entry, or false when its metadata keeps it out.
func (q *request) record(sub seo.Subject) (sitemapURL, bool) {
	m := q.s.SEO.Resolve(sub)
	if !m.InSitemap || m.Excluded || m.NoIndex {
		return sitemapURL{}, false
	}
	base := q.site.URL
	u := sitemapURL{path: q.site.PagePath(sub.Path), lastMod: sub.UpdatedAt, freq: m.ChangeFrequency, priority: m.SitemapPriority, image: m.Image}
	if c := m.Canonical; c != "" && !(strings.HasPrefix(c, base) && c[len(base):] == u.path) {
		u.path, u.loc = "", c
	}
	return u, true
}

func compareURLs(a, b *sitemapURL, base string) int {
	if a.loc == "" && b.loc == "" {
		return strings.Compare(a.path, b.path)
	}
	return strings.Compare(a.text(base), b.text(base))
}

func sortURLs(urls []sitemapURL, base string) {
	slices.SortFunc(urls, func(a, b sitemapURL) int { return compareURLs(&a, &b, base) })
}

// mergeURLs merges two sorted lists into a new one (one of them when the other is empty).
func mergeURLs(a, b []sitemapURL, base string) []sitemapURL {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]sitemapURL, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if compareURLs(&a[i], &b[j], base) <= 0 {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
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
