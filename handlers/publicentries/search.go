package publicentries

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"unicode/utf8"

	"cms/content"
	"cms/content/query"
	"cms/content/search"
	"cms/handlers/web"
)

// Limits of a public search.
const (
	maxSearchQuery     = 200 // bytes of q
	defaultSearchLimit = 10
	maxSearchLimit     = 50
	maxSearchOffset    = 1000
)

type searchHit struct {
	Collection string  `json:"collection"`
	Slug       string  `json:"slug"`
	Title      string  `json:"title"`
	URL        string  `json:"url"`
	Score      float64 `json:"score"`
	// Snippet is HTML: the text escaped, the matching words in <mark> elements.
	Snippet string `json:"snippet"`
}

type searchMeta struct {
	Q      string `json:"q"`
	Total  int    `json:"total"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

// GET {base}/search?q=...&collection=...&limit=&offset=: published entries holding every word of
// q (the last also as a prefix), best first, with highlighted snippets. Without collection every
// collection is searched.
func (a *api) search(w http.ResponseWriter, r *http.Request) error {
	if a.Search == nil {
		return web.NotFound("Search is not available")
	}
	v := r.URL.Query()
	var p [4]string
	for i, name := range [...]string{"q", "collection", "limit", "offset"} {
		s, err := web.QueryParam(v, name)
		if err != nil {
			return err
		}
		p[i] = s
	}
	q, handle := p[0], p[1]
	switch {
	case q == "":
		return web.BadRequest("q is required: the words to search for")
	case len(q) > maxSearchQuery:
		return web.BadRequest("q is longer than %d bytes", maxSearchQuery)
	case !utf8.ValidString(q):
		return web.BadRequest("q is not valid UTF-8")
	}
	limit, offset := defaultSearchLimit, 0
	var err error
	if p[2] != "" {
		if limit, err = query.ParseLimit(p[2]); err != nil || limit > maxSearchLimit {
			return web.BadRequest("limit must be a whole number from 1 to %d, got %q", maxSearchLimit, content.Shorten(p[2]))
		}
	}
	if p[3] != "" {
		if offset, err = query.ParseOffset(p[3]); err != nil || offset > maxSearchOffset {
			return web.BadRequest("offset must be a whole number from 0 to %d, got %q", maxSearchOffset, content.Shorten(p[3]))
		}
	}
	var colls []*content.Collection
	if handle != "" {
		r.SetPathValue("collection", handle)
		c, err := a.collection(r)
		if err != nil {
			return err
		}
		colls = []*content.Collection{c}
	} else {
		colls = a.Search.Collections()
	}
	var version uint64
	for _, c := range colls {
		version = max(version, a.Store.CollectionVersion(c.Handle))
	}
	st := a.requestSite(r)
	key := "search?" + r.URL.RawQuery
	if b := linkForm(st); b != "" { // the hits' url carries the base path and policy
		key = b + "\x00" + key
	}
	if body, etag, ok := a.lists.get(key, version); ok {
		return a.write(w, r, etag, body)
	}
	type found struct {
		c *content.Collection
		h search.Result
	}
	var all []found
	total := 0
	for _, c := range colls {
		hits, n, err := a.Search.Search(c.Handle, search.Query{Text: q, PublicOnly: true, Limit: offset + limit})
		if err != nil {
			return err
		}
		total += n
		for _, h := range hits {
			all = append(all, found{c, h})
		}
	}
	// Merge the collections' pages by score (then collection and slug, so pages are stable).
	slices.SortStableFunc(all, func(x, y found) int {
		switch {
		case x.h.Score > y.h.Score:
			return -1
		case x.h.Score < y.h.Score:
			return 1
		}
		if x.c.Handle != y.c.Handle {
			return cmpString(x.c.Handle, y.c.Handle)
		}
		return cmpString(x.h.Entry.Slug, y.h.Entry.Slug)
	})
	all = query.Page(all, offset, limit)
	out := make([]searchHit, len(all))
	for i, f := range all {
		e := f.h.Entry
		out[i] = searchHit{Collection: f.c.Handle, Slug: e.Slug, Title: e.Title, URL: entryLink(st, f.c, e),
			Score: round3(f.h.Score), Snippet: search.Snippet(f.h.Text, q)}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(struct {
		Data []searchHit `json:"data"`
		Meta searchMeta  `json:"meta"`
	}{out, searchMeta{Q: q, Total: total, Offset: offset, Limit: limit}}); err != nil {
		return err
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	etag := etagOf(body)
	a.lists.put(key, len(key), version, body, etag)
	return a.write(w, r, etag, body)
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func round3(f float64) float64 {
	return float64(int64(f*1000+0.5)) / 1000
}
