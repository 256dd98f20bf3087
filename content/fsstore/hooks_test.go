package fsstore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
)

func TestValidHookName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"no-disposable-email":   true,
		"vat_number":            true,
		"a":                     true,
		"0":                     true,
		strings.Repeat("a", 64): true,
		strings.Repeat("a", 65): false,
		"":                      false,
		"-a":                    false,
		"_a":                    false,
		"Upper":                 false,
		"a.b":                   false,
		"../x":                  false,
		"a b":                   false,
	} {
		if got := content.ValidHookName(name); got != want {
			t.Errorf("ValidHookName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestHookLifecycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := contenttest.OpenStore(t, dir)
	sha := strings.Repeat("ab", 32)
	h := content.Hook{Name: "vat", SHA256: sha, Size: 4, UploadedBy: "ada", UploadedAt: "2026-01-02T03:04:05.000Z", ABIVersion: 1}
	if _, err := st.HookMeta("vat"); !content.IsNotFound(err) {
		t.Fatalf("before upload: err = %v, want NotFound", err)
	}
	replaced, err := st.PutHook(h, []byte("\x00asm"))
	if err != nil || replaced {
		t.Fatalf("PutHook = %v, %v", replaced, err)
	}
	got, err := st.HookMeta("vat")
	if err != nil || *got != h {
		t.Fatalf("HookMeta = %+v, %v; want %+v", got, err, h)
	}
	mod, err := st.HookModule("vat")
	if err != nil || !bytes.Equal(mod, []byte("\x00asm")) {
		t.Errorf("HookModule = %q, %v", mod, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "resources/hooks/vat.meta.yaml")); err != nil {
		t.Errorf("metadata file: %v", err)
	}
	h.UploadedBy = "grace"
	if replaced, err := st.PutHook(h, []byte("\x00asm2")); err != nil || !replaced {
		t.Errorf("second PutHook = %v, %v; want replaced", replaced, err)
	}
	if _, err := st.PutHook(content.Hook{Name: "../evil", SHA256: sha}, nil); content.KindOf(err) != content.Invalid {
		t.Errorf("bad name: err = %v, want Invalid", err)
	}
	list, err := st.Hooks()
	if err != nil || len(list) != 1 || list[0].UploadedBy != "grace" {
		t.Errorf("Hooks = %+v, %v", list, err)
	}
	if err := st.DeleteHook("vat"); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteHook("vat"); !content.IsNotFound(err) {
		t.Errorf("second delete: err = %v, want NotFound", err)
	}
	if _, err := st.HookModule("vat"); !content.IsNotFound(err) {
		t.Errorf("module after delete: err = %v, want NotFound", err)
	}
	if list, err := st.Hooks(); err != nil || len(list) != 0 {
		t.Errorf("Hooks after delete = %+v, %v", list, err)
	}
}

func TestHooksSkipsBrokenMetadata(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- resources/hooks/good.meta.yaml --
sha256: `+strings.Repeat("0a", 32)+`
size: 10
uploadedBy: cli
uploadedAt: "2026-01-01T00:00:00.000Z"
abiVersion: 1
-- resources/hooks/bad.meta.yaml --
sha256: short
-- resources/hooks/Upper.meta.yaml --
sha256: `+strings.Repeat("0a", 32)+`
`)
	st := contenttest.OpenStore(t, dir)
	list, err := st.Hooks()
	if err != nil || len(list) != 1 || list[0].Name != "good" || list[0].Size != 10 {
		t.Errorf("Hooks = %+v, %v", list, err)
	}
	if _, err := st.HookMeta("bad"); content.KindOf(err) != content.Invalid {
		t.Errorf("bad metadata: err = %v, want Invalid", err)
	}
}
