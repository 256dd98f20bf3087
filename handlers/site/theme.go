package site

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sync"

	"cms/content"
	"cms/content/query"
)

// themePrefix is where the built-in theme's stylesheet is served. It is a file, not inline
// CSS, so the pages keep a Content-Security-Policy without 'unsafe-inline'; the site group
// serves it itself because it is embedded in the binary (the asset files of /assets/ are the
// site's own uploads). No slug can start with "_", so no entry route is shadowed.
const themePrefix = "/_theme/"

var themeCSS = sync.OnceValues(func() ([]byte, string) {
	b, err := themeFS.ReadFile("theme/theme.css")
	if err != nil {
		panic(err) // embedded at build time
	}
	sum := sha256.Sum256(b)
	return b, hex.EncodeToString(sum[:6])
})

// themeFile serves the built-in stylesheet; its links carry the content hash, so it may be
// cached for long.
func (s *site) themeFile(w http.ResponseWriter, r *http.Request, name string) {
	if name != "theme.css" {
		(&request{w: w, r: r, s: s, site: s.sites.Default(), escapedPath: r.URL.EscapedPath()}).notFound()
		return
	}
	body, _ := themeCSS()
	q := &request{w: w, r: r, s: s}
	q.send(http.StatusOK, "text/css; charset=utf-8", "public, max-age=86400", body)
}

// themeLink is the stylesheet's URL on a site, versioned by its content.
func themeLink(st content.Site) string {
	_, sum := themeCSS()
	return st.Link(themePrefix+"theme.css") + "?v=" + sum
}

// collections lists the collections public on the site, as templates see them.
func (f *funcs) collections() []*CollectionView {
	var out []*CollectionView
	for _, c := range f.s.Store.Collections() {
		if c.OnSite(f.site.Handle) {
			out = append(out, &CollectionView{Handle: c.Handle, Title: c.Title, Route: c.Route})
		}
	}
	return out
}

// tagged "tags" "news" 20: published entries holding a term, from every collection that uses the
// taxonomy (its terms in the field named after it), newest first.
func (f *funcs) tagged(tax, slug string, limit int) ([]*EntryView, error) {
	if limit < 1 || limit > maxListLimit {
		limit = maxListLimit
	}
	var out []*EntryView
	for _, c := range f.s.Store.Collections() {
		if !c.OnSite(f.site.Handle) || !contains(c.Taxonomies, tax) {
			continue
		}
		q := query.Query{Status: content.StatusPublished, Filter: map[string]any{tax: slug},
			Sort: []query.SortKey{{Field: "createdAt", Desc: true}}, Limit: limit}
		list, _, err := f.s.Store.Entries(c.Handle, q)
		if err != nil {
			return nil, err
		}
		for _, e := range list {
			out = append(out, f.s.entryView(f.site, c, e, nil))
		}
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
