package fsstore_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
)

func mapOf(kv ...any) *content.Map {
	m := content.NewMap(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGlobalReadWrite(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- content/globals/site.yaml --
site_name: Old
tagline: Hi
-- content/globals/broken.yaml --
a: [
`)
	st := contenttest.OpenStore(t, dir)

	missing, err := st.Global("nothing")
	if err != nil || missing.Exists || missing.Data.Len() != 0 || missing.Hash != content.EmptyHash {
		t.Fatalf("missing global = %+v, %v; want empty doc", missing, err)
	}
	if _, err := st.Global("../users/admin"); !content.IsNotFound(err) {
		t.Errorf("Global(traversal) err = %v, want NotFound", err)
	}
	if _, err := st.Global("broken"); content.KindOf(err) != content.Internal || err == nil {
		t.Errorf("Global(broken) err = %v, want Internal", err)
	}

	doc, err := st.Global("site")
	if err != nil || !doc.Exists {
		t.Fatalf("Global(site) = %+v, %v", doc, err)
	}
	// New keys are appended, existing keys keep their place, dropped keys go.
	next := mapOf("extra", "x", "site_name", "New")
	if _, err := st.SaveGlobal("site", next, "stale"); content.KindOf(err) != content.Conflict {
		t.Fatalf("SaveGlobal(stale hash) err = %v, want Conflict", err)
	} else if ce, _ := errors.AsType[*content.Error](err); ce.Details.(fsstore.ConflictDetails).CurrentHash != doc.Hash {
		t.Errorf("conflict details = %+v, want current hash %s", ce.Details, doc.Hash)
	}
	saved, err := st.SaveGlobal("site", next, doc.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, dir, "content/globals/site.yaml"), "site_name: New\nextra: x\n"; got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
	if saved.Hash == doc.Hash || !saved.Exists {
		t.Errorf("saved doc = %+v", saved)
	}
	handles, err := st.GlobalDataHandles()
	if err != nil || strings.Join(handles, ",") != "broken,site" {
		t.Errorf("GlobalDataHandles = %v, %v", handles, err)
	}
	// A missing file can be guarded with EmptyHash.
	if _, err := st.SaveGlobal("fresh", mapOf("a", int64(1)), content.EmptyHash); err != nil {
		t.Errorf("SaveGlobal(fresh, EmptyHash) = %v", err)
	}
}

func TestSettingsUpdate(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- content/settings.yaml --\nsite_name: S\nlocale: en\n")
	st := contenttest.OpenStore(t, dir)
	doc, err := st.Settings()
	if err != nil || doc.Data.Value("site_name") != "S" {
		t.Fatalf("Settings = %+v, %v", doc, err)
	}
	_, err = st.UpdateSettings("", func(cur *content.Map) (*content.Map, error) {
		cur.Set("timezone", "UTC")
		cur.Set("site_name", "T")
		return cur, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := readFile(t, dir, "content/settings.yaml"), "site_name: T\nlocale: en\ntimezone: UTC\n"; got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
	refused := errors.New("no")
	if _, err := st.UpdateSettings("", func(*content.Map) (*content.Map, error) { return nil, refused }); !errors.Is(err, refused) {
		t.Errorf("update error = %v, want it returned", err)
	}
	if _, err := st.UpdateSettings("bad", func(m *content.Map) (*content.Map, error) { return m, nil }); content.KindOf(err) != content.Conflict {
		t.Errorf("stale hash err = %v, want Conflict", err)
	}
}
