package hookrun_test

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/wasmhooks/hookrun"
)

// The one check behind the forms group's start-up log and `cms check`: forms without a
// blueprint, and blueprints of the asked kinds calling hooks that are not installed.
func TestProblems(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/forms/contact.yaml --
blueprint: contact
-- resources/blueprints/forms/contact.yaml --
fields:
  - handle: email
    field: {type: text, validate: ['hook:gate', 'hook:zip', 'hook:ok']}
-- resources/forms/orphan.yaml --
blueprint: nothing
-- resources/blueprints/collections/blog.yaml --
fields:
  - handle: vat
    field: {type: text, validate: ['hook:vat']}
`)
	st := contenttest.OpenStore(t, dir)
	wasm := []byte("\x00asm")
	sum := sha256.Sum256(wasm)
	if _, err := st.PutHook(content.Hook{Name: "ok", SHA256: hex.EncodeToString(sum[:]), Size: int64(len(wasm))}, wasm); err != nil {
		t.Fatal(err)
	}
	got := func(kinds ...string) []fsstore.Problem { return hookrun.Problems(st, kinds...) }
	orphan := fsstore.Problem{File: st.ResourcePath("forms", "orphan.yaml"),
		Message: `blueprint "nothing" is missing or does not load: the form answers 500 FORM_MISCONFIGURED`}
	contact := fsstore.Problem{File: st.ResourcePath("blueprints", "forms", "contact.yaml"),
		Message: "validation hook(s) gate, zip not installed: saves and submissions get 503 HOOK_UNAVAILABLE (install with cms hooks push)"}
	blog := fsstore.Problem{File: st.ResourcePath("blueprints", "collections", "blog.yaml"),
		Message: "validation hook(s) vat not installed: saves and submissions get 503 HOOK_UNAVAILABLE (install with cms hooks push)"}
	if p := got(content.BlueprintForms); !slices.Equal(p, []fsstore.Problem{orphan, contact}) {
		t.Errorf("forms only:\n got %v\nwant %v", p, []fsstore.Problem{orphan, contact})
	}
	if p := got(content.BlueprintCollections, content.BlueprintForms); !slices.Equal(p, []fsstore.Problem{orphan, blog, contact}) {
		t.Errorf("collections and forms:\n got %v\nwant %v", p, []fsstore.Problem{orphan, blog, contact})
	}
}
