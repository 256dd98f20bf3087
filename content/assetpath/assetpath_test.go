package assetpath_test

import (
	"io/fs"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"cms/content/assetpath"
)

func TestClean(t *testing.T) {
	t.Parallel()
	ok := map[string]string{"": "", "/": "", "a.png": "a.png", "img/a b.png": "img/a b.png", "img/": "img", "ü/ß.txt": "ü/ß.txt"}
	for in, want := range ok {
		if got, err := assetpath.Clean(in); err != nil || got != want {
			t.Errorf("Clean(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"../x", "a/../../x", "..", ".", "./a", "/etc/passwd", `a\b`, "a\x00b", "a//b", ".env", "img/.hidden",
		"a.png.meta.yaml", "a\nb", "\xff", strings.Repeat("a", 1025), strings.Repeat("a", 201)} {
		if got, err := assetpath.Clean(in); err == nil {
			t.Errorf("Clean(%q) = %q, want an error", in, got)
		}
	}
}

func FuzzClean(f *testing.F) {
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
			t.Fatalf("Clean(%q) accepted %q", p, c)
		}
		if again, err := assetpath.Clean(c); err != nil || again != c {
			t.Fatalf("Clean is not idempotent on %q: %q, %v", c, again, err)
		}
	})
}

func TestSanitize(t *testing.T) {
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
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
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

func TestMIMEType(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"a.PNG": "image/png", "b.svg": "image/svg+xml", "c": "application/octet-stream", "d.weird": "application/octet-stream", "e.mov": "video/quicktime"} {
		if got := assetpath.MIMEType(in); got != want {
			t.Errorf("MIMEType(%q) = %q, want %q", in, got, want)
		}
	}
	if !assetpath.IsActive("x.HTML") || !assetpath.IsActive("y.mjs") || assetpath.IsActive("z.svg") {
		t.Error("IsActive is wrong")
	}
}
