package main

import (
	"encoding/json"
	"strings"
	"testing"

	"cms/content/contenttest"
)

// `cms seo report` exits 1 when the audit finds errors, 0 when it finds none worse than
// warnings, and --json prints the report.
func TestSEOReportExitCode(t *testing.T) {
	t.Parallel()
	const base = `
-- cms.config.yaml --
watch: none
sites: [{handle: main, url: 'https://example.com'}]
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- content/collections/blog/fine.md --
---
title: A fine post about something
status: published
summary: x
---
`
	dir := contenttest.WriteSite(t, base)
	out, err := runCmd(t, nil, "seo", "report", "--dir", dir, "--site", "main")
	if err != nil || !strings.Contains(out, "site main: score") || !strings.Contains(out, ", 1 record, ") {
		t.Fatalf("a site without errors: err = %v\n%s", err, out)
	}
	contenttest.AddFiles(t, dir, `
-- content/collections/blog/broken.md --
---
title: A post with a broken link
status: published
---
See [this](/blog/nowhere).
`)
	out, err = runCmd(t, nil, "seo", "report", "--dir", dir, "--json")
	if code, ok := err.(exitError); !ok || code != 1 {
		t.Fatalf("a broken link: err = %v, want exit 1\n%s", err, out)
	}
	var r struct {
		Site    string
		Summary struct{ Error int }
		Issues  []struct{ RuleID string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Site != "main" || r.Summary.Error != 1 {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if _, err := runCmd(t, nil, "seo", "report", "--dir", dir, "--site", "nosuch"); err == nil {
		t.Error("an unknown site is accepted")
	}
	if _, err := runCmd(t, nil, "seo", "audit"); err == nil {
		t.Error("an unknown subcommand is accepted")
	}
}

// cms check names a redirect file that is skipped.
func TestCheckReportsBadRedirects(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/blog.yaml --
title: Blog
-- content/seo/redirects/good.yaml --
version: 1
id: good
site: default
source: /a
destination: /b
status: 301
enabled: true
-- content/seo/redirects/js.yaml --
version: 1
id: js
site: default
source: /x
destination: javascript:alert(1)
status: 301
enabled: true
`)
	out, err := runCmd(t, nil, "check", "--site", dir)
	if code, ok := err.(exitError); !ok || code != 1 {
		t.Fatalf("err = %v, want exit 1\n%s", err, out)
	}
	if !strings.Contains(out, "content/seo/redirects/js.yaml: ") || !strings.Contains(out, "destination") || strings.Contains(out, "good.yaml") {
		t.Errorf("output:\n%s", out)
	}
}

// Every other command names the site folder with --site; seo report's --site is a site handle.
// Given a folder there, it says which handles there are and that the folder is --dir.
func TestSEOReportSiteIsAHandle(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- cms.config.yaml --\nwatch: none\n")
	out, err := runCmd(t, nil, "seo", "report", "--dir", dir, "--site", dir)
	if code, ok := err.(exitError); !ok || code != 2 {
		t.Errorf("err = %v, want exit status 2", err)
	}
	for _, want := range []string{`site "` + dir + `" is not configured`, "sites: default", "--dir " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
