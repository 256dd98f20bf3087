// Package seoops builds the SEO operations services a process shares between its groups: the
// redirect store, the 404 tracker and the report snapshots (content/seo/...). The SEO API group
// uses them; the site group calls Redirects and NotFound to apply redirects before rendering
// and to record the pages it answers 404. Each is built once per process (wire.Shared) and
// closed with the services.
package seoops

import (
	"path/filepath"

	"cms/content/seo"
	"cms/content/seo/notfound"
	"cms/content/seo/redirects"
	"cms/content/seo/report"
	"cms/runtime/wire"
)

// RedirectsDir is the folder of the redirect files inside the content folder.
const RedirectsDir = "seo/redirects"

// Redirects returns the process's redirect store, or nil when seo.enabled or seo.redirects is
// off.
func Redirects(s *wire.Services) (*redirects.Store, error) {
	c := s.Config
	if !c.SEO.Enabled || !c.SEO.Redirects {
		return nil, nil
	}
	return wire.Shared(s, "seo.redirects", func() (*redirects.Store, error) {
		return redirects.Open(redirects.Options{
			Dir:            filepath.Join(s.SitePath(c.ContentPath), filepath.FromSlash(RedirectsDir)),
			Sites:          c.SEOSites(),
			AllowedOrigins: c.SEO.AllowedRedirectOrigins,
			Now:            s.Now,
			Log:            s.Log.With("component", "seo.redirects"),
			// The SEO group and the entries group (automatic 301s) both write redirects.
			LockFile: filepath.Join(s.SitePath(".cms"), "redirects.lock"),
		})
	})
}

// NotFound returns the process's 404 tracker, or nil when seo.enabled or seo.errorTracking is
// off; on a read-only site folder the configuration has already switched errorTracking off
// (and the log said so once, with the other write-dependent options).
func NotFound(s *wire.Services) (*notfound.Tracker, error) {
	c := s.Config
	if !c.SEO.Enabled || !c.SEO.ErrorTracking || c.ReadOnly {
		return nil, nil
	}
	return wire.Shared(s, "seo.notfound", func() (*notfound.Tracker, error) {
		handles := make([]string, len(c.Sites))
		for i, site := range c.Sites {
			handles[i] = site.Handle
		}
		t, err := notfound.Open(notfound.Options{
			Dir:           s.SitePath(c.SEO.OperationalStoragePath),
			Sites:         handles,
			RetentionDays: c.SEO.ReportRetentionDays,
			Now:           s.Now,
			Log:           s.Log.With("component", "seo.notfound"),
		})
		if err == nil {
			s.OnClose(t.Close)
		}
		return t, err
	})
}

// Snapshots returns where reports are kept, or nil when seo.enabled or seo.reports is off.
func Snapshots(s *wire.Services) *report.Snapshots {
	c := s.Config
	if !c.SEO.Enabled || !c.SEO.Reports {
		return nil
	}
	v, _ := wire.Shared(s, "seo.snapshots", func() (*report.Snapshots, error) {
		return &report.Snapshots{Dir: s.SitePath(c.SEO.OperationalStoragePath), RetentionDays: c.SEO.ReportRetentionDays,
			Limit: c.SEO.ReportSnapshotLimit, Now: s.Now}, nil
	})
	return v
}

// Resolver returns a metadata resolver over the store's SEO documents.
func Resolver(s *wire.Services, component string) *seo.Resolver {
	cfg := s.Config.SEOConfig()
	cfg.Log = s.Log.With("component", component)
	return seo.NewResolver(cfg, s.Store)
}
