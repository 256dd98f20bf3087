package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	for _, f := range []string{".gitignore", "tsconfig.paths.json", "types.ts", "schemas.ts", "client.ts", "graphql.ts", "index.ts", "openapi.json", "openapi.public.json", "go/cmsclient/types.go", "go/cmsclient/client.go", "jsonschema/collections/blog.schema.json"} {
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

// TestGenerateWatch: --watch generates once, then again after a blueprint changes, printing one
// summary line per run, and stops cleanly when cancelled.
func TestGenerateWatch(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, generateSite)
	ctx, cancel := context.WithCancel(t.Context())
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"generate", "--site", dir, "--watch"}, func(string) string { return "" }, strings.NewReader(""), &out, &out)
	}()
	waitFor := func(what string, ok func(string) bool) {
		t.Helper()
		// A minute is a failure guard, never a bound on how fast the watcher is.
		for deadline := time.Now().Add(time.Minute); !ok(out.String()); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				cancel()
				t.Fatalf("%s never happened; output:\n%s", what, out.String())
			}
		}
	}
	runs := func(s string) int { return strings.Count(s, " file(s) in ") }
	waitFor("the first run", func(s string) bool { return runs(s) == 1 })
	bp := filepath.Join(dir, "resources", "blueprints", "collections", "blog.yaml")
	if err := os.WriteFile(bp, []byte("tabs:\n  main:\n    fields:\n      - handle: watched\n        field: {type: toggle}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor("a run after the change", func(s string) bool { return runs(s) >= 2 })
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("watch ended with %v", err)
	}
	types, _ := os.ReadFile(filepath.Join(dir, ".cms", "generated", "types.ts"))
	if !strings.Contains(string(types), "watched?: boolean;") {
		t.Error("the regenerated types lack the new field")
	}
}
