package fsstore_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
)

func TestAssetsLifecycle(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := contenttest.OpenStore(t, dir)
	files, dirs, err := st.ListAssets("")
	if err != nil || len(files) != 0 || len(dirs) != 0 {
		t.Fatalf("ListAssets on a site without assets = %v, %v, %v", files, dirs, err)
	}
	if _, _, err := st.ListAssets("nope"); !content.IsNotFound(err) {
		t.Errorf("ListAssets(missing) err = %v, want NotFound", err)
	}
	info, err := st.SaveAsset("img/a.txt", strings.NewReader("hello"), false)
	if err != nil || info.Size != 5 || info.Path != "img/a.txt" {
		t.Fatalf("SaveAsset = %+v, %v", info, err)
	}
	if _, err := st.SaveAsset("img/a.txt", strings.NewReader("again"), false); content.KindOf(err) != content.Conflict {
		t.Errorf("SaveAsset(existing) err = %v, want Conflict", err)
	}
	if _, err := st.SaveAsset("img/a.txt", strings.NewReader("again!"), true); err != nil {
		t.Errorf("SaveAsset(overwrite) = %v", err)
	}
	if _, err := st.SaveAsset("img", strings.NewReader("x"), true); content.KindOf(err) != content.Conflict {
		t.Errorf("SaveAsset over a folder err = %v, want Conflict", err)
	}
	if _, err := st.SaveAsset("img/a.txt/b", strings.NewReader("x"), false); content.KindOf(err) != content.Conflict {
		t.Errorf("SaveAsset under a file err = %v, want Conflict", err)
	}
	if _, err := st.SaveAsset("../users/x.yaml", strings.NewReader("x"), false); content.KindOf(err) != content.Invalid {
		t.Errorf("SaveAsset(traversal) err = %v, want Invalid", err)
	}
	if err := st.SaveAssetMeta("img/a.txt", mapOf("alt", "A")); err != nil {
		t.Fatal(err)
	}
	if meta, err := st.AssetMeta("img/a.txt"); err != nil || meta.Value("alt") != "A" {
		t.Errorf("AssetMeta = %v, %v", meta, err)
	}
	files, dirs, err = st.ListAssets("img")
	if err != nil || len(files) != 1 || files[0].Name() != "a.txt" || !files[0].HasMeta || len(dirs) != 0 {
		t.Errorf("ListAssets(img) = %+v, %v, %v (sidecar must not be listed)", files, dirs, err)
	}
	if created, err := st.CreateAssetFolder("docs/2026"); !created || err != nil {
		t.Errorf("CreateAssetFolder = %v, %v", created, err)
	}
	if created, err := st.CreateAssetFolder("docs/2026"); created || err != nil {
		t.Errorf("CreateAssetFolder again = %v, %v; want false, nil", created, err)
	}
	if _, err := st.CreateAssetFolder("img/a.txt"); content.KindOf(err) != content.Conflict {
		t.Errorf("CreateAssetFolder over a file err = %v, want Conflict", err)
	}
	moved, err := st.MoveAsset("img/a.txt", "docs/2026/b.txt")
	if err != nil || moved.Path != "docs/2026/b.txt" {
		t.Fatalf("MoveAsset = %+v, %v", moved, err)
	}
	if meta, _ := st.AssetMeta("docs/2026/b.txt"); meta.Value("alt") != "A" {
		t.Errorf("sidecar did not move: %v", meta)
	}
	if _, err := st.MoveAsset("img/a.txt", "x.txt"); !content.IsNotFound(err) {
		t.Errorf("MoveAsset(missing) err = %v, want NotFound", err)
	}
	if _, err := st.MoveAsset("docs", "docs/2026/inner"); content.KindOf(err) != content.Conflict {
		t.Errorf("MoveAsset(into itself) err = %v, want Conflict", err)
	}
	if err := st.DeleteAsset("docs"); content.KindOf(err) != content.Conflict {
		t.Errorf("DeleteAsset(non-empty folder) err = %v, want Conflict", err)
	}
	f, fi, err := st.OpenAsset("docs/2026/b.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if string(b) != "again!" || fi.Size != 6 {
		t.Errorf("OpenAsset read %q, %+v", b, fi)
	}
	if _, _, err := st.OpenAsset("docs"); !content.IsNotFound(err) {
		t.Errorf("OpenAsset(folder) err = %v, want NotFound", err)
	}
	if err := st.DeleteAsset("docs/2026/b.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "public/assets/docs/2026/b.txt.meta.yaml")); !os.IsNotExist(err) {
		t.Errorf("sidecar left behind: %v", err)
	}
	if err := st.DeleteAsset("docs/2026"); err != nil {
		t.Errorf("DeleteAsset(empty folder) = %v", err)
	}
	if err := st.DeleteAsset(""); content.KindOf(err) != content.Invalid {
		t.Errorf("DeleteAsset(root) err = %v, want Invalid", err)
	}
}

func TestAssetSymlinkEscape(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- users/admin.yaml --\nemail: a@b.c\n-- public/assets/ok.txt --\nok\n")
	if err := os.Symlink("../../users/admin.yaml", filepath.Join(dir, "public/assets/evil.txt")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	st := contenttest.OpenStore(t, dir)
	if _, _, err := st.OpenAsset("evil.txt"); !content.IsNotFound(err) {
		t.Errorf("OpenAsset(symlink out of assets) err = %v, want NotFound", err)
	}
	files, _, _ := st.ListAssets("")
	if len(files) != 1 || files[0].Path != "ok.txt" {
		t.Errorf("ListAssets = %+v, want only ok.txt", files)
	}
}

// The read paths keep the assets folder open between calls; a folder replaced on disk is read
// anew once the store checks it again (a second later, by the store's clock), and at once after
// a write through the store.
func TestAssetsFolderReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var mu sync.Mutex
	clock := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, NoSync: true, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	assets := filepath.Join(dir, "public", "assets")
	writeAsset := func(dir, name, body string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) string {
		t.Helper()
		f, _, err := st.OpenAsset(p)
		if err != nil {
			return "error: " + err.Error()
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		return string(b)
	}
	writeAsset(assets, "a.txt", "old")
	if got := read("a.txt"); got != "old" {
		t.Fatalf("a.txt = %q, want old", got)
	}
	// Move the folder away and put another in its place, as a deploy might.
	if err := os.Rename(assets, assets+".old"); err != nil {
		t.Fatal(err)
	}
	writeAsset(assets, "a.txt", "new")
	writeAsset(assets, "b.txt", "b")
	mu.Lock()
	clock = clock.Add(2 * time.Second)
	mu.Unlock()
	if got := read("a.txt"); got != "new" {
		t.Errorf("after the folder was replaced, a.txt = %q, want new", got)
	}
	if info, err := st.StatAsset("b.txt"); err != nil || info.Size != 1 {
		t.Errorf("StatAsset(b.txt) = %+v, %v", info, err)
	}
	// Replaced again, then written through the store: seen without waiting for the clock.
	if err := os.RemoveAll(assets); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SaveAsset("c.txt", strings.NewReader("c"), false); err != nil {
		t.Fatal(err)
	}
	if got := read("c.txt"); got != "c" {
		t.Errorf("c.txt saved into the new folder = %q, want c", got)
	}
	if _, err := st.StatAsset("b.txt"); !content.IsNotFound(err) {
		t.Errorf("StatAsset(b.txt) of the removed folder err = %v, want NotFound", err)
	}
}
