package publicentries

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"net/http"
	"slices"
	"strconv"

	"cms/content"
	"cms/content/query"
	"cms/content/seo"
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
	if a.sites != nil {
		// The site is chosen by Host alone; the API's path is the same on every site.
		if st := a.sites.ForHost(r.Host); !c.OnSite(st.Handle) {
			return nil, web.NotFound("Collection %q not found", h)
		}
	}
	return c, nil
}

// GET /api/public/entries/{collection}/{slug} (under public.basePath): one published entry,
// with its resolved SEO metadata under data.seo when the group has a resolver.
func (a *api) get(w http.ResponseWriter, r *http.Request) error {
	if r.URL.RawQuery != "" && r.URL.Query().Has("preview") {
		return a.previewEntry(w, r) // preview.go: a draft for a signed token, never cached
	}
	c, err := a.collection(r)
	if err != nil {
		return err
	}
	slug := r.PathValue("slug")
	if !content.ValidHandle(slug) {
		return web.BadRequest("Invalid entry identifier %q", slug)
	}
	meta, err := a.Store.EntryMeta(c.Handle, slug)
	if err != nil || !meta.Published() {
		if err == nil || content.IsNotFound(err) {
			return web.NotFound("Entry not found")
		}
		return err
	}
	v := a.view(r)
	key, keyLen := v.key(c, slug)
	ref := entryRef{meta, v.defs}
	if it, ok := a.entries.get(key, ref); ok {
		if err := a.writeCached(w, r, it, v.hasSEO); err == nil {
			return nil
		}
	}
	tags, body, err := a.encodeAndCache(c, meta, v, key, keyLen, ref)
	if err != nil {
		if content.IsNotFound(err) {
			return web.NotFound("Entry not found")
		}
		return err
	}
	if !v.hasSEO { // the cached encoding is the item: the response is {"data": item}
		return a.write(w, r, tags.etag, dataOpen, body, dataClose)
	}
	return a.write(w, r, tags.etag, body)
}

// writeCached answers a single GET from its cached encoding (it): the cached bytes themselves
// when they are kept as they are, else expanded into a pooled buffer. whole says the encoding
// is the whole response (with its SEO object), else the item the response wraps. An error
// (a corrupt cached body) means nothing was written.
func (a *api) writeCached(w http.ResponseWriter, r *http.Request, it packedEntry, whole bool) error {
	body, ok := it.body.Raw()
	if !ok {
		bp := a.buf()
		defer a.release(bp)
		var err error
		if body, err = it.body.AppendTo(*bp); err != nil {
			return err
		}
		*bp = body
	}
	if whole {
		return a.write(w, r, it.etag, body)
	}
	return a.write(w, r, it.itemTag, dataOpen, body, dataClose)
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
	if cap(*bp) <= maxPooledBuf {
		a.bufs.Put(bp)
	}
}

// Constant pieces of a single entry's response, written around the cached fragments.
var (
	dataOpen  = []byte(`{"data":`)
	dataClose = []byte(`}`)
	seoOpen   = []byte(`,"seo":`)
	seoClose  = []byte(`}}`)
)

// crc36 is the CRC-32C of b in base 36: a cheap checksum of an encoded response part for ETags.
func crc36(b []byte) string {
	return strconv.FormatUint(uint64(crc32.Checksum(b, castagnoli)), 36)
}

// view is what of a request shapes an entry's encoding: the site its links are for (st, and
// its link form: the base path and the trailing-slash policy) and, with an SEO resolver, the
// site whose SEO object a single entry's response carries.
type view struct {
	st     content.Site
	form   string
	seo    content.Site
	hasSEO bool   // false: no SEO object
	defs   uint64 // the definitions' generation, read once per request rather than per item
}

func (a *api) view(r *http.Request) view {
	st := a.requestSite(r)
	v := view{st: st, form: linkForm(st), defs: a.Store.DefinitionsGeneration()}
	if a.SEO != nil {
		v.seo, v.hasSEO = a.Site(r), true
	}
	return v
}

func (v view) key(c *content.Collection, slug string) (entryKey, int) {
	k := entryKey{collection: c.Handle, slug: slug, form: v.form}
	if v.hasSEO {
		k.site, k.seo = v.seo.Handle, true
	}
	return k, len(k.collection) + len(k.slug) + len(k.form) + len(k.site)
}

// appendItem appends one entry's encoding as a list item (the response's data member) to dst
// and returns its ETag (the file's hash and the encoding's checksum). On an error dst is
// returned as it was.
//
// An entry is encoded (its body read and rendered) once per file hash and definitions, and
// cached once per view, as what a single GET answers: with an SEO resolver, the whole response
// with its SEO object, whose leading part is the item (the SEO object is its last member). So a
// list and a single GET share one cached value and the work, and an unchanged entry is never
// rendered twice.
func (a *api) appendItem(dst []byte, c *content.Collection, meta *content.Entry, v view) ([]byte, string, error) {
	key, keyLen := v.key(c, meta.Slug)
	ref := entryRef{meta, v.defs}
	if it, ok := a.entries.get(key, ref); ok {
		if out, err := it.appendItem(dst); err == nil {
			return out, it.itemTag, nil
		}
	}
	it, body, err := a.encodeAndCache(c, meta, v, key, keyLen, ref)
	if err != nil {
		return dst, "", err
	}
	lo, hi := it.itemRange(len(body))
	out := append(dst, body[lo:hi]...)
	if it.item > 0 { // a whole response: {"data": + the item's members + ,"seo":...}}
		out = append(out, '}')
	}
	return out, it.itemTag, nil
}

// encodeAndCache encodes meta for v (encode) and caches the encoding under key, on a miss.
func (a *api) encodeAndCache(c *content.Collection, meta *content.Entry, v view, key entryKey, keyLen int, ref entryRef) (entryTags, []byte, error) {
	it, body, err := a.encode(c, meta, v)
	if err == nil {
		a.entries.put(key, keyLen, ref, body, it)
	}
	return it, body, err
}

// encode reads, renders and encodes an entry for v: what a single GET answers with an SEO
// resolver (and appendItem takes the item from), else the item.
func (a *api) encode(c *content.Collection, meta *content.Entry, v view) (entryTags, []byte, error) {
	e, html, err := a.body(c, meta)
	if err != nil {
		return entryTags{}, nil, err
	}
	pe := publicEntry{Title: e.Title, Slug: e.Slug, Status: e.Status, Author: e.Author, Collection: e.Collection,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, URL: entryLink(v.st, c, e), Content: e.Content, HTML: html, Data: e.Data}
	if pe.Data == nil {
		pe.Data = content.NewMap(0)
	}
	frag, err := marshal(pe)
	if err != nil {
		return entryTags{}, nil, err
	}
	// The ETag is the file's Version and the encoding's CRC-32C (computed once, on this miss):
	// the same in every process serving the same files, and another whenever the definitions (a
	// route, the site's base path or slash policy) change what is encoded. A process-local
	// counter here could tag a changed url alike after a restart.
	tag := `"` + e.Version + "-" + crc36(frag) + `"`
	if !v.hasSEO {
		return entryTags{etag: tag, itemTag: tag}, frag, nil
	}
	site := v.seo
	m := a.SEO.Resolve(seo.Subject{Site: site, Kind: "entry", Section: c.Handle, Path: content.EntryURL(c, meta),
		Title: meta.Title, Slug: meta.Slug, CreatedAt: meta.CreatedAt, UpdatedAt: meta.UpdatedAt, Data: meta.Data})
	obj, err := marshal(m.Object())
	if err != nil {
		return entryTags{}, nil, err
	}
	// The item is an object: its members, then ,"seo":{...} before its closing brace.
	body := make([]byte, 0, len(dataOpen)+len(frag)-1+len(seoOpen)+len(obj)+len(seoClose))
	body = append(append(append(append(append(body, dataOpen...), frag[:len(frag)-1]...), seoOpen...), obj...), seoClose...)
	return entryTags{etag: tag[:len(tag)-1] + "-" + crc36(obj) + "-" + site.Handle + `"`, itemTag: tag, item: len(frag) - 1}, body, nil
}

// marshal encodes v as JSON without escaping every <, > and &: an entry's html is mostly markup,
// which json.Marshal would send as \u003c and \u003e, some 15 % more bytes on the wire and in
// the cache. Only what could end or confuse an HTML script element is still escaped (<script,
// </script and <!--, any case), so a frontend that inlines a response in a <script> stays safe.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeScript(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// escapeScript replaces the < of "<script", "</script" and "<!--" (any case) with \u003c. In
// JSON a < can only be inside a string, where \u003c means the same.
func escapeScript(js []byte) []byte {
	i := bytes.IndexByte(js, '<')
	if i < 0 {
		return js
	}
	var out []byte
	last := 0
	for ; i >= 0; i = nextLT(js, i+1) {
		rest := js[i+1:]
		if !hasFoldPrefix(rest, "script") && !hasFoldPrefix(rest, "/script") && !bytes.HasPrefix(rest, []byte("!--")) {
			continue
		}
		out = append(append(out, js[last:i]...), `\u003c`...)
		last = i + 1
	}
	if out == nil {
		return js
	}
	return append(out, js[last:]...)
}

func nextLT(b []byte, from int) int {
	if j := bytes.IndexByte(b[from:], '<'); j >= 0 {
		return from + j
	}
	return -1
}

func hasFoldPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}

// requestSite is the site the request's Host names (the zero Site, whose links are plain
// paths, without configured sites).
func (a *api) requestSite(r *http.Request) content.Site {
	if a.sites == nil {
		return content.Site{}
	}
	return a.sites.ForHost(r.Host)
}

// linkForm is what of a site its entries' links depend on, for cache keys: the base path, and
// whether page links end in a slash.
func linkForm(st content.Site) string {
	if st.PagePath("/x") != "/x" {
		return st.BasePath() + "\x00/"
	}
	return st.BasePath()
}

// entryLink is an entry's public URL on a site: its path with a sub-path site's base, "" when
// its collection has no route.
func entryLink(st content.Site, c *content.Collection, e *content.Entry) string {
	u := content.EntryURL(c, e)
	if u == "" {
		return ""
	}
	return st.PageLink(u)
}

// body returns an entry with its body and rendered HTML: from the bodies the website keeps
// when the index's file Version matches, else read from its file and rendered. What it renders is
// not added to them: this API keeps the whole entry's encoding, and packing the body as well
// (deflating it) cost a tenth of an uncached list at 100,000 entries for a copy only a page of
// the website might read.
func (a *api) body(c *content.Collection, meta *content.Entry) (*content.Entry, string, error) {
	if b, ok := a.Bodies.Get(c.Handle, meta.Slug, meta.Version); ok {
		e := *meta
		e.Content = b.Content
		return &e, b.HTML, nil
	}
	e, err := a.Store.Entry(c.Handle, meta.Slug)
	if err != nil {
		return nil, "", err
	}
	html, err := a.Markdown.Render(e.Content)
	return e, html, err
}

// entryVersion folds a file's Version and the definitions generation into a cache version. A
// Version (what the store gives: two CRC-32s in 16 hex digits) is already uniform: its 64 bits
// are the version, read in a quarter of the time an FNV-1a of the digits takes (a list looks up
// ten entries). Anything else is hashed.
func entryVersion(version string, defs uint64) uint64 {
	h, err := strconv.ParseUint(version, 16, 64)
	if err != nil || len(version) != content.VersionLen {
		// FNV-1a, inline: hash.Hash's Write would copy the string on every lookup.
		h = 14695981039346656037
		for i := 0; i < len(version); i++ {
			h = (h ^ uint64(version[i])) * 1099511628211
		}
	}
	return h ^ (defs * 0x9E3779B97F4A7C15)
}

// GET /api/public/entries/{collection} (under public.basePath): a page of published entries.
func (a *api) list(w http.ResponseWriter, r *http.Request) error {
	c, err := a.collection(r)
	if err != nil {
		return err
	}
	version := a.Store.CollectionVersion(c.Handle)
	st := a.requestSite(r)
	key := c.Handle + "?" + r.URL.RawQuery
	if b := linkForm(st); b != "" { // the items' url carries the base path and policy
		key = b + "\x00" + key
	}
	if body, etag, ok := a.lists.get(key, version); ok {
		return a.write(w, r, etag, body)
	}
	q, err := a.parseQuery(r, c)
	if err != nil {
		return err
	}
	entries, total, err := a.Store.Entries(c.Handle, q)
	if err != nil {
		return err
	}
	// The items' encodings are appended to the response as they come. Its ETag is not a
	// hash of the body (tens of kilobytes when the items carry their html): it is a SHA-256 of
	// the query, each item's file hash and the CRC-32C of its encoding, and the meta. The hashes
	// tell edits apart for certain; the checksums, computed once when an item is encoded (a
	// projection's here, it is small), cover what else shapes the bytes (urls from the
	// definitions, rendering) without relying on this process's generation counters, so the tag
	// is the same from every process serving the same content.
	v := a.view(r)
	bp := a.buf()
	defer a.release(bp)
	body := append(*bp, `{"data":[`...)
	ids := make([]byte, 0, len(key)+len(entries)*72+64)
	ids = append(ids, key...)
	n := 0
	for _, e := range entries {
		at := len(body)
		if n > 0 {
			body = append(body, ',')
		}
		var tag string // the item's version and checksum
		if q.Fields != nil {
			var frag []byte
			frag, err = a.projected(c, e, q.Fields, st)
			if err == nil {
				tag = e.Version + "-" + crc36(frag)
				body = append(body, frag...)
			}
		} else {
			body, tag, err = a.appendItem(body, c, e, v)
		}
		if err != nil {
			if content.IsNotFound(err) {
				body = body[:at]
				continue // deleted between index and read; the next version drops it
			}
			return err
		}
		n++
		ids = append(append(ids, 0), tag...)
	}
	meta := `],"meta":{"total":` + strconv.Itoa(total) + `,"offset":` + strconv.Itoa(q.Offset) + `,"limit":` + strconv.Itoa(q.Limit) + `}}`
	ids = append(append(ids, 0), meta...)
	body = append(body, meta...)
	*bp = body
	sum := sha256.Sum256(ids)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	// Only a query asked before is cached: most of the distinct queries a client pages through
	// are asked once, and caching each would only push out the ones asked again.
	if a.lists.lru.Enabled() && a.seen.again(key, admitWindow(a.lists.lru.Len())) {
		a.lists.put(key, len(key), version, body, etag)
	}
	return a.write(w, r, etag, body)
}

// admitWindow is the doorkeeper's window for a list cache holding n pages: eight times its
// turnover, and at least 256 requests, so a page asked twice in a short while is admitted.
func admitWindow(n int) int64 { return max(256, 8*int64(n)) }

// maxPooledBuf bounds the response buffers kept for reuse.
const maxPooledBuf = 1 << 20

// castagnoli is the CRC-32C table (computed in hardware where the CPU can) of list ETags.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// wireFields are the attributes of publicEntry a projection may name besides the entry's fields.
var wireFields = []string{"url", "content", "html"}

// parseQuery reads the list parameters ([web.ListQuery]) and refuses fields c's entries cannot
// hold. Whatever status the client asks for, by parameter or filter, only published entries are
// listed.
func (a *api) parseQuery(r *http.Request, c *content.Collection) (query.Query, error) {
	q, err := web.ListQuery(r)
	if err != nil {
		return q, err
	}
	bp, err := a.Store.Blueprint(content.BlueprintCollections, c.Blueprint)
	if err != nil && !content.IsNotFound(err) {
		return q, err
	}
	if err := web.CheckListFields(&q, c, bp, wireFields...); err != nil {
		return q, err
	}
	delete(q.Filter, "status") // only published entries are public; asking for drafts changes nothing
	q.Status = content.StatusPublished
	return q, nil
}

// projected encodes the named fields of an entry: attributes at the top level, in the order
// asked, and custom fields under data, as in the full shape. Only content and html read the
// file; everything else comes from the index entry meta.
func (a *api) projected(c *content.Collection, meta *content.Entry, fields []string, st content.Site) ([]byte, error) {
	e := meta
	html := ""
	if slices.Contains(fields, "content") || slices.Contains(fields, "html") {
		full, h, err := a.body(c, meta)
		if err != nil {
			return nil, err
		}
		e, html = full, h
	}
	return web.ProjectEntry(e, fields, func(name string) (any, bool) {
		switch name {
		case "url":
			return entryLink(st, c, e), true
		case "content":
			return e.Content, true
		case "html":
			return html, true
		}
		return nil, false
	})
}

// etagOf is a strong ETag of body: 96 bits of its SHA-256.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// write sends a 200 JSON body made of parts written one after the other (so cached fragments
// are neither copied nor joined), or a 304 when the client already has this ETag. It runs on
// every cached read: the headers share one backing array and nothing is allocated.
func (a *api) write(w http.ResponseWriter, r *http.Request, etag string, parts ...[]byte) error {
	h := w.Header()
	vals := [4]string{etag, cacheControl, "", "application/json; charset=utf-8"}
	h["Etag"] = vals[0:1:1]
	h["Cache-Control"] = vals[1:2:2]
	if web.NoneMatch(r, etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	vals[2] = strconv.Itoa(n)
	h["Content-Length"] = vals[2:3:3]
	h["Content-Type"] = vals[3:4:4]
	_ = web.SendBody(w, r, http.StatusOK, parts...) // an error: the client went away
	return nil
}
