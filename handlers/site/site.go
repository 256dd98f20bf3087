// Package site serves the public website: every GET and HEAD the API (/api/), the Control Panel
// (cp.path) and the asset files (/assets/) do not claim.
//
//	GET /                      the entry whose URL is / if any, else the home template
//	GET /{route...}            the published entry or term a collection or taxonomy route names
//	GET /sitemap.xml           published entries and terms of the request's site (an index of
//	                           /sitemap-{n}.xml parts beyond 50,000 URLs)
//	GET /robots.txt            crawl rules and the sitemap's URL
//	GET /humans.txt            the site's credits
//	GET /theme/{file}          the built-in theme's stylesheet
//	GET /_social/{page}.png    a page's generated social image (seo.socialImages)
//
// Pages are rendered from the site's templates (resources/views/, see docs/templates.md) or,
// for a template the site does not have, from the built-in theme. A request's site is chosen by
// its Host header only; canonical and absolute URLs always come from the configured site URL.
// Drafts are never rendered: a path naming one is a 404, as is an unknown path or one with
// malformed percent-encoding. Other methods get 405.
package site

import (
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cms/content"
	"cms/content/imgurl"
	"cms/content/lru"
	"cms/content/markdown"
	"cms/content/query"
	"cms/content/routing"
	"cms/content/seo"
	"cms/content/sitemap"
	"cms/handlers/web"
)

// Store is what the site reads: published records, definitions, globals and navigation. It
// has no method that reads users, sessions or submissions, so no template can reach them.
type Store interface {
	Collections() []*content.Collection
	Collection(h string) (*content.Collection, error)
	Taxonomies() []*content.Taxonomy
	Taxonomy(h string) (*content.Taxonomy, error)
	DefinitionsGeneration() uint64
	Generation() uint64
	Entries(c string, q query.Query) ([]*content.Entry, int, error)
	EntryMeta(c, slug string) (*content.Entry, error)
	Entry(c, slug string) (*content.Entry, error)
	Terms(tax string) ([]*content.Term, error)
	Term(tax, slug string) (*content.Term, string, error)
	Global(h string) (content.Doc, error)
	Navigation(h string) (content.NavTree, error)
	FormDef(h string) (*content.FormDef, error)
	Blueprint(kind, h string) (*content.Blueprint, error)
	Settings() (content.Doc, error)
}

// PreviewVerifier checks draft-preview tokens (content/preview.Signer).
type PreviewVerifier interface {
	// Verify returns nil for a valid, unexpired token of exactly that entry.
	Verify(token, collection, slug string) error
}

// SEO resolves a record's metadata (content/seo).
type SEO interface {
	Resolve(seo.Subject) seo.Meta
}

// Flags are the SEO switches of the configuration.
type Flags struct {
	Metadata bool // render the SEO head tags (seo.enabled and seo.metadata)
	Sitemap  bool // serve /sitemap.xml (seo.enabled and seo.sitemap)
	Robots   bool // serve /robots.txt (seo.enabled and seo.robots)
	Humans   bool // serve /humans.txt (seo.enabled and seo.humans)
}

// Deps are the inputs of the group.
type Deps struct {
	Store    Store
	Markdown *markdown.Renderer
	// Bodies keeps rendered entry bodies (shared with the public API); nil: the group keeps its
	// own, of BodyBytes.
	Bodies    *markdown.Bodies
	BodyBytes int64
	SEO       SEO
	// Preview, if set, lets a page request with ?preview=TOKEN show the current draft of the
	// one entry the token was signed for (nil: previews are not rendered).
	Preview PreviewVerifier
	Sites   []content.Site // at least one; the default marked (else the first)
	// Views is the site's template folder (resources/views); a missing folder means the
	// built-in theme renders everything.
	Views string
	// ReloadEvery is how often the views folder and the data paths are checked for changes;
	// 0 = on every request.
	ReloadEvery time.Duration
	Flags       Flags
	// CacheControl is the Cache-Control of rendered pages ("" = "public, max-age=60").
	CacheControl string
	// ContentSecurityPolicy is sent with every page ("" = none). DefaultCSP allows this origin's
	// files only (images from anywhere over HTTPS): no inline script or style, no framing.
	ContentSecurityPolicy string
	// FormsPath is where forms post: FormsPath + "/{handle}/submit" ("" = /api/forms).
	FormsPath string
	// AssetsPath is the URL path of the asset files ("" = /assets).
	AssetsPath string
	// Images builds the image transform URLs of `img` and `srcset` (assets.transforms: presets
	// and the signing key); its Prefix defaults to AssetsPath.
	Images imgurl.Builder
	// Search, if set, answers `search` and the /search page; New takes it from Store when
	// Store can search.
	Search Searcher
	// SitemapMaxURLs is the most URLs in one sitemap file before an index splits them
	// (0 = the protocol's 50,000).
	SitemapMaxURLs int
	// Reserved are path prefixes of other surfaces (cp.path, /assets, /api): when a request
	// for one reaches the site (the surface is switched off), it is a 404, never a page.
	Reserved []string
	// DataPaths are the folders and files pages read on demand rather than through the entry
	// index: content/globals, content/navigation, content/taxonomies, content/settings.yaml.
	// A change under one (checked at most every ReloadEvery) invalidates cached pages.
	DataPaths []string
	// Upstream, if set, is the origin of a headless frontend that answers the page requests
	// no route of the site matches (upstream.go); UpstreamTimeout bounds the wait for its
	// response headers (default 30 s).
	Upstream        *url.URL
	UpstreamTimeout time.Duration
	// CacheBytes bounds the cache of rendered pages (<= 0: no cache); Caches, if set, reports
	// it. A cached page stays valid until an entry, a definition, a template or a data file
	// changes.
	CacheBytes int64
	Caches     *lru.Registry
	// SocialImages serves the generated social images the SEO resolver names
	// (seo.socialImages, social.go); an eighth of CacheBytes keeps drawn ones.
	SocialImages bool
	Log          *slog.Logger
	Now          func() time.Time
}

// DefaultCSP is the pages' Content-Security-Policy unless configured otherwise.
const DefaultCSP = "default-src 'self'; img-src 'self' https: data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// Prefixes are the paths the group serves: everything no other group claims (ServeMux prefers
// the longer patterns of the other groups; on Lambda the site is the $default route).
func Prefixes() []string { return []string{"/"} }

type site struct {
	Deps
	sites *routing.Sites
	theme map[string]*viewSet // the built-in theme, parsed once per site
	views *views              // the site's own templates, reloaded when they change
	data  *data               // globals, navigation, settings and terms: watched and memoized

	pages    *lru.Cache[string, *cachedPage]
	cards    *lru.Cache[string, []byte] // social images by ETag (social.go)
	upstream http.Handler               // nil without Deps.Upstream

	memo memo

	sitemapMu sync.Mutex
	sitemaps  map[string]*sitemapList // by site handle

	routesMu sync.Mutex
	routes   atomic.Pointer[routeTable]
}

type routeTable struct {
	gen uint64
	tab *routing.Table
}

// New builds the group's handler.
func New(d Deps) (http.Handler, error) {
	if d.Store == nil {
		return nil, errors.New("site: Store is required")
	}
	if len(d.Sites) == 0 {
		return nil, errors.New("site: at least one site is required")
	}
	if d.Markdown == nil {
		d.Markdown = markdown.New(false)
	}
	if d.Bodies == nil {
		d.Bodies = markdown.NewBodies(d.Markdown, d.BodyBytes)
		if d.BodyBytes > 0 {
			d.Caches.Register("markdown.bodies", d.Bodies)
		}
	}
	if d.SEO == nil {
		d.SEO = seo.NewResolver(seo.Config{Enabled: true, Metadata: true}, nil)
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.CacheControl == "" {
		d.CacheControl = "public, max-age=60"
	}
	if d.FormsPath == "" {
		d.FormsPath = "/api/forms"
	}
	if d.SitemapMaxURLs <= 0 {
		d.SitemapMaxURLs = sitemap.MaxURLs
	}
	if d.AssetsPath == "" {
		d.AssetsPath = "/assets"
	}
	if d.Images.Prefix == "" {
		d.Images.Prefix = d.AssetsPath + "/"
	}
	if sr, ok := d.Store.(Searcher); ok && d.Search == nil {
		d.Search = sr
	}
	s := &site{Deps: d, sites: routing.NewSites(d.Sites), sitemaps: map[string]*sitemapList{}}
	if d.CacheBytes > 0 {
		s.pages = lru.New[string, *cachedPage](d.CacheBytes)
		s.pages.BorrowAll() // pages are read again: they may fill what the other caches leave
		if d.Caches != nil {
			d.Caches.Register("site.pages", s.pages)
		}
		if d.SocialImages {
			s.cards = lru.New[string, []byte](d.CacheBytes / 8)
			if d.Caches != nil {
				d.Caches.Register("site.socialImages", s.cards)
			}
		}
	}
	if d.Upstream != nil {
		s.upstream = newUpstream(d.Upstream, d.UpstreamTimeout, d.ContentSecurityPolicy)
	}
	s.views = newViews(s)
	s.data = newData(s)
	theme, err := loadTheme(s)
	if err != nil {
		return nil, err
	}
	s.theme = theme
	return s, nil
}

// table returns the route table of the current definitions, rebuilding it after a change.
func (s *site) table() *routing.Table {
	gen := s.Store.DefinitionsGeneration()
	if t := s.routes.Load(); t != nil && t.gen == gen {
		return t.tab
	}
	s.routesMu.Lock()
	defer s.routesMu.Unlock()
	if t := s.routes.Load(); t != nil && t.gen == gen {
		return t.tab
	}
	tab, errs := routing.New(routing.Routes(s.Store.Collections(), s.Store.Taxonomies()))
	for _, err := range errs {
		s.Log.Warn("route left out: no page can be found by it", "err", err)
	}
	s.routes.Store(&routeTable{gen: gen, tab: tab})
	return tab
}

// Routes lists what the group answers, for the route tests.
func (s *site) Routes() []string {
	return []string{"GET /", "HEAD /", "GET /sitemap.xml", "GET /robots.txt", "GET /humans.txt", "GET " + themePrefix + "theme.css", "GET /_social/{path...}", "GET /{path...}"}
}

func (s *site) reserved(p string) bool {
	for _, r := range s.Reserved {
		if r != "" && r != "/" && strings.HasPrefix(p, r) && (len(p) == len(r) || p[len(r)] == '/') {
			return true
		}
	}
	return false
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if info := web.InfoFrom(r.Context()); info != nil {
		info.Route = "site"
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		plain(w, http.StatusMethodNotAllowed, "Method Not Allowed\n", "no-store")
		return
	}
	escaped := r.URL.EscapedPath()
	st, rest, inside := s.sites.Select(r.Host, escaped)
	rq := &request{w: w, r: r, s: s, site: st, escapedPath: rest}
	if !inside || s.reserved(r.URL.Path) {
		rq.notFound()
		return
	}
	switch {
	case rest == "/sitemap.xml":
		rq.sitemap(0)
		return
	case strings.HasPrefix(rest, "/sitemap-") && strings.HasSuffix(rest, ".xml"):
		if n, ok := partNumber(rest); ok {
			rq.sitemap(n)
			return
		}
	case rest == "/robots.txt":
		rq.robots()
		return
	case rest == "/humans.txt":
		rq.humans()
		return
	case strings.HasPrefix(rest, themePrefix):
		s.themeFile(w, r, rest[len(themePrefix):])
		return
	case s.SocialImages && seo.IsSocialImagePath(rest):
		rq.socialImage(rest)
		return
	}
	rq.page()
}

// partNumber reads n of /sitemap-{n}.xml (1 or more, no leading zero).
func partNumber(p string) (int, bool) {
	d := strings.TrimSuffix(strings.TrimPrefix(p, "/sitemap-"), ".xml")
	if d == "" || len(d) > 6 || d[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
		n = n*10 + int(d[i]-'0')
	}
	return n, true
}

// plain writes a short text/plain answer.
func plain(w http.ResponseWriter, status int, body, cacheControl string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", cacheControl)
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
