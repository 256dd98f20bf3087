package main

import (
	"strings"
	"testing"

	"cms/content/contenttest"
)

// TestCheckSEO: cms check reports invalid SEO documents (envelope and SeoValues) and entries and
// terms whose seo key does not validate, naming the file and the key; valid ones pass.
func TestCheckSEO(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/blog.yaml --
title: Blog
-- resources/taxonomies/tags.yaml --
title: Tags
-- resources/seo/sites/default.yaml --
version: 1
kind: site
site: default
seo:
  titleSuffix: Example
-- resources/seo/sites/typo.yaml --
seo:
  robots: {indexing: nope}
-- resources/seo/sections/collection/blog.yaml --
version: 2
seo: {}
-- content/collections/blog/good.md --
---
title: Good
seo:
  title: Fine
---
-- content/collections/blog/bad.md --
---
title: Bad
seo:
  sitemap: {priority: 2}
---
-- content/taxonomies/tags/go.yaml --
title: Go
seo:
  social: {twitterCard: huge}
`)
	out, err := runCmd(t, nil, "check", "--site", dir)
	if code, ok := err.(exitError); !ok || code != 1 {
		t.Fatalf("check: err = %v, want exit 1\n%s", err, out)
	}
	for _, want := range []string{
		"resources/seo/sites/typo.yaml: seo.robots.indexing: must be one of index, noindex",
		"resources/seo/sections/collection/blog.yaml: version must be 1",
		"content/collections/blog/bad.md: seo.sitemap.priority: must be a number from 0 to 1",
		"content/taxonomies/tags/go.yaml: seo.social.twitterCard",
		"4 problem(s) found",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "good.md") || strings.Contains(out, "default.yaml") {
		t.Errorf("a valid file is reported:\n%s", out)
	}
}

// TestCheckSEOOneLinePerFile: several problems in one document are reported on one line.
func TestCheckSEOOneLinePerFile(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/seo/sites/default.yaml --
version: 3
site: other
seo:
  titel: x
  robots: {indexing: nope}
`)
	out, _ := runCmd(t, nil, "check", "--site", dir)
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		lines = append(lines, l)
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "resources/seo/sites/default.yaml: version must be 1; ") ||
		!strings.Contains(lines[0], "; seo.titel: unknown key") || !strings.Contains(lines[0], "; seo.robots.indexing:") {
		t.Errorf("output:\n%s", out)
	}
}
