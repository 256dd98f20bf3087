package entries

import (
	"cms/content/packed"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"unicode/utf8"

	"cms/content"
	"cms/content/access"
	"cms/content/query"
	"cms/content/search"
	"cms/handlers/web"
)

// entryJSON is the wire shape of an entry in the CP API: metadata at the top, custom fields
// under data, and the hash of the file it was read from.
type entryJSON struct {
	Title       string       `json:"title"`
	Slug        string       `json:"slug"`
	Status      string       `json:"status"`
	Author      string       `json:"author,omitempty"`
	Collection  string       `json:"collection"`
	CreatedAt   string       `json:"createdAt"`
	UpdatedAt   string       `json:"updatedAt"`
	URL         string       `json:"url"`
	Content     string       `json:"content"`
	Data        *content.Map `json:"data"`
	ContentHash string       `json:"contentHash,omitempty"`
}

func encodeEntry(c *content.Collection, e *content.Entry) ([]byte, error) {
	v := entryJSON{Title: e.Title, Slug: e.Slug, Status: e.Status, Author: e.Author, Collection: c.Handle,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, URL: content.EntryURL(c, e), Content: e.Content,
		Data: e.Data, ContentHash: e.Hash}
	if v.Data == nil {
		v.Data = content.NewMap(0)
	}
	return json.Marshal(v)
}

// begin authenticates the request and checks entries:<action> on the path's collection before
// anything is read, then resolves the collection.
func (a *api) begin(r *http.Request, action string) (*access.Principal, *content.Collection, error) {
	h := r.PathValue("collection")
	p, err := web.Require(a.Auth, r, "entries", action, h)
	if err != nil {
		return nil, nil, err
	}
	if !content.ValidHandle(h) {
		return nil, nil, web.BadRequest("Invalid collection handle %q: use letters, digits, '-' and '_'", content.Shorten(h))
	}
	c, err := a.Store.Collection(h)
	if err != nil {
		return nil, nil, err
	}
	return p, c, nil
}

// beginRead is begin for the reads. They show entries of every status, so they also check the
// rule for drafts that GraphQL applies (access.SeesDrafts): one rule, in one place, for both.
func (a *api) beginRead(r *http.Request) (*access.Principal, *content.Collection, error) {
	p, c, err := a.begin(r, "view")
	if err != nil {
		return nil, nil, err
	}
	if !p.SeesDrafts(c.Handle) {
		return nil, nil, &content.Error{Kind: content.Forbidden, Op: "entries.read",
			Message: "Drafts of " + strconv.Quote(c.Handle) + " are visible only to users who may view its entries"}
	}
	return p, c, nil
}

// pathSlug returns the slug of the path, or a 400 when it is not a plain identifier.
func pathSlug(r *http.Request) (string, error) {
	s := r.PathValue("slug")
	if !content.ValidHandle(s) {
		return "", web.BadRequest("Invalid entry slug %q: use letters, digits, '-' and '_'", content.Shorten(s))
	}
	return s, nil
}

// appendFragment appends the encoded entry for meta (an index entry) to dst and returns the
// SHA-256 of the file it was encoded from, reading the file only when the cache has no body for
// meta's Version. On an error dst is returned as it was.
func (a *api) appendFragment(dst []byte, c *content.Collection, meta *content.Entry) ([]byte, string, error) {
	key := fragKey(c.Handle, meta.Slug)
	if f, ok := a.cache.GetValid(key, func(f fragment) bool { return f.version == meta.Version && f.route == c.Route }); ok {
		if out, err := f.body.AppendTo(dst); err == nil {
			return out, f.hash, nil
		}
	}
	e, err := a.Store.Entry(c.Handle, meta.Slug)
	if err != nil {
		return dst, "", err
	}
	body, hash, err := a.remember(c, e)
	if err != nil {
		return dst, "", err
	}
	return append(dst, body...), hash, nil
}

// remember encodes an entry just read or written and caches it under its Version.
func (a *api) remember(c *content.Collection, e *content.Entry) ([]byte, string, error) {
	body, err := encodeEntry(c, e)
	if err != nil {
		return nil, "", err
	}
	key := fragKey(c.Handle, e.Slug)
	f := fragment{version: e.Version, hash: e.Hash, route: c.Route, body: packed.Raw(body), keyLen: len(key)}
	a.cache.Put(key, f, f.cost())
	return body, e.Hash, nil
}

// buf returns a buffer to build a response in; release gives it back.
func (a *api) buf() *[]byte {
	if bp, _ := a.bufs.Get().(*[]byte); bp != nil {
		*bp = (*bp)[:0]
		return bp
	}
	return new([]byte)
}

func (a *api) release(bp *[]byte) {
	if cap(*bp) <= 1<<20 {
		a.bufs.Put(bp)
	}
}

type listMeta struct {
	Total  int `json:"total"`
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}

// GET /api/entries/{collection}: a page of entries of every status.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	_, c, err := a.beginRead(r)
	if err != nil {
		return err
	}
	q, err := a.parseListQuery(r, c)
	if err != nil {
		return err
	}
	var metas []*content.Entry
	var total int
	text, err := web.QueryParam(r.URL.Query(), "q")
	if err != nil {
		return err
	}
	if text != "" {
		metas, total, err = a.search(c, q, text)
	} else {
		metas, total, err = a.Store.Entries(c.Handle, q)
	}
	if err != nil {
		return err
	}
	bp := a.buf()
	defer a.release(bp)
	body := append(*bp, `{"data":[`...)
	n := 0
	for _, m := range metas {
		at := len(body)
		if n > 0 {
			body = append(body, ',')
		}
		if q.Fields != nil {
			var frag []byte
			if frag, err = a.projected(c, m, q.Fields); err == nil {
				body = append(body, frag...)
			}
		} else {
			body, _, err = a.appendFragment(body, c, m)
		}
		if err != nil {
			if content.IsNotFound(err) {
				body = body[:at]
				total-- // deleted since the index was read
				continue
			}
			return err
		}
		n++
	}
	body = append(body, `],"meta":`...)
	meta, err := json.Marshal(listMeta{Total: total, Offset: q.Offset, Limit: q.Limit})
	if err != nil {
		return err
	}
	body = append(append(body, meta...), '}')
	*bp = body
	w.Header().Set("Cache-Control", "private, no-cache")
	web.WriteJSONBytes(w, http.StatusOK, body)
	return nil
}

// parseListQuery reads the list parameters every entry list takes ([web.ListQuery]) and status,
// and refuses fields c's entries cannot hold. Anything malformed is a 400 that says what was
// wrong; unknown parameters are ignored.
func (a *api) parseListQuery(r *http.Request, c *content.Collection) (query.Query, error) {
	q, err := web.ListQuery(r)
	if err != nil {
		return q, err
	}
	bp, err := a.Store.Blueprint(content.BlueprintCollections, c.Blueprint)
	if err != nil && !content.IsNotFound(err) {
		return q, err
	}
	if err := web.CheckListFields(&q, c, bp, "url", "content", "contentHash"); err != nil {
		return q, err
	}
	switch s, err := web.QueryParam(r.URL.Query(), "status"); {
	case err != nil:
		return q, err
	case s == "", s == content.StatusPublished, s == content.StatusDraft:
		q.Status = s
	default:
		return q, web.BadRequest("status must be published or draft, got %q", content.Shorten(s))
	}
	return q, nil
}

// maxSearchQuery bounds q in bytes.
const maxSearchQuery = 200

// search answers a list with q: the full-text index (drafts included), best first. It pages
// and filters by status; filter and sort would have to apply to every match, so they are refused.
func (a *api) search(c *content.Collection, q query.Query, text string) ([]*content.Entry, int, error) {
	switch {
	case len(text) > maxSearchQuery:
		return nil, 0, web.BadRequest("q is longer than %d bytes", maxSearchQuery)
	case !utf8.ValidString(text):
		return nil, 0, web.BadRequest("q is not valid UTF-8")
	case q.Filter != nil || q.Sort != nil:
		return nil, 0, web.BadRequest("q orders by relevance and cannot be combined with filter or sort")
	}
	sq := search.Query{Text: text, Offset: q.Offset, Limit: q.Limit}
	switch q.Status {
	case content.StatusPublished:
		sq.PublicOnly = true
	case content.StatusDraft:
		sq.DraftOnly = true
	}
	hits, total, err := a.Store.Search(c.Handle, sq)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*content.Entry, len(hits))
	for i, h := range hits {
		out[i] = h.Entry
	}
	return out, total, nil
}

// projected encodes the fields of an entry a projection names (web.ProjectEntry); only content
// and contentHash (which the index does not keep) read the file.
func (a *api) projected(c *content.Collection, meta *content.Entry, fields []string) ([]byte, error) {
	e := meta
	if slices.Contains(fields, "content") || slices.Contains(fields, "contentHash") {
		full, err := a.Store.Entry(c.Handle, meta.Slug)
		if err != nil {
			return nil, err
		}
		e = full
	}
	return web.ProjectEntry(e, fields, func(name string) (any, bool) {
		switch name {
		case "url":
			return content.EntryURL(c, e), true
		case "content":
			return e.Content, true
		case "contentHash":
			return e.Hash, true
		}
		return nil, false
	})
}

// GET /api/entries/{collection}/{slug}: one entry with its contentHash (also the ETag).
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	_, c, err := a.beginRead(r)
	if err != nil {
		return err
	}
	slug, err := pathSlug(r)
	if err != nil {
		return err
	}
	meta, err := a.Store.EntryMeta(c.Handle, slug)
	if err != nil {
		return err
	}
	bp := a.buf()
	defer a.release(bp)
	body, hash, err := a.appendFragment(*bp, c, meta)
	*bp = body
	if err != nil {
		return err
	}
	etag := `"` + hash + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, no-cache")
	if web.NoneMatch(r, etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	writeData(w, r, http.StatusOK, body)
	return nil
}

// writeData writes {"data":<body>} where body is already encoded JSON, in pieces rather than
// copying a cached body into a new buffer.
func writeData(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)+len(`{"data":}`)))
	_ = web.SendBody(w, r, status, dataOpen, body, dataClose) // an error: the client went away
}

// The envelope around a cached entry's encoding.
var (
	dataOpen  = []byte(`{"data":`)
	dataClose = []byte(`}`)
)
