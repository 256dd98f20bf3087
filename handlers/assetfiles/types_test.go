package assetfiles_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"cms/content/assetpath"
	"cms/content/contenttest"
	"cms/handlers/assetfiles"
)

// xhtml is the payload of the stored XSS report: an XML document in the XHTML namespace whose
// script runs when a browser renders the file as a page.
const xhtml = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>fetch("/api/users",{method:"POST"})</script></body></html>`

// assetTypes lists every asset type the library knows and the document types a browser can
// render, by extension, plus files whose content a browser would sniff as a page under an
// innocent name. Only images, video, audio and PDF are shown inline.
var assetTypes = []struct {
	name   string
	inline bool
}{
	{"a.png", true}, {"a.jpg", true}, {"a.jpeg", true}, {"a.gif", true}, {"a.webp", true},
	{"a.avif", true}, {"a.ico", true}, {"UPPER.PNG", true}, {"a.pdf", true},
	{"a.mp4", true}, {"a.webm", true}, {"a.mov", true}, {"a.mp3", true}, {"a.wav", true}, {"a.ogg", true},
	// Documents a browser renders (and runs scripts in) when opened.
	{"a.svg", false}, {"a.svgz", false}, {"a.xml", false}, {"UPPER.XML", false}, {"a.xsl", false},
	{"a.xslt", false}, {"a.xhtml", false}, {"a.xht", false}, {"a.html", false}, {"a.htm", false},
	{"a.shtml", false}, {"a.mht", false}, {"a.mhtml", false}, {"a.rss", false}, {"a.atom", false},
	{"a.rdf", false}, {"a.xsd", false}, {"a.dtd", false}, {"a.mml", false}, {"a.xul", false},
	{"a.hta", false}, {"a.swf", false},
	// Scripts, text and data.
	{"a.js", false}, {"a.mjs", false}, {"a.cjs", false}, {"a.css", false}, {"a.json", false},
	{"a.txt", false}, {"a.csv", false}, {"a.md", false}, {"a.zip", false}, {"a.tar", false},
	{"a.gz", false}, {"a.doc", false}, {"a.docx", false}, {"a.xls", false}, {"a.xlsx", false},
	{"a.woff", false}, {"a.woff2", false}, {"a.ttf", false}, {"a.otf", false},
	{"a.weird", false}, {"noextension", false}, {"trailingdot.", false},
}

// sniffed are pages under names that do not say so; nosniff keeps them what their
// name says.
var sniffed = []struct {
	name   string
	inline bool
}{
	{"page-as.png", true}, {"page-as.jpg", true}, {"page-as.pdf", true}, {"page-as.mp4", true},
	{"page-as.txt", false}, {"page-as.weird", false}, {"page-as", false}, {"page-as.json", false},
}

func typesHandler(t *testing.T) http.Handler {
	t.Helper()
	var site strings.Builder
	for _, c := range slices.Concat(assetTypes, sniffed) {
		site.WriteString("-- public/assets/" + c.name + " --\n" + xhtml + "\n")
	}
	site.WriteString("-- public/assets/a.png.meta.yaml --\nalt: x\n")
	h, err := assetfiles.New(assetfiles.Deps{Store: contenttest.OpenStore(t, contenttest.WriteSite(t, site.String()))})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// checkSandbox asserts the headers every /assets response carries: nosniff, and a CSP that
// sandboxes the document (no scripts, no same-origin access, no forms, no pop-ups) and loads
// nothing from elsewhere. Images, video and audio may load themselves ('self' media), which is
// how a browser's own viewer page shows them.
func checkSandbox(t *testing.T, what string, h http.Header, media bool) {
	t.Helper()
	if got := h.Values("X-Content-Type-Options"); len(got) != 1 || got[0] != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options = %q, want nosniff", what, got)
	}
	csps := h.Values("Content-Security-Policy")
	if len(csps) != 1 {
		t.Fatalf("%s: Content-Security-Policy = %q, want exactly one", what, csps)
	}
	directives := map[string]string{}
	for d := range strings.SplitSeq(csps[0], ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = strings.TrimSpace(value)
	}
	want := map[string]string{"default-src": "'none'", "style-src": "'unsafe-inline'", "sandbox": ""}
	if media {
		want["img-src"], want["media-src"] = "'self'", "'self'"
	}
	if len(directives) != len(want) {
		t.Errorf("%s: CSP %q, want exactly the directives %v", what, csps[0], want)
	}
	for k, v := range want {
		if got, ok := directives[k]; !ok || got != v {
			t.Errorf("%s: CSP %q: %s = %q, want %q", what, csps[0], k, got, v)
		}
	}
}

// TestEveryTypeIsSandboxed is the regression test of the stored XSS through .xml uploads: every
// response of /assets, whatever the file's type or content and whatever the status, carries
// nosniff and a sandboxing CSP, and only images, video, audio and PDF are shown inline.
func TestEveryTypeIsSandboxed(t *testing.T) {
	t.Parallel()
	h := typesHandler(t)
	for _, c := range slices.Concat(assetTypes, sniffed) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			target := "/assets/" + c.name
			wantDisp := `attachment; filename="` + c.name + `"`
			if c.inline {
				wantDisp = `inline; filename="` + c.name + `"`
			}
			full := get(h, "GET", target, nil)
			if full.Code != 200 || full.Body.String() != xhtml+"\n" {
				t.Fatalf("GET = %d %q", full.Code, full.Body)
			}
			if ct := full.Header().Get("Content-Type"); ct != assetpath.MIMEType(c.name) {
				t.Errorf("Content-Type = %q, want %q, the type of the name, never sniffed", ct, assetpath.MIMEType(c.name))
			}
			etag := full.Header().Get("ETag")
			for _, r := range []struct {
				what   string
				method string
				hdr    http.Header
				status int
			}{
				{"GET", "GET", nil, 200},
				{"HEAD", "HEAD", nil, 200},
				{"Range", "GET", http.Header{"Range": {"bytes=0-4"}}, 206},
				{"If-None-Match", "GET", http.Header{"If-None-Match": {etag}}, 304},
				{"unsatisfiable Range", "GET", http.Header{"Range": {"bytes=100000-"}}, 416},
				{"public API path", "GET", nil, 200},
			} {
				u := target
				if r.what == "public API path" {
					u = "/api/public" + target
				}
				w := get(h, r.method, u, r.hdr)
				if w.Code != r.status {
					t.Errorf("%s = %d, want %d", r.what, w.Code, r.status)
				}
				checkSandbox(t, r.what, w.Header(), c.inline)
				if r.status < 300 {
					if got := w.Header().Get("Content-Disposition"); got != wantDisp {
						t.Errorf("%s: Content-Disposition = %q, want %q", r.what, got, wantDisp)
					}
				}
			}
		})
	}
}

// TestErrorResponsesAreSandboxed covers the responses of /assets that are not a file: missing
// files, sidecars, hidden names, folders, traversal, a wrong method and the mux's redirect of an
// unclean path. A browser renders them too.
func TestErrorResponsesAreSandboxed(t *testing.T) {
	t.Parallel()
	h := typesHandler(t)
	for _, c := range []struct {
		method, target string
		status         int
	}{
		{"GET", "/assets/missing.xml", 404},
		{"GET", "/assets/a.png.meta.yaml", 404},
		{"GET", "/assets/.hidden.svg", 404},
		{"GET", "/assets/", 404},
		{"GET", "/assets/..%2fusers%2fadmin.yaml", 404},
		{"HEAD", "/assets/missing.html", 404},
		{"POST", "/assets/a.xml", 405},
		{"DELETE", "/api/public/assets/a.svg", 405},
		{"GET", "/assets/x/../a.xml", http.StatusTemporaryRedirect},
		{"GET", "/api/public/assets/missing.svg", 404},
	} {
		w := get(h, c.method, c.target, nil)
		if w.Code != c.status {
			t.Errorf("%s %s = %d, want %d", c.method, c.target, w.Code, c.status)
		}
		checkSandbox(t, c.method+" "+c.target, w.Header(), false)
	}
}
