// Package routing maps a public path back to the record it names: the reverse of
// content.EntryURL and content.TermURL. Routes are compiled once into a segment trie (a map per
// literal segment, a short list of placeholder segments), so a lookup costs the path's length,
// not the number of entries; the records themselves are then found by (collection, slug).
//
// Several routes can match one path ("/{slug}" and "/blog/{slug}" both match "/blog"); the
// candidates come ranked by specificity: more literal characters first, then more segments,
// then declaration order (notes section 5). The caller takes the first whose record exists and
// is published.
package routing

import (
	"fmt"
	"net/url"
	"strings"

	"cms/content"
)

// Kind is what a route leads to.
type Kind uint8

// Route kinds.
const (
	Entry Kind = iota + 1 // an entry of a collection
	Term                  // a term of a taxonomy
)

// Route is one collection's or taxonomy's URL pattern.
type Route struct {
	Kind    Kind
	Handle  string // collection or taxonomy handle
	Pattern string // e.g. "/blog/{year}/{month}/{slug}"; "" = the kind's default
}

// Candidate is a record a path may name.
type Candidate struct {
	Kind   Kind
	Handle string
	Slug   string
}

// part is a literal run or a placeholder of one segment.
type part struct {
	lit string // literal text, when ph is ""
	ph  string // slug, year, month or day
}

type segment []part

type compiled struct {
	Route
	segs    []segment
	slugSeg int // index of the segment holding {slug}
	literal int // literal characters, for ranking
	order   int
}

type node struct {
	lit  map[string]*node
	pat  []patEdge
	ends []int // routes ending at this node
}

type patEdge struct {
	seg  segment
	next *node
}

// Table matches paths against a set of routes. It is immutable and safe for concurrent use.
type Table struct {
	routes []compiled
	root   *node
}

// MaxSegments bounds the segments of a path worth matching; longer paths match nothing.
const MaxSegments = 32

// New compiles routes in declaration order. A route that cannot be matched (no {slug}, an
// unknown placeholder, an empty segment) is left out and reported.
func New(routes []Route) (*Table, []error) {
	t := &Table{root: &node{}}
	var errs []error
	for _, r := range routes {
		c, err := compile(r)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %q: route %q: %w", kindName(r.Kind), r.Handle, c.Pattern, err))
			continue
		}
		c.order = len(t.routes)
		t.routes = append(t.routes, c)
		t.insert(len(t.routes) - 1)
	}
	return t, errs
}

func kindName(k Kind) string {
	if k == Term {
		return "taxonomy"
	}
	return "collection"
}

func compile(r Route) (compiled, error) {
	c := compiled{Route: r, slugSeg: -1}
	if c.Pattern == "" {
		c.Pattern = content.DefaultRoute
		if r.Kind == Term {
			c.Pattern = content.DefaultTermRoute
		}
	}
	p := c.Pattern
	if !strings.HasPrefix(p, "/") {
		return c, fmt.Errorf("must start with /")
	}
	// {collection} and {taxonomy} are the handle itself: literal text for matching.
	switch r.Kind {
	case Entry:
		p = strings.ReplaceAll(p, "{collection}", r.Handle)
	case Term:
		p = strings.ReplaceAll(p, "{taxonomy}", r.Handle)
	}
	p = strings.TrimSuffix(p[1:], "/")
	if p == "" {
		return c, fmt.Errorf("has no {slug}")
	}
	for i, s := range strings.Split(p, "/") {
		if s == "" {
			return c, fmt.Errorf("has an empty segment")
		}
		seg, err := parseSegment(s, r.Kind)
		if err != nil {
			return c, err
		}
		for _, pt := range seg {
			c.literal += len(pt.lit)
			if pt.ph == "slug" {
				if c.slugSeg >= 0 {
					return c, fmt.Errorf("has {slug} twice")
				}
				c.slugSeg = i
			}
		}
		c.segs = append(c.segs, seg)
	}
	if c.slugSeg < 0 {
		return c, fmt.Errorf("has no {slug}")
	}
	if len(c.segs) > MaxSegments {
		return c, fmt.Errorf("has more than %d segments", MaxSegments)
	}
	return c, nil
}

func parseSegment(s string, k Kind) (segment, error) {
	var seg segment
	for s != "" {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			seg = append(seg, part{lit: s})
			break
		}
		if i > 0 {
			seg = append(seg, part{lit: s[:i]})
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("has an unclosed {")
		}
		name := s[i+1 : i+j]
		switch {
		case name == "slug", k == Entry && (name == "year" || name == "month" || name == "day"):
		default:
			return nil, fmt.Errorf("unsupported placeholder {%s}", name)
		}
		if len(seg) > 0 && (seg[len(seg)-1].ph == "slug" || name == "slug" && seg[len(seg)-1].ph != "") {
			return nil, fmt.Errorf("has {slug} next to another placeholder")
		}
		seg = append(seg, part{ph: name})
		s = s[i+j+1:]
	}
	for _, p := range seg {
		if strings.ContainsAny(p.lit, "?#\\") {
			return nil, fmt.Errorf("has ?, # or \\")
		}
	}
	return seg, nil
}

func (s segment) literal() (string, bool) {
	if len(s) == 1 && s[0].ph == "" {
		return s[0].lit, true
	}
	return "", false
}

func (t *Table) insert(idx int) {
	n := t.root
	for _, seg := range t.routes[idx].segs {
		if lit, ok := seg.literal(); ok {
			if n.lit == nil {
				n.lit = map[string]*node{}
			}
			next := n.lit[lit]
			if next == nil {
				next = &node{}
				n.lit[lit] = next
			}
			n = next
			continue
		}
		var next *node
		for _, e := range n.pat {
			if equalSeg(e.seg, seg) {
				next = e.next
			}
		}
		if next == nil {
			next = &node{}
			n.pat = append(n.pat, patEdge{seg: seg, next: next})
		}
		n = next
	}
	n.ends = append(n.ends, idx)
}

func equalSeg(a, b segment) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Split decodes a request's escaped path into its segments. ok is false for malformed
// percent-encoding, a path that does not start with /, or more than MaxSegments segments. "/" has
// no segments; a trailing slash gives a last empty segment (which no route matches).
func Split(escaped string, buf []string) (segs []string, ok bool) {
	if !strings.HasPrefix(escaped, "/") {
		return nil, false
	}
	segs = buf[:0]
	rest := escaped[1:]
	if rest == "" {
		return segs, true
	}
	for {
		i := strings.IndexByte(rest, '/')
		s := rest
		if i >= 0 {
			s = rest[:i]
		}
		if strings.IndexByte(s, '%') >= 0 {
			d, err := url.PathUnescape(s)
			if err != nil {
				return nil, false
			}
			s = d
		}
		if len(segs) == MaxSegments {
			return nil, false
		}
		segs = append(segs, s)
		if i < 0 {
			return segs, true
		}
		rest = rest[i+1:]
	}
}

// Match calls yield for each candidate of a decoded path (see Split), best first, until yield
// returns false.
func (t *Table) Match(segs []string, yield func(Candidate) bool) {
	var buf [16]int
	found := t.collect(t.root, segs, buf[:0])
	// Rank: literal characters, then segments, then declaration order. Few routes match one
	// path, so an insertion sort does.
	for i := 1; i < len(found); i++ {
		for j := i; j > 0 && t.better(found[j], found[j-1]); j-- {
			found[j], found[j-1] = found[j-1], found[j]
		}
	}
	for _, idx := range found {
		r := &t.routes[idx]
		slug, ok := matchSegment(r.segs[r.slugSeg], segs[r.slugSeg])
		if !ok || slug == "" {
			continue
		}
		if !yield(Candidate{Kind: r.Kind, Handle: r.Handle, Slug: slug}) {
			return
		}
	}
}

func (t *Table) better(a, b int) bool {
	ra, rb := &t.routes[a], &t.routes[b]
	if ra.literal != rb.literal {
		return ra.literal > rb.literal
	}
	if len(ra.segs) != len(rb.segs) {
		return len(ra.segs) > len(rb.segs)
	}
	return ra.order < rb.order
}

func (t *Table) collect(n *node, segs []string, out []int) []int {
	if len(segs) == 0 {
		return append(out, n.ends...)
	}
	s := segs[0]
	if next := n.lit[s]; next != nil {
		out = t.collect(next, segs[1:], out)
	}
	for _, e := range n.pat {
		if _, ok := matchSegment(e.seg, s); ok {
			out = t.collect(e.next, segs[1:], out)
		}
	}
	return out
}

// matchSegment matches one path segment against a segment pattern and returns what {slug}
// captured ("" when the segment has none).
func matchSegment(seg segment, s string) (slug string, ok bool) {
	if len(seg) == 0 {
		return "", s == ""
	}
	p := seg[0]
	if p.ph == "" {
		if !strings.HasPrefix(s, p.lit) {
			return "", false
		}
		return matchSegment(seg[1:], s[len(p.lit):])
	}
	switch p.ph {
	case "year", "month", "day":
		n := 2
		if p.ph == "year" {
			n = 4
		}
		if len(s) < n || !digits(s[:n]) {
			return "", false
		}
		return matchSegment(seg[1:], s[n:])
	}
	// {slug}: the rest of the segment, or up to an occurrence of the next literal (shortest
	// first); never empty.
	if len(seg) == 1 {
		return s, s != ""
	}
	next := seg[1].lit
	for i := 1; i+len(next) <= len(s); i++ {
		if strings.HasPrefix(s[i:], next) {
			if _, ok := matchSegment(seg[1:], s[i:]); ok {
				return s[:i], true
			}
		}
	}
	return "", false
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Routes lists the routes of collections (in the order given) and then of taxonomies, the
// declaration order of the ranking.
func Routes(colls []*content.Collection, taxes []*content.Taxonomy) []Route {
	out := make([]Route, 0, len(colls)+len(taxes))
	for _, c := range colls {
		out = append(out, Route{Kind: Entry, Handle: c.Handle, Pattern: c.Route})
	}
	for _, t := range taxes {
		out = append(out, Route{Kind: Term, Handle: t.Handle, Pattern: t.Route})
	}
	return out
}
