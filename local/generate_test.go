package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
)

const generateSite = `
-- cms.config.yaml --
watch: none
-- resources/collections/blog.yaml --
title: Blog
-- resources/blueprints/collections/blog.yaml --
tabs:
  main:
    fields:
      - handle: summary
        field: {type: text, validate: ["max:10"]}
-- content/collections/blog/hello.md --
---
title: Hello
status: published
---
Hi
`

// TestGenerateCheck: a first run writes the output with its summary line; --check then passes
// (exit 0) and writes nothing; after a blueprint change --check exits 1 naming the files that
// would change and still writes nothing; a file the user keeps in the folder is never removed.
func TestGenerateCheck(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, generateSite)
	out := filepath.Join(dir, ".cms", "generated")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(keep, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, err := runCmd(t, nil, "generate", "--site", dir)
	if err != nil {
		t.Fatalf("generate: %v\n%s", err, stdout)
	}
	if !strings.Contains(stdout, "1 blueprint(s), ") || !strings.Contains(stdout, " ms ") {
		t.Errorf("summary line missing: %q", stdout)
	}
	for _, f := range []string{".gitignore", "tsconfig.paths.json", "types.ts", "schemas.ts", "client.ts", "graphql.ts", "index.ts"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(f))); err != nil {
			t.Errorf("not written: %s", f)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, ".gitignore")); string(b) != "*\n" {
		t.Errorf(".gitignore = %q", b)
	}

	stdout, err = runCmd(t, nil, "generate", "--site", dir, "--check")
	if err != nil {
		t.Fatalf("--check on fresh output: %v\n%s", err, stdout)
	}

	types := filepath.Join(out, "types.ts")
	before, _ := os.ReadFile(types)
	bp := filepath.Join(dir, "resources", "blueprints", "collections", "blog.yaml")
	if err := os.WriteFile(bp, []byte("tabs:\n  main:\n    fields:\n      - handle: subtitle\n        field: {type: text}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, err = runCmd(t, nil, "generate", "--site", dir, "--check")
	if code, ok := err.(exitError); !ok || code != 1 {
		t.Fatalf("--check after a change: error %v, want exit 1\n%s", err, stdout)
	}
	if !strings.Contains(stdout, "changed: types.ts") || !strings.Contains(stdout, "changed: schemas.ts") {
		t.Errorf("--check does not list the changed files:\n%s", stdout)
	}
	if after, _ := os.ReadFile(types); string(after) != string(before) {
		t.Error("--check wrote types.ts")
	}

	if _, err := runCmd(t, nil, "generate", "--site", dir); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(types); !strings.Contains(string(after), "subtitle?: string;") {
		t.Error("regenerating did not pick up the blueprint change")
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file the generator did not write was removed: %v", err)
	}
	if _, err := runCmd(t, nil, "generate", "--site", dir, "--check"); err != nil {
		t.Errorf("--check after regenerating: %v", err)
	}
}
