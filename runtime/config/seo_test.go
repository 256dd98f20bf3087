package config_test

import (
	"strings"
	"testing"

	"cms/content/seo"
	"cms/runtime/config"
)

func TestSEODefaults(t *testing.T) {
	t.Parallel()
	c, warns, err := config.Load(site(t, ""), env(nil))
	if err != nil || len(warns) != 0 {
		t.Fatalf("Load = %v, %v", warns, err)
	}
	s := c.SEO
	if !s.Enabled || !s.Metadata || !s.StructuredData || !s.Sitemap || !s.Robots || !s.Humans || s.SocialImages ||
		s.AllowExternalCanonicals || len(s.AllowedRedirectOrigins) != 0 || s.TrailingSlash != "never" ||
		s.ReportRetentionDays != 90 || s.ReportSnapshotLimit != 50 {
		t.Errorf("SEO defaults = %+v", s)
	}
	if got := c.SEOConfig(); got != (seo.Config{Enabled: true, Metadata: true, StructuredData: true}) {
		t.Errorf("SEOConfig = %+v", got)
	}
}

func TestSEOKeys(t *testing.T) {
	t.Parallel()
	c, warns, err := config.Load(site(t, `
seo:
  metadata: false
  structuredData: false
  sitemap: false
  robots: false
  humans: false
  socialImages: true
  allowExternalCanonicals: true
  allowedRedirectOrigins: [https://shop.example.com, "http://localhost:8080/"]
  trailingSlash: preserve
  reportRetentionDays: 30
`), env(map[string]string{"CMS_SEO_ENABLED": "false", "CMS_SEO_REPORT_SNAPSHOT_LIMIT": "5"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings = %q", warns)
	}
	s := c.SEO
	if s.Enabled || s.Metadata || s.StructuredData || s.Sitemap || s.Robots || s.Humans || !s.SocialImages || !s.AllowExternalCanonicals ||
		len(s.AllowedRedirectOrigins) != 2 || s.TrailingSlash != "preserve" || s.ReportRetentionDays != 30 || s.ReportSnapshotLimit != 5 {
		t.Errorf("SEO = %+v", s)
	}
	if got := c.SEOConfig(); got != (seo.Config{AllowExternalCanonicals: true}) { // seo.enabled false: no social images either
		t.Errorf("SEOConfig = %+v", got)
	}
	// seo.enabled false switches metadata off even when metadata is on.
	c, _, err = config.Load(site(t, "seo: {enabled: false}"), env(nil))
	if err != nil || c.SEOConfig().Metadata || c.SEOConfig().StructuredData {
		t.Errorf("seo.enabled false: %+v, %v", c.SEOConfig(), err)
	}
}

func TestSEOKeysRefused(t *testing.T) {
	t.Parallel()
	for yaml, want := range map[string]string{
		"seo: {trailingSlash: sometimes}":                                                      "seo.trailingSlash: must be never, always or preserve",
		"seo: {allowedRedirectOrigins: [ftp://x.example]}":                                     "seo.allowedRedirectOrigins[0]: must be an http(s) origin",
		"seo: {allowedRedirectOrigins: ['https://x.example/a']}":                               "seo.allowedRedirectOrigins[0]",
		"seo: {allowedRedirectOrigins: ['https://u:p@x.example']}":                             "seo.allowedRedirectOrigins[0]",
		"seo: {allowedRedirectOrigins: ['https://x.example?a=1']}":                             "seo.allowedRedirectOrigins[0]",
		"seo: {allowedRedirectOrigins: [" + strings.Repeat("'https://x.example',", 101) + "]}": "at most 100 origins",
		"seo: {reportRetentionDays: 0}":                                                        "seo.reportRetentionDays: must be at least 1",
		"seo: {metadata: maybe}":                                                               "seo.metadata",
	} {
		_, _, err := config.Load(site(t, yaml), env(nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.60s: err = %v, want %q", yaml, err, want)
		}
	}
}
