package report

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"cms/content"
	"cms/content/seo"
	"cms/content/seo/redirects"
)

// Record is one published record of the site, resolved.
type Record struct {
	ID   string // "collection/slug"
	Type string // entry or term
	Path string // the public path; "" when the collection has no route
	Meta seo.Meta
	Body string // the Markdown body, for its links
	Home bool   // the site's home page: never an orphan
	// ExplicitCanonical is the canonical the record's layers set (a literal), "" when none.
	ExplicitCanonical string
	// SitemapAsked is true when a layer sets sitemap.enabled: true explicitly.
	SitemapAsked bool
}

// NavLink is one item of a navigation tree.
type NavLink struct {
	Nav   string // the navigation handle
	Label string
	URL   string // as written ("" for an entry item)
	Entry string // "collection/slug" of an entry item
}

// Input is what an audit reads.
type Input struct {
	Site       content.Site
	Records    []Record
	Navigation []NavLink
	Redirects  []redirects.Redirect // the site's redirects, enabled or not
	// AssetExists reports whether an asset path ("photos/cat.jpg", under /assets/) exists.
	AssetExists func(path string) bool
	// SocialImages is seo.socialImages: with generated images on, a missing image is no issue.
	SocialImages bool
	// KnownPaths are other public paths links may lead to (taxonomy term pages, /sitemap.xml):
	// not audited, but not broken either.
	KnownPaths []string
	// Surfaces are path prefixes other parts of the service answer (the Control Panel, the
	// APIs): a link there is not a page to audit, and not broken either.
	Surfaces []string
}

// Audit runs every rule and returns the report.
func Audit(in Input, now time.Time) *Report {
	a := &audit{in: in, pages: map[string]*Record{}, redirect: map[string]redirects.Redirect{}, linked: map[string]bool{}}
	for i := range in.Records {
		if r := &in.Records[i]; r.Path != "" {
			a.pages[r.Path] = r
		}
	}
	known := map[string]bool{"/sitemap.xml": true, "/robots.txt": true, "/humans.txt": true}
	for _, p := range in.KnownPaths {
		known[cleanPath(p)] = true
	}
	a.known = known
	for _, r := range in.Redirects {
		if r.Enabled {
			if _, dup := a.redirect[r.Source]; !dup {
				a.redirect[r.Source] = r
			}
		}
	}
	a.texts()
	for i := range in.Records {
		r := &in.Records[i]
		a.canonical(r)
		a.robots(r)
		a.social(r)
		a.body(r)
	}
	a.navigation()
	a.redirects()
	a.orphans()
	return finish(in.Site.Handle, a.issues, len(in.Records), now)
}

type audit struct {
	in       Input
	pages    map[string]*Record
	redirect map[string]redirects.Redirect // enabled, by source
	linked   map[string]bool               // paths linked from a body or a navigation
	known    map[string]bool               // other public paths (KnownPaths)
	issues   []Issue
}

func (a *audit) add(rule, severity string, subj Subject, field, msg, rec string) {
	a.issues = append(a.issues, Issue{RuleID: rule, Severity: severity, Subject: subj, Field: field, Message: msg, Recommendation: rec})
}

func (a *audit) subject(r *Record) Subject {
	return Subject{ID: r.ID, Type: r.Type, Site: a.in.Site.Handle, Path: r.Path}
}

// texts: titles and descriptions missing, short, long, duplicate. Excluded records have no
// metadata on purpose and are skipped.
func (a *audit) texts() {
	for _, f := range []struct {
		name, label string
		get         func(seo.Meta) string
		min, max    int
		missing     string
	}{
		{"title", "title", func(m seo.Meta) string { return m.Title }, TitleMin, TitleMax, Error},
		{"description", "description", func(m seo.Meta) string { return m.Description }, DescriptionMin, DescriptionMax, Warning},
	} {
		seen := map[string][]*Record{}
		for i := range a.in.Records {
			r := &a.in.Records[i]
			if r.Meta.Excluded || r.Meta.NoIndex {
				continue
			}
			v := strings.TrimSpace(f.get(r.Meta))
			n := utf8.RuneCountInString(v)
			rule := "seo." + f.name + "."
			switch {
			case v == "":
				a.add(rule+"missing", f.missing, a.subject(r), f.name, fmt.Sprintf("The page has no %s", f.label),
					fmt.Sprintf("Write a %s, or set one for the section in its SEO document", f.label))
				continue
			case n < f.min:
				a.add(rule+"short", Warning, a.subject(r), f.name, fmt.Sprintf("The %s is %d characters long, under %d", f.label, n, f.min),
					fmt.Sprintf("Write a %s of %d to %d characters that says what the page is about", f.label, f.min, f.max))
			case n > f.max:
				a.add(rule+"long", Warning, a.subject(r), f.name, fmt.Sprintf("The %s is %d characters long, over %d; search engines cut it", f.label, n, f.max),
					fmt.Sprintf("Shorten the %s to at most %d characters", f.label, f.max))
			}
			key := strings.ToLower(v)
			seen[key] = append(seen[key], r)
		}
		for _, rs := range seen {
			if len(rs) < 2 {
				continue
			}
			for _, r := range rs {
				others := make([]string, 0, len(rs)-1)
				for _, o := range rs {
					if o != r && len(others) < 5 {
						others = append(others, o.ID)
					}
				}
				a.add("seo."+f.name+".duplicate", Warning, a.subject(r), f.name,
					fmt.Sprintf("The %s is the same as on %s", f.label, strings.Join(others, ", ")),
					fmt.Sprintf("Give each page its own %s", f.label))
			}
		}
	}
}

// sitePath returns the path on the audited site an absolute or relative URL points to, and
// whether it is on the site at all.
func (a *audit) sitePath(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "//") {
		return cleanPath(raw), true
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", false
	}
	base := strings.TrimSuffix(a.in.Site.URL, "/")
	bu, err := url.Parse(base)
	if err != nil || redirects.Origin(u) != redirects.Origin(bu) {
		return "", false
	}
	p, ok := strings.CutPrefix(u.EscapedPath(), bu.EscapedPath())
	if !ok || (p != "" && p[0] != '/') {
		return "", false
	}
	if p == "" {
		p = "/"
	}
	return cleanPath(p), true
}

// cleanPath drops a query and fragment and normalises what it can.
func cleanPath(p string) string {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if p == "" {
		return "/"
	}
	if n, err := redirects.NormalizePath(p); err == nil {
		return n
	}
	return p
}

// target says what a path on the site is: a page, a redirect, an asset, or nothing.
func (a *audit) target(p string) string {
	switch {
	case a.pages[p] != nil:
		return "page"
	case a.redirect[p].ID != "":
		return "redirect"
	case p == "/" || a.known[p]:
		return "page" // the home page is a template page even without an entry
	case a.onSurface(p):
		return "surface"
	case strings.HasPrefix(p, "/assets/"):
		if a.in.AssetExists != nil {
			if u, err := url.PathUnescape(strings.TrimPrefix(p, "/assets/")); err == nil && a.in.AssetExists(u) {
				return "asset"
			}
		}
		return ""
	}
	return ""
}

// onSurface reports whether p lies under one of the service's other surfaces.
func (a *audit) onSurface(p string) bool {
	for _, s := range a.in.Surfaces {
		if s = strings.TrimSuffix(s, "/"); s != "" && (p == s || strings.HasPrefix(p, s+"/")) {
			return true
		}
	}
	return false
}

// canonical: an explicit canonical that cannot be used, or one that points at a redirect or at
// nothing on the site.
func (a *audit) canonical(r *Record) {
	if r.Meta.Excluded {
		return
	}
	if c := strings.TrimSpace(r.ExplicitCanonical); c != "" {
		u, err := url.Parse(c)
		if err != nil || (!strings.HasPrefix(c, "/") && u.Scheme != "http" && u.Scheme != "https") || strings.HasPrefix(c, "//") {
			a.add("seo.canonical.invalid", Error, a.subject(r), "canonical", fmt.Sprintf("The canonical %q is not a path or an http(s) URL, so it is ignored", c),
				"Set the canonical to a path on the site or an absolute https URL, or remove it")
			return
		}
	}
	if r.Meta.Canonical == "" {
		if r.Path != "" {
			a.add("seo.canonical.missing", Warning, a.subject(r), "canonical", "The page has no canonical URL", "Remove the disabled canonical source, so the page's own URL is used")
		}
		return
	}
	p, on := a.sitePath(r.Meta.Canonical)
	if !on {
		return // another origin (allowed by seo.allowExternalCanonicals): not ours to check
	}
	switch a.target(p) {
	case "redirect":
		a.add("seo.canonical.redirect", Warning, a.subject(r), "canonical", fmt.Sprintf("The canonical %s is redirected to %s", r.Meta.Canonical, a.redirect[p].Destination),
			"Point the canonical at the redirect's destination")
	case "":
		a.add("seo.canonical.broken", Error, a.subject(r), "canonical", fmt.Sprintf("The canonical %s is not a page of the site (404)", r.Meta.Canonical),
			"Point the canonical at an existing page, or remove it so the page's own URL is used")
	}
}

// robots: a record asked into the sitemap but marked noindex.
func (a *audit) robots(r *Record) {
	if r.Meta.NoIndex && r.SitemapAsked {
		a.add("seo.sitemap.noindex-conflict", Warning, a.subject(r), "robots",
			"The page asks to be in the sitemap but is noindex, so it is left out of both",
			"Either remove noindex or set sitemap.enabled to false")
	}
}

// social: no share image, or an asset image whose file is missing.
func (a *audit) social(r *Record) {
	if r.Meta.Excluded || r.Path == "" {
		return
	}
	if r.Meta.Image == "" {
		if !a.in.SocialImages {
			a.add("seo.social.image.missing", Info, a.subject(r), "social.image", "The page has no social image; shares show no picture",
				"Set social.image on the page or its section (an asset or an https URL)")
		}
		return
	}
	if p, on := a.sitePath(r.Meta.Image); on && strings.HasPrefix(p, "/assets/") && a.target(p) != "asset" {
		a.add("seo.social.image.asset-missing", Warning, a.subject(r), "social.image", fmt.Sprintf("The social image %s is not in the assets", r.Meta.Image),
			"Upload the image or choose another one")
	}
}

// mdLink finds inline links and images (](url "title")), reference definitions ([x]: url)
// and HTML href/src attributes in Markdown.
var mdLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|(?m)^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)|(?i)(?:href|src)\s*=\s*["']([^"']+)["']`)

// links returns the URLs a Markdown body links to, in order.
func links(body string) []string {
	var out []string
	for _, m := range mdLink.FindAllStringSubmatch(body, -1) {
		for _, g := range m[1:] {
			if g != "" {
				out = append(out, g)
			}
		}
	}
	return out
}

// checkLink reports a link that is broken or redirected, and notes what it links to.
func (a *audit) checkLink(subj Subject, field, raw string) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.HasPrefix(raw, "#") || strings.HasPrefix(strings.ToLower(raw), "mailto:") || strings.HasPrefix(strings.ToLower(raw), "tel:") {
		return
	}
	p, on := a.sitePath(raw)
	if !on {
		if !strings.Contains(raw, ":") && !strings.HasPrefix(raw, "//") {
			a.add("seo.link.invalid", Warning, subj, field, fmt.Sprintf("The link %q is relative; it resolves differently on every page", raw),
				"Write internal links as paths starting with /")
		}
		return
	}
	a.linked[p] = true
	switch a.target(p) {
	case "redirect":
		a.linked[localDest(a, a.redirect[p].Destination)] = true
		a.add("seo.link.internal.redirect", Warning, subj, field, fmt.Sprintf("The link %s is redirected to %s", raw, a.redirect[p].Destination),
			"Link to the destination directly")
	case "":
		a.add("seo.link.internal.broken", Error, subj, field, fmt.Sprintf("The link %s leads to no page, redirect or asset (404)", raw),
			"Fix the link, or add a redirect from the old path")
	}
}

func localDest(a *audit, d string) string {
	if p, on := a.sitePath(d); on {
		return p
	}
	return ""
}

// body checks the links of a record's Markdown body.
func (a *audit) body(r *Record) {
	for _, l := range links(r.Body) {
		a.checkLink(a.subject(r), "content", l)
	}
}

// navigation checks every navigation item; an entry item counts as a link to its entry.
func (a *audit) navigation() {
	byID := map[string]*Record{}
	for i := range a.in.Records {
		byID[a.in.Records[i].ID] = &a.in.Records[i]
	}
	for _, n := range a.in.Navigation {
		subj := Subject{ID: n.Nav, Type: "navigation", Site: a.in.Site.Handle}
		if n.Entry != "" {
			if r := byID[n.Entry]; r != nil && r.Path != "" {
				a.linked[r.Path] = true
			} else {
				a.add("seo.link.internal.broken", Error, subj, n.Label, fmt.Sprintf("The item %q links to the entry %s, which is not a published page", n.Label, n.Entry),
					"Point the item at a published entry, or remove it")
			}
			continue
		}
		a.checkLink(subj, n.Label, n.URL)
	}
}

// redirects: chains and cycles among the site's enabled redirects (hand edits can make them).
func (a *audit) redirects() {
	st := &a.in.Site
	for _, r := range a.in.Redirects {
		if !r.Enabled {
			continue
		}
		subj := Subject{ID: r.ID, Type: "redirect", Site: a.in.Site.Handle, Path: r.Source}
		var hops []string
		cycle := false
		for p, seen := localOf(st, r.Destination), map[string]bool{r.Source: true}; p != ""; {
			next, ok := a.redirect[p]
			if !ok {
				break
			}
			hops = append(hops, next.ID)
			if seen[p] {
				cycle = true
				break
			}
			seen[p] = true
			p = localOf(st, next.Destination)
			if p == r.Source {
				cycle = true
				break
			}
		}
		switch {
		case cycle:
			a.add("seo.redirect.cycle", Critical, subj, "destination", fmt.Sprintf("Following %s leads back to it through %s: the page never loads", r.ID, strings.Join(hops, ", ")),
				"Change or disable one redirect of the cycle")
		case len(hops) > 0:
			a.add("seo.redirect.chain", Warning, subj, "destination", fmt.Sprintf("%s redirects to %s, which is redirected again by %s", r.ID, r.Destination, strings.Join(hops, ", ")),
				"Point the redirect at the final destination")
		}
	}
}

func localOf(site *content.Site, dest string) string {
	if strings.HasPrefix(dest, "/") {
		return cleanPath(dest)
	}
	base := strings.TrimSuffix(site.URL, "/")
	if rest, ok := strings.CutPrefix(dest, base); ok && (rest == "" || rest[0] == '/' || rest[0] == '?' || rest[0] == '#') {
		return cleanPath("/" + strings.TrimPrefix(rest, "/"))
	}
	return ""
}

// orphans: published, routed, indexable pages nothing links to. A page an enabled redirect
// moves away cannot be visited, so it is none.
func (a *audit) orphans() {
	paths := make([]string, 0, len(a.pages))
	for p := range a.pages {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		r := a.pages[p]
		if _, moved := a.redirect[p]; moved || r.Home || p == "/" || a.linked[p] || r.Meta.Excluded || r.Meta.NoIndex {
			continue
		}
		a.add("seo.link.orphan", Info, a.subject(r), "", "No page or navigation links to this page; visitors and crawlers find it only through the sitemap",
			"Link to it from a related page or a navigation")
	}
}
