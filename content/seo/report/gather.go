package report

import (
	"fmt"
	"net/url"
	"strings"

	"cms/content"
	"cms/content/query"
	"cms/content/seo"
	"cms/content/seo/redirects"
)

// Store is what an audit reads of the content (fsstore.Store has these methods).
type Store interface {
	Collections() []*content.Collection
	Entries(c string, q query.Query) ([]*content.Entry, int, error)
	Entry(c, slug string) (*content.Entry, error)
	NavigationDefs() []*content.NavigationDef
	Navigation(h string) (content.NavTree, error)
	StatAsset(p string) (content.AssetInfo, error)
	Taxonomies() []*content.Taxonomy
	Terms(tax string) ([]*content.Term, error)
}

// Gather reads a site's published entries (resolved through res), its navigations and the
// given redirects into an audit's input.
func Gather(st Store, res *seo.Resolver, site content.Site, rds []redirects.Redirect, socialImages bool) (Input, error) {
	in := Input{Site: site, SocialImages: socialImages, AssetExists: func(p string) bool {
		info, err := st.StatAsset(p)
		return err == nil && !info.Dir
	}}
	for _, r := range rds {
		if r.Site == site.Handle {
			in.Redirects = append(in.Redirects, r)
		}
	}
	for _, c := range st.Collections() {
		list, _, err := st.Entries(c.Handle, query.Query{Status: content.StatusPublished})
		if err != nil {
			return in, fmt.Errorf("collection %s: %w", c.Handle, err)
		}
		for _, meta := range list {
			e, err := st.Entry(c.Handle, meta.Slug)
			if content.IsNotFound(err) {
				continue // deleted meanwhile
			}
			if err != nil {
				return in, fmt.Errorf("entry %s/%s: %w", c.Handle, meta.Slug, err)
			}
			path := content.EntryURL(c, e)
			subj := seo.Subject{Site: site, Kind: "entry", Section: c.Handle, Path: path, Title: e.Title,
				Slug: e.Slug, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt, Data: e.Data}
			rec := Record{ID: c.Handle + "/" + e.Slug, Type: "entry", Path: path, Body: e.Content, Home: path == "/",
				Meta: res.Resolve(subj)}
			for _, l := range res.Layers(subj) {
				if l.Canonical != nil {
					rec.ExplicitCanonical = ""
					if l.Canonical.Kind == seo.KindLiteral {
						rec.ExplicitCanonical = l.Canonical.Value
					}
				}
				if l.Sitemap.Enabled != nil {
					rec.SitemapAsked = *l.Sitemap.Enabled
				}
			}
			in.Records = append(in.Records, rec)
		}
	}
	for _, tx := range st.Taxonomies() {
		if tx.Route == "" {
			continue
		}
		terms, err := st.Terms(tx.Handle)
		if err != nil {
			continue // a broken taxonomy is cms check's to report
		}
		for _, t := range terms {
			p := strings.ReplaceAll(tx.Route, "{slug}", url.PathEscape(t.Slug))
			p = strings.ReplaceAll(p, "{taxonomy}", url.PathEscape(tx.Handle))
			in.KnownPaths = append(in.KnownPaths, p)
		}
	}
	for _, d := range st.NavigationDefs() {
		tree, err := st.Navigation(d.Handle)
		if err != nil {
			continue // a broken navigation file is cms check's to report
		}
		var walk func([]content.NavItem)
		walk = func(items []content.NavItem) {
			for _, it := range items {
				in.Navigation = append(in.Navigation, NavLink{Nav: d.Handle, Label: it.Label, URL: it.URL, Entry: it.Entry})
				walk(it.Children)
			}
		}
		walk(tree.Items)
	}
	return in, nil
}
