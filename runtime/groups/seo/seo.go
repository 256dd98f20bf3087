// Package seo wires the SEO operations API group (handlers/seo), a writer: it writes the SEO
// documents, redirect files, report snapshots and deletes 404 records.
package seo

import (
	"net/http"

	"cms/content/fsstore"
	"cms/handlers/seo"
	"cms/runtime/config"
	"cms/runtime/seoops"
	"cms/runtime/wire"
)

var _ seo.Store = (*fsstore.Store)(nil)

// Group describes the SEO group for the runners.
func Group() wire.Group {
	return wire.Group{Name: "seo", Prefixes: Prefixes, Writer: true, Build: Build}
}

// Prefixes are the paths the group serves.
func Prefixes(config.Config) []string { return seo.Prefixes() }

// Build builds the SEO group.
func Build(s *wire.Services) (http.Handler, error) {
	c := s.Config
	d := seo.Deps{
		Store:    s.Store,
		Auth:     s.Auth,
		Log:      s.Log.With("group", "seo"),
		Sites:    c.SEOSites(),
		Resolver: seoops.Resolver(s, "seo"),
		Features: seo.Features{Enabled: c.SEO.Enabled, Reports: c.SEO.Reports, Redirects: c.SEO.Redirects,
			ErrorTracking: c.SEO.ErrorTracking, SocialImages: c.SEO.SocialImages},
		Now:      s.Now,
		Surfaces: []string{c.CP.Path, "/api"},
	}
	rs, err := seoops.Redirects(s)
	if err != nil {
		return nil, err
	}
	if rs != nil {
		d.Redirects = rs
	}
	nf, err := seoops.NotFound(s)
	if err != nil {
		return nil, err
	}
	if nf != nil {
		d.NotFound = nf
	}
	if snap := seoops.Snapshots(s); snap != nil {
		d.Reports = snap
	}
	return seo.New(d)
}
