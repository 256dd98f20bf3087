package main

import (
	"strings"
	"testing"

	"cms/content/contenttest"
)

// A collection whose blueprint: is a list (the old format) is reported by cms check, naming the
// file.
func TestCheckReportsBlueprintList(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/blog.yaml --
title: Blog
blueprint:
  - post
  - page
-- resources/collections/pages.yaml --
title: Pages
blueprint: page
-- resources/blueprints/collections/page.yaml --
fields:
  - handle: title
    field: {type: text}
`)
	out, err := runCmd(t, nil, "check", "--site", dir)
	if code, ok := err.(exitError); !ok || code != 1 {
		t.Fatalf("check: err = %v, want exit 1\n%s", err, out)
	}
	for _, want := range []string{
		"resources/collections/blog.yaml: blueprint is a list",
		"1 problem(s) found",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "pages.yaml") {
		t.Errorf("a collection with one blueprint was reported:\n%s", out)
	}
}
