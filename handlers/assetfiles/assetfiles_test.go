package assetfiles_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/assetfiles"
)

const site = `
-- public/assets/logo.png --
PNGDATA
-- public/assets/logo.png.meta.yaml --
alt: The logo
-- public/assets/icon.svg --
<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>
-- public/assets/page.html --
<script>alert(1)</script>
-- public/assets/data.weird --
bytes
-- public/assets/docs/Grüße "1".pdf --
%PDF
-- public/assets/.hidden --
hidden
-- users/admin.yaml --
email: SECRET-admin@example.com
`

const secret = "SECRET"

func newHandler(t testing.TB) (http.Handler, string) {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	h, err := assetfiles.New(assetfiles.Deps{Store: contenttest.OpenStore(t, dir), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return h, dir
}

func get(h http.Handler, method, target string, hdr http.Header) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestServe(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		method      string
		target      string
		wantStatus  int
		wantType    string
		wantDisp    string
		wantCSP     bool // the strict policy; inline media have their own (types_test.go)
		wantBody    string
		wantContain string
	}{
		{"image", "GET", "/assets/logo.png", 200, "image/png", `inline; filename="logo.png"`, false, "PNGDATA\n", ""},
		{"public api path", "GET", "/api/public/assets/logo.png", 200, "image/png", `inline; filename="logo.png"`, false, "PNGDATA\n", ""},
		{"head", "HEAD", "/assets/logo.png", 200, "image/png", `inline; filename="logo.png"`, false, "", ""},
		{"svg is a sandboxed download", "GET", "/assets/icon.svg", 200, "image/svg+xml", `attachment; filename="icon.svg"`, true, "", "<svg"},
		{"html is a sandboxed download", "GET", "/assets/page.html", 200, "text/html", `attachment; filename="page.html"`, true, "", ""},
		{"unknown type is a download", "GET", "/assets/data.weird", 200, "application/octet-stream", `attachment; filename="data.weird"`, true, "bytes\n", ""},
		{"unicode name", "GET", "/assets/docs/" + url.PathEscape(`Grüße "1".pdf`), 200, "application/pdf", `inline; filename="Gr__e _1_.pdf"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%221%22.pdf`, false, "%PDF\n", ""},
		{"sidecar never served", "GET", "/assets/logo.png.meta.yaml", 404, "", "", false, "", ""},
		{"hidden file", "GET", "/assets/.hidden", 404, "", "", false, "", ""},
		{"folder", "GET", "/assets/docs", 404, "", "", false, "", ""},
		{"folder slash", "GET", "/assets/docs/", 404, "", "", false, "", ""},
		{"root", "GET", "/assets/", 404, "", "", false, "", ""},
		{"missing", "GET", "/assets/nope.png", 404, "", "", false, "", ""},
		{"encoded slash traversal", "GET", "/assets/..%2fusers%2fadmin.yaml", 404, "", "", false, "", ""},
		{"encoded dots inside", "GET", "/assets/docs%2f%2e%2e%2f%2e%2e%2fusers/admin.yaml", 404, "", "", false, "", ""},
		{"backslash", "GET", "/assets/docs%5c..%5c..%5cusers%5cadmin.yaml", 404, "", "", false, "", ""},
		{"wrong method", "POST", "/assets/logo.png", 405, "", "", false, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, _ := newHandler(t)
			w := get(h, c.method, c.target, nil)
			if strings.Contains(w.Body.String(), secret) {
				t.Fatalf("served a file outside the assets folder: %s", w.Body)
			}
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantStatus != 200 {
				if w.Code != 405 && !strings.Contains(w.Body.String(), `"code":"NOT_FOUND"`) {
					t.Errorf("body = %s, want a NOT_FOUND envelope", w.Body)
				}
				return
			}
			hd := w.Header()
			if hd.Get("Content-Type") != c.wantType || hd.Get("X-Content-Type-Options") != "nosniff" || hd.Get("Content-Disposition") != c.wantDisp {
				t.Errorf("headers = %v", hd)
			}
			if csp := hd.Get("Content-Security-Policy"); c.wantCSP != (csp == "default-src 'none'; style-src 'unsafe-inline'; sandbox") {
				t.Errorf("CSP = %q, want it: %v", csp, c.wantCSP)
			}
			if hd.Get("ETag") == "" || hd.Get("Last-Modified") == "" {
				t.Errorf("no ETag or Last-Modified: %v", hd)
			}
			if c.wantBody != "" && w.Body.String() != c.wantBody {
				t.Errorf("body = %q, want %q", w.Body, c.wantBody)
			}
			if !strings.Contains(w.Body.String(), c.wantContain) {
				t.Errorf("body = %q, want it to contain %q", w.Body, c.wantContain)
			}
		})
	}
}

func TestDotDotNeverEscapes(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	for _, target := range []string{"/assets/../users/admin.yaml", "/assets/%2e%2e/users/admin.yaml", "/assets/docs/../../users/admin.yaml", "/api/public/assets/../../../users/admin.yaml", "/assets//etc/passwd", "/assets/docs//../../users/admin.yaml"} {
		w := get(h, "GET", target, nil)
		if w.Code == 200 || strings.Contains(w.Body.String(), secret) {
			t.Errorf("GET %s = %d %s", target, w.Code, w.Body)
		}
	}
}

func TestSymlinkOutOfAssets(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t)
	if err := os.Symlink("../../users/admin.yaml", filepath.Join(dir, "public/assets/admin.txt")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if w := get(h, "GET", "/assets/admin.txt", nil); w.Code != 404 || strings.Contains(w.Body.String(), secret) {
		t.Errorf("GET through a symlink = %d %s", w.Code, w.Body)
	}
}

func TestConditionalAndRange(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	first := get(h, "GET", "/assets/logo.png", nil)
	etag := first.Header().Get("ETag")
	if w := get(h, "GET", "/assets/logo.png", http.Header{"If-None-Match": {etag}}); w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match = %d, want 304", w.Code)
	}
	if w := get(h, "GET", "/assets/logo.png", http.Header{"If-Modified-Since": {first.Header().Get("Last-Modified")}}); w.Code != http.StatusNotModified {
		t.Errorf("If-Modified-Since = %d, want 304", w.Code)
	}
	if w := get(h, "GET", "/assets/logo.png", http.Header{"Range": {"bytes=0-2"}}); w.Code != http.StatusPartialContent || w.Body.String() != "PNG" {
		t.Errorf("Range = %d %q, want 206 PNG", w.Code, w.Body)
	}
}

func TestNewRequiresStore(t *testing.T) {
	t.Parallel()
	if _, err := assetfiles.New(assetfiles.Deps{}); err == nil {
		t.Fatal("New without a store succeeded")
	}
	if got := assetfiles.Prefixes("/pub/"); got[0] != "/assets/" || got[1] != "/pub/assets/" {
		t.Errorf("Prefixes = %v", got)
	}
}

// FuzzServePath requests arbitrary paths: nothing outside the assets folder, no sidecar and no
// hidden file is ever served, and nothing is a server error.
func FuzzServePath(f *testing.F) {
	for _, s := range []string{"logo.png", "../users/admin.yaml", "%2e%2e/users/admin.yaml", "logo.png.meta.yaml", ".hidden", "docs/", "a\x00b", `docs\..\..\users\admin.yaml`} {
		f.Add(s)
	}
	h, _ := newHandler(f)
	f.Fuzz(func(t *testing.T, p string) {
		target := "/assets/" + p
		if _, err := url.ParseRequestURI(target); err != nil || strings.ContainsAny(p, " \t\r\n#?") {
			target = "/assets/" + url.PathEscape(p)
		}
		w := get(h, "GET", target, nil)
		body := w.Body.String()
		if w.Code >= 500 || strings.Contains(body, secret) || strings.Contains(body, "alt: The logo") || strings.Contains(body, "hidden\n") {
			t.Fatalf("GET %q = %d %s", target, w.Code, body)
		}
	})
}
