package routing

import (
	"net/url"
	"strings"

	"cms/content"
)

// Sites chooses a request's site from its Host header alone (notes 14.2): forwarded headers
// never count, so a client cannot pick a site, or the origin of canonical URLs, by sending one.
type Sites struct {
	list   []content.Site
	bases  []string // each site's base path ("" or "/de")
	byHost map[string][]int
	def    int
}

// NewSites indexes the configured sites; the default is the one marked so, else the first.
// list must not be empty (the configuration guarantees one site).
func NewSites(list []content.Site) *Sites {
	s := &Sites{list: list, bases: make([]string, len(list)), byHost: map[string][]int{}}
	for i, site := range list {
		s.bases[i] = site.BasePath()
		if u, err := url.Parse(site.URL); err == nil {
			h := normalHost(u.Host)
			s.byHost[h] = append(s.byHost[h], i)
		}
		if site.Default && !list[s.def].Default {
			s.def = i
		}
	}
	return s
}

// List returns the sites in configuration order.
func (s *Sites) List() []content.Site { return s.list }

// Default returns the default site.
func (s *Sites) Default() content.Site { return s.list[s.def] }

// normalHost lower-cases a host and drops an explicit default port.
func normalHost(h string) string {
	h = strings.ToLower(h)
	if strings.HasSuffix(h, ":80") {
		return h[:len(h)-3]
	}
	if strings.HasSuffix(h, ":443") {
		return h[:len(h)-4]
	}
	return h
}

// Select returns the site of a request to host and path, and the path inside that site (its base
// path removed). Among the sites on the host, the longest base path that holds path wins, then
// the host's site at the root; a host no site names gets the default site. inside is false when
// the chosen site has a base path that path is not under: no page of that site is there.
func (s *Sites) Select(host, path string) (site content.Site, rest string, inside bool) {
	best, bestLen := -1, -1
	for _, i := range s.byHost[normalHost(host)] {
		b := s.bases[i]
		if len(b) > bestLen && under(path, b) {
			best, bestLen = i, len(b)
		}
	}
	if best < 0 {
		best = s.def
	}
	b := s.bases[best]
	if !under(path, b) {
		return s.list[best], path, false
	}
	rest = path[len(b):]
	if rest == "" {
		rest = "/"
	}
	return s.list[best], rest, true
}

// ForHost returns the site of a request to host that names no site path (an API request, whose
// path is the same on every site): the host's site at the root, else its first configured site
// (a host with sub-path sites only), else the default site.
func (s *Sites) ForHost(host string) content.Site {
	ids := s.byHost[normalHost(host)]
	for _, i := range ids {
		if s.bases[i] == "" {
			return s.list[i]
		}
	}
	if len(ids) > 0 {
		return s.list[ids[0]]
	}
	return s.list[s.def]
}

// under reports whether path is base or below it, on a segment boundary.
func under(path, base string) bool {
	if base == "" {
		return true
	}
	return strings.HasPrefix(path, base) && (len(path) == len(base) || path[len(base)] == '/')
}
