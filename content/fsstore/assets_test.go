package fsstore_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
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
