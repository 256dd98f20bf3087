package fsstore_test

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"cms/content"
	"cms/content/assetpath"
	"cms/content/contenttest"
)

func TestCleanAssetPath(t *testing.T) {
	t.Parallel()
	ok := map[string]string{"": "", "/": "", "a.png": "a.png", "img/a b.png": "img/a b.png", "img/": "img", "ü/ß.txt": "ü/ß.txt"}
	for in, want := range ok {
		if got, err := assetpath.Clean(in); err != nil || got != want {
			t.Errorf("CleanAssetPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"../x", "a/../../x", "..", ".", "./a", "/etc/passwd", `a\b`, "a\x00b", "a//b", ".env", "img/.hidden",
		"a.png.meta.yaml", "a\nb", "\xff", strings.Repeat("a", 1025), strings.Repeat("a", 201)} {
		if got, err := assetpath.Clean(in); err == nil {
			t.Errorf("CleanAssetPath(%q) = %q, want an error", in, got)
		}
	}
}

func FuzzAssetPath(f *testing.F) {
	for _, s := range []string{"a.png", "img/x.jpg", "../x", "%2e%2e/x", "/abs", `a\b`, "a/./b", ".git/config", "x.meta.yaml", "ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		c, err := assetpath.Clean(p)
		if err != nil {
			return
		}
		if c == "" {
			return
		}
		if !fs.ValidPath(c) || path.Clean(c) != c || !utf8.ValidString(c) || strings.ContainsAny(c, "\\\x00") ||
			strings.HasSuffix(c, assetpath.MetaSuffix) || strings.HasPrefix(c, ".") || strings.Contains(c, "/.") {
			t.Fatalf("CleanAssetPath(%q) accepted %q", p, c)
		}
		if again, err := assetpath.Clean(c); err != nil || again != c {
			t.Fatalf("CleanAssetPath is not idempotent on %q: %q, %v", c, again, err)
		}
	})
}

func TestSanitizeAssetName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"photo.JPG":               "photo.JPG",
		"../../etc/passwd":        "passwd",
		`C:\Users\me\cat (1).png`: "cat (1).png",
		".htaccess":               "htaccess",
		"a<b>c?.png":              "a-b-c-.png",
		"...":                     "file",
		".png":                    "png",
		"x.meta.yaml":             "x-meta.yaml",
		"Straße 1.pdf":            "Straße 1.pdf",
		"":                        "file",
	} {
		if got := assetpath.Sanitize(in); got != want {
			t.Errorf("SanitizeAssetName(%q) = %q, want %q", in, got, want)
		}
		if _, err := assetpath.Clean(assetpath.Sanitize(in)); err != nil {
			t.Errorf("sanitised %q is not a valid path: %v", in, err)
		}
	}
	long := assetpath.Sanitize(strings.Repeat("é", 300) + ".png")
	if len(long) > assetpath.MaxNameLen || !strings.HasSuffix(long, ".png") || !utf8.ValidString(long) {
		t.Errorf("long name = %q (%d bytes)", long, len(long))
	}
}

func TestAssetMIMEType(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"a.PNG": "image/png", "b.svg": "image/svg+xml", "c": "application/octet-stream", "d.weird": "application/octet-stream", "e.mov": "video/quicktime"} {
		if got := assetpath.MIMEType(in); got != want {
			t.Errorf("AssetMIMEType(%q) = %q, want %q", in, got, want)
		}
	}
	if !assetpath.IsActive("x.HTML") || !assetpath.IsActive("y.mjs") || assetpath.IsActive("z.svg") {
		t.Error("IsActiveAsset is wrong")
	}
}

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
