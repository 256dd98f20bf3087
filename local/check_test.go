package main

import (
	"strings"
	"testing"

	"cms/content/contenttest"
)

// TestCheckNavigationURLAndEntry: cms check reports each navigation item edited by hand to have
// both a url and an entry, with its file, line and path, at any depth, and a tree that does not
// parse; clean trees pass.
func TestCheckNavigationURLAndEntry(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/collections/pages.yaml --
title: Pages
route: /{slug}
-- content/collections/pages/about.md --
---
title: About
---
-- content/navigation/clean.yaml --
items:
  - label: Home
    url: /
  - label: About
    entry: pages/about
  - label: Heading
    children:
      - label: Deep
        url: /deep
-- content/navigation/broken.yaml --
items: [
-- content/navigation/main.yml --
items:
  - label: Both
    url: /about
    entry: pages/about
  - label: Group
    children:
      - label: Fine
        url: /fine
      - label: Sub
        children:
          - {label: Deep, url: /old, entry: pages/about}
`)
	out, err := runCmd(t, nil, "check", "--site", dir)
	if code, ok := err.(exitError); !ok || code != 1 {
		t.Fatalf("check: err = %v, want exit 1\n%s", err, out)
	}
	for _, want := range []string{
		"content/navigation/main.yml: line 2: items[0] has both url and entry",
		"content/navigation/main.yml: line 11: items[1].children[1].children[0] has both url and entry",
		"content/navigation/broken.yaml: line ",
		"3 problem(s) found",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "clean.yaml") {
		t.Errorf("a clean navigation was reported:\n%s", out)
	}
}
