package assets_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/assets"
	"cms/handlers/web/webtest"
)

const site = `
-- public/assets/logo.png --
PNGDATA
-- public/assets/logo.png.meta.yaml --
alt: The logo
credit: Studio
-- public/assets/docs/guide.pdf --
%PDF-1.4
-- public/assets/docs/old/notes.txt --
notes
-- public/assets/.hidden --
secret
-- users/admin.yaml --
email: admin@example.com
`

// Session tokens of the callers (webtest.Auth.Add starts their sessions).
var (
	viewer  = webtest.Token("viewer")
	manager = webtest.Token("manager")
	other   = webtest.Token("other")
)

type opts struct {
	max     int64
	allowed []string
}

func newHandler(t testing.TB, o opts) (http.Handler, string) {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	auth := webtest.NewAuth(t)
	auth.Add(viewer, "v", webtest.Role("viewer", webtest.Grant("assets", "view")))
	auth.Add(manager, "m", webtest.Role("manager", webtest.Grant("assets", "view", "create", "edit", "delete")))
	auth.Add(other, "o", webtest.Role("other", webtest.Grant("globals", "view", "edit")))
	h, err := assets.New(assets.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth, Log: slog.New(slog.DiscardHandler),
		MaxUploadBytes: o.max, AllowedTypes: o.allowed})
	if err != nil {
		t.Fatal(err)
	}
	return h, dir
}

// upload is a multipart upload request.
type upload struct {
	token    string
	filename string
	data     []byte
	fields   map[string]string
	noFile   bool
	path     string
}

func (u upload) request(t testing.TB) *http.Request {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range u.fields {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if !u.noFile {
		fw, err := mw.CreateFormFile("file", u.filename)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(u.data)
	}
	mw.Close()
	p := u.path
	if p == "" {
		p = "/api/assets"
	}
	r := httptest.NewRequest("POST", p, &buf)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	if u.token != "" {
		r.Header.Set("Authorization", "Bearer "+u.token)
	}
	return r
}

func do(t testing.TB, h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	return webtest.Serve(t, h, r)
}

type errBody struct {
	Error struct {
		Code       string              `json:"code"`
		Message    string              `json:"message"`
		Fields     map[string][]string `json:"fields"`
		Constraint string              `json:"constraint"`
		Limit      string              `json:"limit"`
	} `json:"error"`
}

func TestUpload(t *testing.T) {
	t.Parallel()
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 100)...)
	cases := []struct {
		name           string
		opts           opts
		up             upload
		wantStatus     int
		wantCode       string
		wantConstraint string
		wantLimit      string
		wantPath       string
	}{
		{"unauthenticated", opts{}, upload{filename: "a.png", data: png}, 401, "AUTHENTICATION_ERROR", "", "", ""},
		{"forbidden", opts{}, upload{token: other, filename: "a.png", data: png}, 403, "AUTHORIZATION_ERROR", "", "", ""},
		{"view only", opts{}, upload{token: viewer, filename: "a.png", data: png}, 403, "AUTHORIZATION_ERROR", "", "", ""},
		{"ok", opts{}, upload{token: manager, filename: "photo.png", data: png}, 201, "", "", "", "photo.png"},
		{"madori path", opts{}, upload{token: manager, filename: "photo.png", data: png, path: "/api/assets/upload"}, 201, "", "", "", "photo.png"},
		{"into a new folder", opts{}, upload{token: manager, filename: "photo.png", data: png, fields: map[string]string{"directory": "a/b"}}, 201, "", "", "", "a/b/photo.png"},
		{"name sanitised", opts{}, upload{token: manager, filename: `..\..\evil<>.png`, data: png}, 201, "", "", "", "evil-.png"},
		{"exists", opts{}, upload{token: manager, filename: "logo.png", data: png}, 409, "CONFLICT", "", "", ""},
		{"overwrite", opts{}, upload{token: manager, filename: "logo.png", data: png, fields: map[string]string{"overwrite": "true"}}, 201, "", "", "", "logo.png"},
		{"bad overwrite", opts{}, upload{token: manager, filename: "logo.png", data: png, fields: map[string]string{"overwrite": "yes"}}, 400, "BAD_REQUEST", "", "", ""},
		{"too large by header", opts{max: 50}, upload{token: manager, filename: "big.png", data: png}, 422, "UPLOAD_FAILED", "file_size", "50B", ""},
		{"too large by body", opts{max: 1024}, upload{token: manager, filename: "big.png", data: bytes.Repeat([]byte("x"), 200<<10)}, 422, "UPLOAD_FAILED", "file_size", "1KB", ""},
		{"at the size limit", opts{max: int64(len(png))}, upload{token: manager, filename: "fits.png", data: png}, 201, "", "", "", "fits.png"},
		{"type not allowed", opts{allowed: []string{"image/*"}}, upload{token: manager, filename: "doc.pdf", data: []byte("%PDF")}, 422, "UPLOAD_FAILED", "file_type", "image/*", ""},
		{"type allowed", opts{allowed: []string{"application/pdf"}}, upload{token: manager, filename: "doc.pdf", data: []byte("%PDF")}, 201, "", "", "", "doc.pdf"},
		{"html refused", opts{}, upload{token: manager, filename: "page.html", data: []byte("<p>hi")}, 422, "VALIDATION_ERROR", "", "", ""},
		{"script refused", opts{}, upload{token: manager, filename: "x.MJS", data: []byte("alert(1)")}, 422, "VALIDATION_ERROR", "", "", ""},
		{"xslt refused", opts{}, upload{token: manager, filename: "t.xsl", data: []byte(`<?xml version="1.0"?><xsl:stylesheet/>`)}, 422, "VALIDATION_ERROR", "", "", ""},
		{"xslt refused (.xslt)", opts{}, upload{token: manager, filename: "t.XSLT", data: []byte(`<?xml version="1.0"?><xsl:stylesheet/>`)}, 422, "VALIDATION_ERROR", "", "", ""},
		{"web archive refused", opts{}, upload{token: manager, filename: "page.mht", data: []byte("MIME-Version: 1.0\r\n")}, 422, "VALIDATION_ERROR", "", "", ""},
		{"web archive refused (.mhtml)", opts{}, upload{token: manager, filename: "page.mhtml", data: []byte("MIME-Version: 1.0\r\n")}, 422, "VALIDATION_ERROR", "", "", ""},
		{"html application refused", opts{}, upload{token: manager, filename: "app.hta", data: []byte("text first\n<hta:application/>")}, 422, "VALIDATION_ERROR", "", "", ""},
		// XML is data; /assets serves it as a sandboxed download (handlers/assetfiles).
		{"xml is data", opts{}, upload{token: manager, filename: "feed.xml", data: []byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>`)}, 201, "", "", "", "feed.xml"},
		{"html disguised as image", opts{}, upload{token: manager, filename: "cat.png", data: []byte("  <html><script>alert(1)</script>")}, 422, "VALIDATION_ERROR", "", "", ""},
		{"html with unknown extension", opts{}, upload{token: manager, filename: "data.bin", data: []byte("<!DOCTYPE html><p>")}, 422, "VALIDATION_ERROR", "", "", ""},
		{"svg with a comment", opts{}, upload{token: manager, filename: "icon.svg", data: []byte(`<!-- made by hand --><svg xmlns="http://www.w3.org/2000/svg"></svg>`)}, 201, "", "", "", "icon.svg"},
		{"no file", opts{}, upload{token: manager, noFile: true, fields: map[string]string{"alt": "x"}}, 422, "VALIDATION_ERROR", "", "", ""},
		{"traversal directory", opts{}, upload{token: manager, filename: "a.png", data: png, fields: map[string]string{"directory": "../users"}}, 400, "BAD_REQUEST", "", "", ""},
		{"absolute directory", opts{}, upload{token: manager, filename: "a.png", data: png, fields: map[string]string{"directory": "/etc"}}, 400, "BAD_REQUEST", "", "", ""},
		{"hidden directory", opts{}, upload{token: manager, filename: "a.png", data: png, fields: map[string]string{"directory": ".git"}}, 400, "BAD_REQUEST", "", "", ""},
		{"directory is a file", opts{}, upload{token: manager, filename: "a.png", data: png, fields: map[string]string{"directory": "logo.png"}}, 409, "CONFLICT", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, dir := newHandler(t, c.opts)
			w := do(t, h, c.up.request(t))
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantCode != "" {
				var e errBody
				webtest.DecodeJSON(t, w, &e)
				if e.Error.Code != c.wantCode || e.Error.Constraint != c.wantConstraint || e.Error.Limit != c.wantLimit {
					t.Errorf("error = %+v, want code %s constraint %q limit %q", e.Error, c.wantCode, c.wantConstraint, c.wantLimit)
				}
				return
			}
			var body struct {
				Data struct {
					Path     string `json:"path"`
					Size     int64  `json:"size"`
					URL      string `json:"url"`
					MimeType string `json:"mimeType"`
				} `json:"data"`
			}
			webtest.DecodeJSON(t, w, &body)
			if body.Data.Path != c.wantPath || body.Data.Size != int64(len(c.up.data)) || body.Data.URL != "/assets/"+c.wantPath {
				t.Errorf("asset = %+v, want path %s", body.Data, c.wantPath)
			}
			got, err := os.ReadFile(filepath.Join(dir, "public/assets", filepath.FromSlash(c.wantPath)))
			if err != nil || !bytes.Equal(got, c.up.data) {
				t.Errorf("stored file = %q, %v", got, err)
			}
		})
	}
}

func TestUploadWithAltAndContentType(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t, opts{})
	w := do(t, h, upload{token: manager, filename: "Me.JPG", data: []byte("\xff\xd8\xff"), fields: map[string]string{"alt": "Portrait", "directory": "people"}}.request(t))
	want := `"path":"people/Me.JPG","filename":"Me.JPG","extension":"JPG","size":3,"mimeType":"image/jpeg"`
	if w.Code != 201 || !strings.Contains(w.Body.String(), want) || !strings.Contains(w.Body.String(), `"alt":"Portrait","meta":{"alt":"Portrait"},"url":"/assets/people/Me.JPG"`) {
		t.Errorf("upload = %d %s", w.Code, w.Body)
	}
	if loc := w.Header().Get("Location"); loc != "/assets/people/Me.JPG" {
		t.Errorf("Location = %q", loc)
	}
	r := httptest.NewRequest("POST", "/api/assets", strings.NewReader(`{"file":"x"}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer "+manager)
	if w := do(t, h, r); w.Code != 415 {
		t.Errorf("JSON upload = %d, want 415", w.Code)
	}
}

func TestEndpoints(t *testing.T) {
	t.Parallel()
	req := func(method, path, token string, body any) webtest.Request {
		return webtest.Request{Method: method, Path: path, Token: token, Body: body}
	}
	cases := []struct {
		name       string
		req        webtest.Request
		wantStatus int
		wantCode   string
		want       string // a substring of the body
	}{
		{"list unauthenticated", req("GET", "/api/assets", "", nil), 401, "AUTHENTICATION_ERROR", ""},
		{"list forbidden", req("GET", "/api/assets", other, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"list root", req("GET", "/api/assets", viewer, nil), 200, "", `"directories":["docs"]`},
		{"list root files", req("GET", "/api/assets", viewer, nil), 200, "", `{"data":[{"path":"logo.png","filename":"logo.png","extension":"png","size":8,"mimeType":"image/png","modifiedAt":`},
		{"list shows alt", req("GET", "/api/assets", viewer, nil), 200, "", `"alt":"The logo","meta":{"alt":"The logo","credit":"Studio"},"url":"/assets/logo.png"}]`},
		{"list folder", req("GET", "/api/assets?directory=docs", viewer, nil), 200, "", `"directories":["old"]`},
		{"list missing folder", req("GET", "/api/assets?directory=nope", viewer, nil), 404, "NOT_FOUND", ""},
		{"list traversal", req("GET", "/api/assets?directory=../users", viewer, nil), 400, "BAD_REQUEST", ""},
		{"list encoded traversal", req("GET", "/api/assets?directory=%2e%2e%2fusers", viewer, nil), 400, "BAD_REQUEST", ""},
		{"list absolute", req("GET", "/api/assets?directory=/etc", viewer, nil), 400, "BAD_REQUEST", ""},
		{"list backslash", req("GET", "/api/assets?directory=docs%5c..", viewer, nil), 400, "BAD_REQUEST", ""},
		{"list NUL", req("GET", "/api/assets?directory=docs%00", viewer, nil), 400, "BAD_REQUEST", ""},

		{"meta", req("GET", "/api/assets/meta?path=logo.png", viewer, nil), 200, "", `"alt":"The logo"`},
		{"meta forbidden", req("GET", "/api/assets/meta?path=logo.png", other, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"meta missing", req("GET", "/api/assets/meta?path=nope.png", viewer, nil), 404, "NOT_FOUND", ""},
		{"meta of a sidecar", req("GET", "/api/assets/meta?path=logo.png.meta.yaml", viewer, nil), 400, "BAD_REQUEST", ""},
		{"meta without path", req("GET", "/api/assets/meta", viewer, nil), 400, "BAD_REQUEST", ""},
		{"meta traversal", req("GET", "/api/assets/meta?path=../users/admin.yaml", viewer, nil), 400, "BAD_REQUEST", ""},
		{"meta of a folder", req("GET", "/api/assets/meta?path=docs", viewer, nil), 200, "", `{"data":{"path":"docs","filename":"docs","directory":true}}`},
		{"save meta", req("PUT", "/api/assets/meta?path=docs/guide.pdf", manager, `{"alt":"Guide","pages":12}`), 200, "", `"alt":"Guide","meta":{"alt":"Guide","pages":12}`},
		{"save meta view only", req("PUT", "/api/assets/meta?path=logo.png", viewer, `{"alt":"x"}`), 403, "AUTHORIZATION_ERROR", ""},
		{"save meta bad value", req("PUT", "/api/assets/meta?path=logo.png", manager, `{"alt":{"a":1}}`), 422, "VALIDATION_ERROR", ""},
		{"save meta bad key", req("PUT", "/api/assets/meta?path=logo.png", manager, `{"a b":"x"}`), 422, "VALIDATION_ERROR", ""},
		{"save meta too long", req("PUT", "/api/assets/meta?path=logo.png", manager, `{"alt":"`+strings.Repeat("a", 2001)+`"}`), 422, "VALIDATION_ERROR", ""},
		{"save meta missing asset", req("PUT", "/api/assets/meta?path=nope.png", manager, `{"alt":"x"}`), 404, "NOT_FOUND", ""},
		{"save meta malformed", req("PUT", "/api/assets/meta?path=logo.png", manager, `{`), 400, "BAD_REQUEST", ""},
		{"clear meta", req("PUT", "/api/assets/meta?path=logo.png", manager, `{}`), 200, "", `{"data":{"path":"logo.png","filename":"logo.png","extension":"png","size":8,"mimeType":"image/png","modifiedAt":`},

		{"move", req("POST", "/api/assets/move", manager, `{"from":"logo.png","to":"brand/logo-2.png"}`), 200, "", `"path":"brand/logo-2.png"`},
		{"move keeps alt", req("POST", "/api/assets/move", manager, `{"from":"logo.png","to":"brand/logo-2.png"}`), 200, "", `"alt":"The logo"`},
		{"move into folder", req("POST", "/api/assets/move", manager, `{"from":"logo.png","to":"docs"}`), 200, "", `"path":"docs/logo.png"`},
		{"move to top", req("POST", "/api/assets/move", manager, `{"from":"docs/guide.pdf","to":""}`), 200, "", `"path":"guide.pdf"`},
		{"move folder", req("POST", "/api/assets/move", manager, `{"from":"docs/old","to":"archive"}`), 200, "", `{"data":{"path":"archive","filename":"archive","directory":true}}`},
		{"move view only", req("POST", "/api/assets/move", viewer, `{"from":"logo.png","to":"x.png"}`), 403, "AUTHORIZATION_ERROR", ""},
		{"move missing", req("POST", "/api/assets/move", manager, `{"from":"nope.png","to":"x.png"}`), 404, "NOT_FOUND", ""},
		{"move onto existing", req("POST", "/api/assets/move", manager, `{"from":"docs/guide.pdf","to":"docs/old/notes.txt"}`), 409, "CONFLICT", ""},
		{"move traversal", req("POST", "/api/assets/move", manager, `{"from":"logo.png","to":"../../users/x"}`), 400, "BAD_REQUEST", ""},
		{"move from traversal", req("POST", "/api/assets/move", manager, `{"from":"../users/admin.yaml","to":"x.yaml"}`), 400, "BAD_REQUEST", ""},
		{"move malformed", req("POST", "/api/assets/move", manager, `{"from":1}`), 400, "BAD_REQUEST", ""},

		{"delete", req("DELETE", "/api/assets?path=logo.png", manager, nil), 200, "", `{"data":{"path":"logo.png","deleted":true}}`},
		{"delete view only", req("DELETE", "/api/assets?path=logo.png", viewer, nil), 403, "AUTHORIZATION_ERROR", ""},
		{"delete unauthenticated", req("DELETE", "/api/assets?path=logo.png", "", nil), 401, "AUTHENTICATION_ERROR", ""},
		{"delete missing", req("DELETE", "/api/assets?path=nope.png", manager, nil), 404, "NOT_FOUND", ""},
		{"delete non-empty folder", req("DELETE", "/api/assets?path=docs", manager, nil), 409, "CONFLICT", ""},
		{"delete without path", req("DELETE", "/api/assets", manager, nil), 400, "BAD_REQUEST", ""},
		{"delete traversal", req("DELETE", "/api/assets?path=..%2Fusers%2Fadmin.yaml", manager, nil), 400, "BAD_REQUEST", ""},
		{"delete hidden", req("DELETE", "/api/assets?path=.hidden", manager, nil), 400, "BAD_REQUEST", ""},

		{"folder", req("POST", "/api/assets/folders", manager, `{"path":"new/deep"}`), 201, "", `{"data":{"path":"new/deep","filename":"deep","directory":true}}`},
		{"folder exists", req("POST", "/api/assets/folders", manager, `{"path":"docs"}`), 200, "", `"path":"docs"`},
		{"folder over a file", req("POST", "/api/assets/folders", manager, `{"path":"logo.png"}`), 409, "CONFLICT", ""},
		{"folder view only", req("POST", "/api/assets/folders", viewer, `{"path":"x"}`), 403, "AUTHORIZATION_ERROR", ""},
		{"folder traversal", req("POST", "/api/assets/folders", manager, `{"path":"a/../../b"}`), 400, "BAD_REQUEST", ""},
		{"folder empty", req("POST", "/api/assets/folders", manager, `{"path":""}`), 400, "BAD_REQUEST", ""},

		{"wrong method", req("PATCH", "/api/assets", manager, `{}`), 405, "METHOD_NOT_ALLOWED", ""},
		{"unknown route", req("GET", "/api/assets/logo.png", manager, nil), 404, "NOT_FOUND", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, _ := newHandler(t, opts{})
			w := webtest.Do(t, h, c.req)
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantCode != "" {
				if e := webtest.DecodeError(t, w); e.Error.Code != c.wantCode {
					t.Errorf("code = %s, want %s (%s)", e.Error.Code, c.wantCode, e.Error.Message)
				}
				return
			}
			if !strings.Contains(w.Body.String(), c.want) {
				t.Errorf("body = %s\nwant it to contain %s", w.Body, c.want)
			}
		})
	}
}

func TestListHidesSidecarsAndHiddenFiles(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t, opts{})
	w := webtest.Do(t, h, webtest.Request{Path: "/api/assets", Token: viewer})
	var body struct {
		Data []struct {
			Path string `json:"path"`
		} `json:"data"`
		Directories []string `json:"directories"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Data) != 1 || body.Data[0].Path != "logo.png" {
		t.Errorf("listed %+v, want only logo.png", body.Data)
	}
}

func TestDeleteRemovesSidecar(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t, opts{})
	if w := webtest.Do(t, h, webtest.Request{Method: "DELETE", Path: "/api/assets?path=logo.png", Token: manager}); w.Code != 200 {
		t.Fatalf("DELETE = %d %s", w.Code, w.Body)
	}
	if _, err := os.Stat(filepath.Join(dir, "public/assets/logo.png.meta.yaml")); !os.IsNotExist(err) {
		t.Errorf("sidecar remains: %v", err)
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	if _, err := assets.New(assets.Deps{}); err == nil {
		t.Error("New without a store succeeded")
	}
	if _, err := assets.New(assets.Deps{Store: contenttest.OpenStore(t, t.TempDir()), AllowedTypes: []string{"png"}}); err == nil {
		t.Error("New with an allowed type that is not a MIME type succeeded")
	}
}

// TestAuthorisationMatrix checks every endpoint without credentials (401) and with a role that
// lacks the permission (403), before anything is read or written.
func TestAuthorisationMatrix(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t, opts{})
	endpoints := []struct{ method, path, body string }{
		{"GET", "/api/assets", ""},
		{"DELETE", "/api/assets?path=logo.png", ""},
		{"GET", "/api/assets/meta?path=logo.png", ""},
		{"PUT", "/api/assets/meta?path=logo.png", `{"alt":"x"}`},
		{"POST", "/api/assets/move", `{"from":"logo.png","to":"x.png"}`},
		{"POST", "/api/assets/folders", `{"path":"x"}`},
	}
	for _, e := range endpoints {
		for token, want := range map[string]int{"": 401, other: 403} {
			var body any
			if e.body != "" {
				body = e.body
			}
			if w := webtest.Do(t, h, webtest.Request{Method: e.method, Path: e.path, Token: token, Body: body}); w.Code != want {
				t.Errorf("%s %s as %q = %d, want %d", e.method, e.path, token, w.Code, want)
			}
		}
	}
	for _, token := range []string{"", other} {
		if w := do(t, h, upload{token: token, filename: "a.png", data: []byte("x")}.request(t)); w.Code < 401 || w.Code > 403 {
			t.Errorf("upload as %q = %d", token, w.Code)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "public/assets/logo.png")); err != nil {
		t.Errorf("a refused request changed the assets: %v", err)
	}
}
