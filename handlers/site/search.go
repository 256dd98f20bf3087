package site

import (
	"fmt"
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"cms/content"
	"cms/content/search"
)

// Searcher runs full-text searches (fsstore.Store implements it); New takes it from Store when
// Store can search.
type Searcher interface {
	Search(collection string, q search.Query) ([]search.Result, int, error)
}

// Bounds of a search from a template, as the public API's.
const (
	maxSearchQuery   = 200 // bytes of the words
	maxSearchPerPage = 50
	maxSearchOffset  = 1000
)

// SearchResults is one page of a search's hits, as `search` returns it.
type SearchResults struct {
	Query   string // the words searched for ("" when none were given: no hits)
	Items   []*SearchHit
	Number  int // this page, from 1
	Pages   int // at least 1
	Total   int
	PerPage int
	PrevURL string // "" on the first page
	NextURL string // "" on the last page
}

// SearchHit is a published entry that matched.
type SearchHit struct {
	Title      string
	Slug       string
	Collection string
	URL        string        // the entry's link on the site
	Snippet    template.HTML // the text around the match, escaped, matching words in <mark>
	Score      float64
}

// search runs the full-text search over the published entries of this site's collections
// that have pages (or the one named by collection=): the words are the page's ?q= (or q= in
// opts), the page of hits the page's ?page=N, perPage= in opts (default 10, at most 50).
func (f *funcs) search(p *Page, opts ...string) (*SearchResults, error) {
	if p == nil {
		return nil, fmt.Errorf("search needs the page (.) as its first argument")
	}
	if f.s.Search == nil {
		return nil, fmt.Errorf("search: this store has no search index")
	}
	o, err := url.ParseQuery(strings.Join(opts, "&"))
	if err != nil {
		return nil, fmt.Errorf("search %q: %v", opts, err)
	}
	q := p.Query.Get("q")
	if o.Has("q") {
		q = o.Get("q")
	}
	q = strings.TrimSpace(q)
	per := 10
	if s := o.Get("perPage"); s != "" {
		if per, err = strconv.Atoi(s); err != nil || per < 1 || per > maxSearchPerPage {
			return nil, fmt.Errorf("search: perPage must be 1 to %d, not %q", maxSearchPerPage, s)
		}
	}
	res := &SearchResults{Query: q, Items: []*SearchHit{}, Number: p.PageNumber, Pages: 1, PerPage: per}
	offset := (p.PageNumber - 1) * per
	// Too long, not text, or paged too deep: no hits rather than a failed page, as a visitor
	// typed it.
	if q == "" || len(q) > maxSearchQuery || !utf8.ValidString(q) || offset > maxSearchOffset {
		return res, nil
	}
	var colls []*content.Collection
	if h := o.Get("collection"); h != "" {
		c, err := f.collection(h)
		if err != nil {
			return nil, err
		}
		colls = []*content.Collection{c}
	} else {
		for _, c := range f.s.Store.Collections() {
			if c.Route != "" && c.OnSite(f.site.Handle) {
				colls = append(colls, c)
			}
		}
	}
	type found struct {
		c *content.Collection
		h search.Result
	}
	var all []found
	for _, c := range colls {
		hits, n, err := f.s.Search.Search(c.Handle, search.Query{Text: q, PublicOnly: true, Limit: offset + per})
		if err != nil {
			return nil, fmt.Errorf("search %q: %w", c.Handle, err)
		}
		res.Total += n
		for _, h := range hits {
			if h.Entry != nil && h.Entry.Published() {
				all = append(all, found{c, h})
			}
		}
	}
	// Merge the collections' hits by score, then collection and slug, so pages are stable.
	slices.SortStableFunc(all, func(x, y found) int {
		switch {
		case x.h.Score > y.h.Score:
			return -1
		case x.h.Score < y.h.Score:
			return 1
		}
		return strings.Compare(x.c.Handle+"\x00"+x.h.Entry.Slug, y.c.Handle+"\x00"+y.h.Entry.Slug)
	})
	if offset < len(all) {
		all = all[offset:min(len(all), offset+per)]
	} else {
		all = nil
	}
	for _, x := range all {
		e := x.h.Entry
		hit := &SearchHit{Title: e.Title, Slug: e.Slug, Collection: x.c.Handle, Score: x.h.Score,
			Snippet: template.HTML(search.Snippet(x.h.Text, q))} // escaped but for its <mark> elements
		if u := content.EntryURL(x.c, e); u != "" {
			hit.URL = f.site.PageLink(u)
		}
		res.Items = append(res.Items, hit)
	}
	res.Pages = max(1, (res.Total+per-1)/per)
	res.PrevURL, res.NextURL = f.pageLinks(p, res.Number, res.Pages)
	return res, nil
}

// pageLinks returns the links to the pages before and after n of pages: the page's own path and
// query with ?page= changed ("" where there is none).
func (f *funcs) pageLinks(p *Page, n, pages int) (prev, next string) {
	link := func(k int) string {
		q := url.Values{}
		for key, vs := range p.Query {
			q[key] = vs
		}
		if k == 1 {
			q.Del("page")
		} else {
			q.Set("page", strconv.Itoa(k))
		}
		u := f.site.Link(p.Path)
		if enc := q.Encode(); enc != "" {
			u += "?" + enc
		}
		return u
	}
	if n > 1 {
		prev = link(min(n-1, pages))
	}
	if n < pages {
		next = link(n + 1)
	}
	return prev, next
}
