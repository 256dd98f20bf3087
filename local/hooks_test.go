package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/hooks/hooktest"
)

func TestHooksPushListAndCheck(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- cms.config.yaml --
watch: none
-- resources/forms/contact.yaml --
blueprint: contact
-- resources/blueprints/forms/contact.yaml --
fields:
  - handle: email
    field: {type: text, validate: [email, 'hook:gate']}
-- resources/collections/blog.yaml --
title: Blog
-- resources/blueprints/collections/blog.yaml --
fields:
  - handle: vat
    field: {type: text, validate: ['hook:vat:EU']}
`)
	env := map[string]string{"CMS_HOOKS_CACHE_DIR": t.TempDir()}
	write := func(name string, b []byte) string {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	// Hooks named by blueprints but not installed fail cms check.
	out, err := runCmd(t, env, "check", "--site", dir)
	if err == nil || !strings.Contains(out, "resources/blueprints/forms/contact.yaml: validation hook(s) gate not installed") ||
		!strings.Contains(out, "resources/blueprints/collections/blog.yaml: validation hook(s) vat not installed") {
		t.Errorf("check before push: %v\n%s", err, out)
	}

	out, err = runCmd(t, env, "hooks", "list", "--site", dir)
	if err != nil || !strings.Contains(out, "no hooks installed") {
		t.Errorf("list: %v\n%s", err, out)
	}
	// A module that breaks the ABI is refused with the reason, and nothing is written.
	bad := write("bad.wasm", hooktest.Module{Response: hooktest.Valid, ImportEnv: true}.Bytes())
	out, err = runCmd(t, env, "hooks", "push", "--site", dir, "gate", bad)
	if err == nil || !strings.Contains(out, "Hook module rejected") || !strings.Contains(out, "env") {
		t.Errorf("push of a bad module: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "resources/hooks/gate.wasm")); !os.IsNotExist(err) {
		t.Errorf("a refused module was written: %v", err)
	}
	garbage := write("garbage.wasm", []byte("not wasm"))
	if out, err = runCmd(t, env, "hooks", "push", "--site", dir, "gate", garbage); err == nil || !strings.Contains(out, "not a WebAssembly module") {
		t.Errorf("push of garbage: %v\n%s", err, out)
	}
	if _, err = runCmd(t, env, "hooks", "push", "--site", dir, "Bad.Name", garbage); err == nil {
		t.Errorf("push with a bad name: no error")
	}

	good := write("good.wasm", hooktest.Answer(hooktest.Valid))
	for _, name := range []string{"gate", "vat"} {
		out, err = runCmd(t, env, "hooks", "push", "--site", dir, name, good)
		if err != nil || !strings.Contains(out, "installed hook "+name) {
			t.Fatalf("push %s: %v\n%s", name, err, out)
		}
	}
	out, err = runCmd(t, env, "hooks", "push", "--site", dir, "gate", good)
	if err != nil || !strings.Contains(out, "replaced hook gate") {
		t.Errorf("second push: %v\n%s", err, out)
	}
	out, err = runCmd(t, env, "hooks", "list", "--site", dir)
	if err != nil || !strings.Contains(out, "gate") || !strings.Contains(out, "vat") || !strings.Contains(out, "cli") {
		t.Errorf("list: %v\n%s", err, out)
	}
	out, err = runCmd(t, env, "check", "--site", dir)
	if err != nil {
		t.Errorf("check after push: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"hooks"}, {"hooks", "push", "--site", dir, "gate"}, {"hooks", "frob"}} {
		if _, err := runCmd(t, env, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestCheckReportsBlueprintErrors(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- cms.config.yaml --
watch: none
-- resources/forms/upload.yaml --
blueprint: upload
-- resources/blueprints/forms/upload.yaml --
fields:
  - handle: cv
    field: {type: asset, required: true}
  - handle: kind
    field: {type: bogus}
-- resources/forms/orphan.yaml --
blueprint: nowhere
-- resources/blueprints/globals/site.yaml --
fields:
  - handle: n
    field: {type: number, validate: ['min:x']}
`)
	out, err := runCmd(t, nil, "check", "--site", dir)
	if err == nil {
		t.Fatalf("check passed a broken site:\n%s", out)
	}
	for _, want := range []string{
		"resources/blueprints/forms/upload.yaml: tabs.main.fields[0].field.required:",
		"(UNSUPPORTED_PUBLIC_FORM_FIELDS)",
		"resources/blueprints/forms/upload.yaml: tabs.main.fields[1].field.type:",
		"resources/blueprints/globals/site.yaml: tabs.main.fields[0].field.validate[0]:",
		"resources/forms/orphan.yaml: blueprint \"nowhere\" is missing",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestHooksPushOverLimits pushes modules that would kill the process (2^32-1 locals) or hold a
// core for seconds (40,000 nested blocks) if they were compiled: each is refused with the
// limit named, and nothing is written.
func TestHooksPushOverLimits(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- cms.config.yaml --
watch: none
`)
	env := map[string]string{"CMS_HOOKS_CACHE_DIR": t.TempDir()}
	for _, m := range []struct{ file, limit string }{
		{"locals-4g", "locals per function"},
		{"locals-50m", "locals per function"},
		{"nested", "nested blocks per function"},
		{"branches", "compile cost per function"},
		{"table-grow", "elements per table"},
	} {
		file := filepath.Join("..", "wasmhooks", "testdata", "limits", m.file+".wasm")
		out, err := runCmd(t, env, "hooks", "push", "--site", dir, "gate", file)
		if err == nil || !strings.Contains(out, "Hook module rejected: module exceeds a limit: ") || !strings.Contains(out, "; the limit is ") ||
			!strings.Contains(out, " "+m.limit+"\n") {
			t.Errorf("push of %s: %v\n%s", m.file, err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "resources/hooks/gate.wasm")); !os.IsNotExist(err) {
		t.Errorf("a refused module was written: %v", err)
	}
}
