package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const mit = "MIT License\n\nCopyright (C) 2018 by Someone"

// styleMod is the shape of the style-mod line the bundler patches.
const styleMod = `export function pick(root, win) {
  ` + styleModIf + `
    return "sheet"
  }
  return root.head
}
`

// TestBuild bundles a small tree offline: style-mod is patched to adopt a constructed sheet in
// a document too, the notice lists every package with code in the bundle (sorted, tree-shaken
// ones left out) with each distinct licence text once, and the result is minified.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"entry.js":                                "import { pick } from 'style-mod/src/style-mod.js';\nimport { used } from '@scope/b';\nexport const go = (r, w) => pick(r, w) + used();\n",
		"node_modules/style-mod/package.json":     `{"name":"style-mod","version":"4.1.5","license":"MIT"}`,
		"node_modules/style-mod/LICENSE":          mit,
		"node_modules/style-mod/src/style-mod.js": styleMod,
		"node_modules/@scope/b/package.json":      `{"name":"@scope/b","version":"1.2.3","license":"MIT","module":"index.js"}`,
		"node_modules/@scope/b/LICENSE.md":        mit,
		"node_modules/@scope/b/index.js":          "import { never } from 'c';\nexport function used() { return 'b'; }\nexport function unused() { return never(); }\n",
		"node_modules/c/package.json":             `{"name":"c","version":"9.9.9","license":"ISC","main":"index.js"}`,
		"node_modules/c/index.js":                 "export function never() { return 'c'; }\n",
	})
	out := filepath.Join(t.TempDir(), "entry.js")
	if err := build(dir, "entry.js", out, false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	end := strings.Index(got, "*/")
	notice, code := got[:end], got[end:]
	for _, want := range []string{"/*! entry for the Control Panel", " *   @scope/b 1.2.3 (MIT)\n *   style-mod 4.1.5 (MIT)\n", "Licence of @scope/b, style-mod:", " * Copyright (C) 2018 by Someone"} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice lacks %q:\n%s", want, notice)
		}
	}
	if strings.Contains(notice, " c 9.9.9") {
		t.Errorf("notice names a package whose code was shaken out:\n%s", notice)
	}
	if strings.Count(notice, "MIT License") != 1 {
		t.Errorf("the shared licence text is not written once:\n%s", notice)
	}
	// Unpatched, the condition would test root.head first ("!e.head&&e.adoptedStyleSheets&&…").
	if !strings.Contains(code, ".adoptedStyleSheets&&") || strings.Contains(code, ".head&&") {
		t.Errorf("style-mod not patched:\n%s", code)
	}
	if strings.Contains(code, "\n  ") {
		t.Errorf("output not minified:\n%s", code)
	}
}

// TestBuildRefusesUnknownStyleMod: a style-mod without the line to patch fails the build (an
// update must not silently bring back the <style> element the CSP refuses); so does a package
// without a licence file.
func TestBuildRefusesUnknownStyleMod(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"entry.js":                                "export { pick } from 'style-mod/src/style-mod.js';\n",
		"node_modules/style-mod/package.json":     `{"name":"style-mod","version":"5.0.0","license":"MIT"}`,
		"node_modules/style-mod/LICENSE":          mit,
		"node_modules/style-mod/src/style-mod.js": "export function pick(root) { return root.head ? 1 : 2 }\n",
	})
	err := build(dir, "entry.js", filepath.Join(t.TempDir(), "out.js"), false)
	if err == nil || !strings.Contains(err.Error(), "style-mod") {
		t.Errorf("build with an unknown style-mod: %v, want an error naming it", err)
	}

	writeTree(t, dir, map[string]string{"node_modules/style-mod/src/style-mod.js": styleMod})
	if err := os.Remove(filepath.Join(dir, "node_modules", "style-mod", "LICENSE")); err != nil {
		t.Fatal(err)
	}
	err = build(dir, "entry.js", filepath.Join(t.TempDir(), "out.js"), false)
	if err == nil || !strings.Contains(err.Error(), "no licence file") {
		t.Errorf("build with a package without a licence: %v", err)
	}
}
