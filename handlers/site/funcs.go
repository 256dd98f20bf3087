package site

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"cms/content"
	"cms/content/markdown"
	"cms/content/richtext"
	"cms/handlers/web"
)

// Lists a template asks for are bounded: a page never renders a whole large collection.
const (
	maxListLimit = 100
	maxPerPage   = 100
)

// EntryView is a published entry as templates see it: no author (a user id), no hash.
type EntryView struct {
	Title      string
	Slug       string
	Collection string
	URL        string // the entry's link on the site (with a sub-path site's base)
	CreatedAt  string
	UpdatedAt  string
	Data       map[string]any // custom front matter fields
	Content    string         // the Markdown body
	HTML       template.HTML  // the rendered body; on the page's own entry and from `entry`
}

// TermView is a public term as templates see it.
type TermView struct {
	Title       string
	Slug        string
	Taxonomy    string
	Description string
	URL         string
	Data        map[string]any
}

// NavLink is one navigation item with its URL resolved.
type NavLink struct {
	Label    string
	URL      string // "" for a heading without a link (or a reference to an unpublished entry)
	External bool
	Children []NavLink
}

// Pagination is one page of a list.
type Pagination struct {
	Items   []*EntryView
	Number  int // this page, from 1
	Pages   int // at least 1
	Total   int
	PerPage int
	PrevURL string // "" on the first page
	NextURL string // "" on the last page
}

// entryView is an entry as templates see it; body, when given, is its Markdown and HTML.
func (s *site) entryView(st content.Site, c *content.Collection, e *content.Entry, body *markdown.Body) *EntryView {
	v := &EntryView{Title: e.Title, Slug: e.Slug, Collection: e.Collection, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
		Data: e.Data.Plain(), Content: e.Content}
	if u := content.EntryURL(c, e); u != "" {
		v.URL = st.PageLink(u)
	}
	if body != nil {
		v.Content = body.Content
		v.HTML = template.HTML(body.HTML) // the renderer escapes raw HTML unless markdown.allowHtml
	}
	return v
}

// readEntry returns the entry of an index record with its rendered body when it may be shown
// (published, or a draft when draft is set), else nil. A kept body of the same file Version spares
// reading and rendering the file; otherwise it is read, and its body rendered and kept.
func (s *site) readEntry(c *content.Collection, meta *content.Entry, draft bool) (*content.Entry, *markdown.Body) {
	if !(draft || meta.Published()) {
		return nil, nil
	}
	if b, ok := s.Bodies.Get(c.Handle, meta.Slug, meta.Version); ok {
		return meta, &b
	}
	e, err := s.Store.Entry(c.Handle, meta.Slug)
	if err != nil || !(draft || e.Published()) {
		return nil, nil
	}
	b, err := s.Bodies.Render(e)
	if err != nil {
		return e, &markdown.Body{Content: e.Content}
	}
	return e, &b
}

func (s *site) termView(st content.Site, tax *content.Taxonomy, t *content.Term) *TermView {
	return &TermView{Title: t.Title, Slug: t.Slug, Taxonomy: t.Taxonomy, Description: t.Description,
		URL: st.PageLink(content.TermURL(tax, t)), Data: t.Data.Plain()}
}

// funcs are the template functions of one site (docs/templates.md). They read published
// records only; a bad argument is an error, which fails the page with a log line that names
// the template and line.
func (s *site) funcs(st content.Site) template.FuncMap {
	f := &funcs{s: s, site: st}
	return template.FuncMap{
		"entries":     f.entries,
		"entry":       f.entry,
		"global":      f.global,
		"nav":         f.nav,
		"terms":       f.terms,
		"term":        f.term,
		"markdown":    f.markdown,
		"richtext":    f.richtext,
		"asset":       f.asset,
		"url":         f.url,
		"absURL":      st.Absolute,
		"date":        f.date,
		"isoDate":     isoDate,
		"paginate":    f.paginate,
		"seo":         seoHead,
		"form":        f.form,
		"collections": f.collections,
		"tagged":      f.tagged,
		"search":      f.search,
		"img":         f.img,
		"srcset":      f.srcset,
		"themeCSS":    func() string { return themeLink(st) },
	}
}

type funcs struct {
	s    *site
	site content.Site
}

// collection returns a collection that is public on this site.
func (f *funcs) collection(h string) (*content.Collection, error) {
	c, err := f.s.Store.Collection(h)
	if err != nil {
		return nil, fmt.Errorf("collection %q: %w", h, err)
	}
	if !c.OnSite(f.site.Handle) {
		return nil, fmt.Errorf("collection %q is not on site %q", h, f.site.Handle)
	}
	return c, nil
}

// list runs a public API query (limit, offset, sort, filter) on published entries.
func (f *funcs) list(coll, rawQuery string, limit, offset int) ([]*EntryView, int, error) {
	c, err := f.collection(coll)
	if err != nil {
		return nil, 0, err
	}
	r := &http.Request{URL: &url.URL{RawQuery: rawQuery}}
	q, err := web.ListQuery(r)
	if err != nil {
		return nil, 0, fmt.Errorf("entries %q %q: %v", coll, rawQuery, err)
	}
	delete(q.Filter, "status")
	q.Status = content.StatusPublished
	if limit > 0 {
		q.Limit, q.Offset = limit, offset
	}
	if q.Limit <= 0 || q.Limit > maxListLimit {
		q.Limit = maxListLimit
	}
	metas, total, err := f.s.Store.Entries(c.Handle, q)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*EntryView, 0, len(metas))
	for _, e := range metas {
		if e.Published() {
			out = append(out, f.s.entryView(f.site, c, e, nil))
		}
	}
	return out, total, nil
}

// entries "blog" "limit=5&sort=-createdAt": published entries, as the public API lists them
// (at most 100).
func (f *funcs) entries(coll string, rawQuery ...string) ([]*EntryView, error) {
	q := strings.Join(rawQuery, "&")
	return memoGet(f.s, "entries\x00"+f.site.Handle+"\x00"+coll+"\x00"+q, func() ([]*EntryView, error) {
		out, _, err := f.list(coll, q, 0, 0)
		return out, err
	})
}

// entry "pages" "about": one published entry with its rendered body, or nil.
func (f *funcs) entry(coll, slug string) (*EntryView, error) {
	c, err := f.collection(coll)
	if err != nil {
		return nil, err
	}
	if !content.ValidHandle(slug) {
		return nil, nil
	}
	meta, err := f.s.Store.EntryMeta(c.Handle, slug)
	if err != nil {
		return nil, nil
	}
	e, body := f.s.readEntry(c, meta, false)
	if e == nil {
		return nil, nil
	}
	return f.s.entryView(f.site, c, e, body), nil
}

// global "site-settings": a global's values, or nil.
func (f *funcs) global(h string) map[string]any {
	return f.s.data.global(h)
}

// nav "main": a navigation tree with entry references resolved to their URLs. A reference to an
// entry that is missing, a draft, or on another site keeps its label without a link.
func (f *funcs) nav(h string) []NavLink {
	links, _ := memoGet(f.s, "nav\x00"+f.site.Handle+"\x00"+h, func() ([]NavLink, error) {
		tree, err := f.s.data.navigation(h)
		if err != nil {
			return nil, nil
		}
		return f.navLinks(tree.Items, 0), nil
	})
	return links
}

func (f *funcs) navLinks(items []content.NavItem, depth int) []NavLink {
	if depth > content.MaxNesting {
		return nil
	}
	out := make([]NavLink, 0, len(items))
	for _, it := range items {
		l := NavLink{Label: it.Label, URL: it.URL, External: it.External}
		if it.Entry != "" {
			l.URL = f.entryURL(it.Entry)
		} else if strings.HasPrefix(it.URL, "/") && !strings.HasPrefix(it.URL, "//") && !it.External {
			l.URL = f.site.Link(it.URL)
		}
		l.Children = f.navLinks(it.Children, depth+1)
		out = append(out, l)
	}
	return out
}

func (f *funcs) entryURL(ref string) string {
	coll, slug, ok := strings.Cut(ref, "/")
	if !ok {
		return ""
	}
	c, err := f.s.Store.Collection(coll)
	if err != nil || !c.OnSite(f.site.Handle) {
		return ""
	}
	e, err := f.s.Store.EntryMeta(coll, slug)
	if err != nil || !e.Published() {
		return ""
	}
	if u := content.EntryURL(c, e); u != "" {
		return f.site.PageLink(u)
	}
	return ""
}

// terms "tags": the public terms of a taxonomy, in the store's order.
func (f *funcs) terms(tax string) ([]*TermView, error) {
	return memoGet(f.s, "terms\x00"+f.site.Handle+"\x00"+tax, func() ([]*TermView, error) { return f.readTerms(tax) })
}

func (f *funcs) readTerms(tax string) ([]*TermView, error) {
	t, err := f.s.Store.Taxonomy(tax)
	if err != nil {
		return nil, fmt.Errorf("taxonomy %q: %w", tax, err)
	}
	list, err := f.s.Store.Terms(tax)
	if err != nil {
		return nil, err
	}
	out := make([]*TermView, 0, len(list))
	for _, term := range list {
		if termPublic(term) {
			out = append(out, f.s.termView(f.site, t, term))
		}
	}
	return out, nil
}

// url "/about": a site path as a link on the request's site (with a sub-path site's base). A
// full URL, a protocol-relative one, a fragment or a mailto: link is kept as it is.
func (f *funcs) url(p string) string {
	if p == "" || strings.Contains(p, ":") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "#") || strings.HasPrefix(p, "?") {
		return p
	}
	return f.site.Link(p)
}

// term "tags" "news": one public term, or nil.
func (f *funcs) term(tax, slug string) *TermView {
	t, err := f.s.Store.Taxonomy(tax)
	if err != nil || !content.ValidHandle(slug) {
		return nil
	}
	term, _, err := f.s.Store.Term(tax, slug)
	if err != nil || !termPublic(term) {
		return nil
	}
	return f.s.termView(f.site, t, term)
}

// markdown renders Markdown (raw HTML escaped unless markdown.allowHtml). A rich-text document
// (a tiptap field edited since it held Markdown) renders as richtext does.
func (f *funcs) markdown(v any) (template.HTML, error) {
	s, ok := v.(string)
	if !ok {
		if richtext.IsDocument(v) {
			return f.richtext(v)
		}
	}
	html, err := f.s.Markdown.Render(s)
	return template.HTML(html), err
}

// richtext renders a tiptap field: a rich-text document by allow-list (content/richtext), a
// string holding none as Markdown (the field's older values, which the CP shows the same way).
func (f *funcs) richtext(v any) (template.HTML, error) {
	if s, ok := v.(string); ok && !richtext.IsDocument(s) {
		return f.markdown(s)
	}
	html, err := richtext.Render(v)
	return template.HTML(html), err
}

// asset "img/logo.svg": the URL of an asset file. An absolute URL or path is kept as it is.
func (f *funcs) asset(p string) string {
	if strings.HasPrefix(p, "/") || strings.Contains(p, "://") {
		return p
	}
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return f.s.AssetsPath + "/" + strings.Join(parts, "/")
}

// date formats a date in the site's locale ("6 April 2026"); an optional Go layout overrides
// it. A value that is not a date is shown as written.
func (f *funcs) date(v any, layout ...string) string {
	t, ok := toTime(v)
	if !ok {
		s, _ := v.(string)
		return s
	}
	if len(layout) > 0 {
		return t.Format(layout[0])
	}
	return formatDate(t, f.site.Locale)
}

func toTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case string:
		return content.ParseTime(x)
	case time.Time:
		return x, true
	}
	return time.Time{}, false
}

// isoDate is a date as YYYY-MM-DD, for <time datetime>.
func isoDate(v any) string {
	t, ok := toTime(v)
	if !ok {
		return ""
	}
	return t.Format("2006-01-02")
}

// months of the languages the date function knows; others get ISO dates.
var months = map[string][12]string{
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	"de": {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	"es": {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
	"it": {"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
	"nl": {"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
	"pt": {"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
}

func formatDate(t time.Time, locale string) string {
	lang, region, _ := strings.Cut(locale, "-")
	lang = strings.ToLower(lang)
	m, ok := months[lang]
	if !ok {
		return t.Format("2006-01-02")
	}
	d, month, y := t.Day(), m[t.Month()-1], t.Year()
	switch lang {
	case "en":
		if strings.EqualFold(region, "US") {
			return fmt.Sprintf("%s %d, %d", month, d, y)
		}
		return fmt.Sprintf("%d %s %d", d, month, y)
	case "de":
		return fmt.Sprintf("%d. %s %d", d, month, y)
	case "es", "pt":
		return fmt.Sprintf("%d de %s de %d", d, month, y)
	}
	return fmt.Sprintf("%d %s %d", d, month, y)
}

// paginate . "blog" "sort=-createdAt" 10: the page's share of a list, by the page's ?page=N.
func (f *funcs) paginate(p *Page, coll, rawQuery string, perPage int) (*Pagination, error) {
	if p == nil {
		return nil, fmt.Errorf("paginate needs the page (.) as its first argument")
	}
	if perPage < 1 || perPage > maxPerPage {
		return nil, fmt.Errorf("paginate: per page must be 1 to %d, not %d", maxPerPage, perPage)
	}
	n := p.PageNumber
	items, total, err := f.list(coll, rawQuery, perPage, (n-1)*perPage)
	if err != nil {
		return nil, err
	}
	pg := &Pagination{Items: items, Number: n, Total: total, PerPage: perPage, Pages: (total + perPage - 1) / perPage}
	if pg.Pages < 1 {
		pg.Pages = 1
	}
	pg.PrevURL, pg.NextURL = f.pageLinks(p, n, pg.Pages)
	return pg, nil
}

// seoHead renders the page's SEO head tags (content/seo): title, description, canonical,
// robots, social and JSON-LD, as configured.
func seoHead(p *Page) template.HTML {
	if p == nil {
		return ""
	}
	return p.seoHead
}
