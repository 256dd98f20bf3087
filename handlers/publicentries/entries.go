package publicentries

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"

	"cms/content"
	"cms/content/query"
	"cms/handlers/web"
)

const cacheControl = "public, max-age=0, s-maxage=60, stale-while-revalidate=300"

// publicEntry is the wire shape of an entry: metadata at the top, custom fields under data.
type publicEntry struct {
	Title      string       `json:"title"`
	Slug       string       `json:"slug"`
	Status     string       `json:"status"`
	Author     string       `json:"author,omitempty"`
	Collection string       `json:"collection"`
	CreatedAt  string       `json:"createdAt"`
	UpdatedAt  string       `json:"updatedAt"`
	URL        string       `json:"url"`
	Content    string       `json:"content"`
	HTML       string       `json:"html"`
	Data       *content.Map `json:"data"`
}

func (a *api) collection(r *http.Request) (*content.Collection, error) {
	h := r.PathValue("collection")
	if !content.ValidHandle(h) {
		return nil, web.BadRequest("Invalid collection identifier %q", h)
	}
	c, err := a.Store.Collection(h)
	if err != nil {
		if content.IsNotFound(err) {
			return nil, web.NotFound("Collection %q not found", h)
		}
		return nil, err
	}
	return c, nil
}

func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	c, err := a.collection(r)
	if err != nil {
		return err
	}
	slug := r.PathValue("slug")
	if !content.ValidHandle(slug) {
		return web.BadRequest("Invalid entry identifier %q", slug)
	}
	key := "e\x00" + c.Handle + "\x00" + slug
	version := a.Store.CollectionVersion(c.Handle)
	if body, etag, ok := a.cache.get(key, version); ok {
		return a.write(w, r, body, etag)
	}
	meta, err := a.Store.EntryMeta(c.Handle, slug)
	if err != nil || !meta.Published() {
		if err == nil || content.IsNotFound(err) {
			return web.NotFound("Entry not found")
		}
		return err
	}
	frag, err := a.entryJSON(c, meta, version)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.Grow(len(frag) + 10)
	buf.WriteString(`{"data":`)
	buf.Write(frag)
	buf.WriteByte('}')
	body := buf.Bytes()
	etag := etagOf(body)
	a.cache.put(key, version, body, etag)
	return a.write(w, r, body, etag)
}

// entryJSON encodes one entry (reading its body). Fragments are cached by content hash, so a
// list and a single GET share the work and an unchanged entry is never rendered twice.
func (a *api) entryJSON(c *content.Collection, meta *content.Entry, version uint64) ([]byte, error) {
	key := "f\x00" + c.Handle + "\x00" + meta.Slug + "\x00" + meta.Hash
	if frag, _, ok := a.cache.get(key, version); ok {
		return frag, nil
	}
	e, err := a.Store.Entry(c.Handle, meta.Slug)
	if err != nil {
		return nil, err
	}
	html, err := a.Markdown.Render(e.Content)
	if err != nil {
		return nil, err
	}
	pe := publicEntry{Title: e.Title, Slug: e.Slug, Status: e.Status, Author: e.Author, Collection: e.Collection,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, URL: content.EntryURL(c, e), Content: e.Content, HTML: html, Data: e.Data}
	if pe.Data == nil {
		pe.Data = content.NewMap(0)
	}
	frag, err := json.Marshal(pe)
	if err != nil {
		return nil, err
	}
	a.cache.put(key, version, frag, "")
	return frag, nil
}

type listMeta struct {
	Total  int `json:"total"`
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}

func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	c, err := a.collection(r)
	if err != nil {
		return err
	}
	version := a.Store.CollectionVersion(c.Handle)
	key := "l\x00" + c.Handle + "\x00" + r.URL.RawQuery
	if body, etag, ok := a.cache.get(key, version); ok {
		return a.write(w, r, body, etag)
	}
	q, err := parseQuery(r)
	if err != nil {
		return err
	}
	q.Status = content.StatusPublished // whatever the client asked
	entries, total, err := a.Store.Entries(c.Handle, q)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString(`{"data":[`)
	for i, e := range entries {
		if i > 0 {
			buf.WriteByte(',')
		}
		frag, err := a.entryJSON(c, e, version)
		if err != nil {
			if content.IsNotFound(err) {
				continue // deleted between index and read; the next version drops it
			}
			return err
		}
		buf.Write(frag)
	}
	buf.WriteString(`],"meta":`)
	m, _ := json.Marshal(listMeta{Total: total, Offset: q.Offset, Limit: q.Limit})
	buf.Write(m)
	buf.WriteByte('}')
	body := buf.Bytes()
	etag := etagOf(body)
	a.cache.put(key, version, body, etag)
	return a.write(w, r, body, etag)
}

func parseQuery(r *http.Request) (query.Query, error) {
	v := r.URL.Query()
	var q query.Query
	var err error
	for _, name := range []string{"limit", "offset", "sort", "filter"} {
		if len(v[name]) > 1 {
			return q, web.BadRequest("%s may be given only once", name)
		}
	}
	if q.Limit, err = query.ParseCount("limit", v.Get("limit"), DefaultLimit, 1<<30); err != nil {
		return q, web.BadRequest("%v", err)
	}
	if q.Limit > MaxLimit {
		return q, web.BadRequest("limit must be at most %d, got %d", MaxLimit, q.Limit)
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Offset, err = query.ParseCount("offset", v.Get("offset"), 0, query.MaxOffset); err != nil {
		return q, web.BadRequest("%v", err)
	}
	if q.Sort, err = query.ParseSort(v.Get("sort")); err != nil {
		return q, web.BadRequest("%v", err)
	}
	if q.Filter, err = query.ParseFilter(v.Get("filter")); err != nil {
		return q, web.BadRequest("%v", err)
	}
	delete(q.Filter, "status") // only published entries are public; asking for drafts changes nothing
	return q, nil
}

func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

func (a *api) write(w http.ResponseWriter, r *http.Request, body []byte, etag string) error {
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", cacheControl)
	h.Set("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatch(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	web.WriteJSONBytes(w, http.StatusOK, body)
	return nil
}

func etagMatch(header, etag string) bool {
	for _, part := range bytes.Split([]byte(header), []byte(",")) {
		p := string(bytes.TrimSpace(part))
		p = trimWeak(p)
		if p == "*" || p == etag {
			return true
		}
	}
	return false
}

func trimWeak(s string) string {
	if len(s) > 2 && s[:2] == "W/" {
		return s[2:]
	}
	return s
}
