package forms_test

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/handlers/forms"
	"cms/handlers/web/webtest"
	"cms/wasmhooks"
	"cms/wasmhooks/hookrun"
)

// Compile-time check that the store provides what the group needs.
var (
	_ forms.Definitions = (*fsstore.Store)(nil)
	_ forms.Submissions = (*fsstore.Store)(nil)
	_ forms.Hooks       = (*hookrun.Runner)(nil)
)

// site is the test site: a contact form like the starter's, one per rule, and broken forms.
const site = `
-- resources/forms/contact.yaml --
title: Contact
blueprint: contact
honeypot: true
redirect: /thanks
-- resources/forms/nostore.yaml --
title: Not stored
blueprint: contact
store_submissions: false
-- resources/forms/plain.yaml --
title: Plain
blueprint: contact
-- resources/forms/offsite.yaml --
blueprint: contact
redirect: https://evil.example/phish
-- resources/blueprints/forms/contact.yaml --
tabs:
  main:
    fields:
      - handle: name
        field: {type: text, display: Your name, required: true, validate: [min:2, max:80]}
      - handle: email
        field: {type: text, required: true, validate: [email]}
      - handle: topic
        field:
          type: select
          options: {options: [general, support, sales]}
      - handle: company
        field:
          type: text
          visibility: {field: topic, operator: equals, value: sales}
      - handle: age
        field: {type: number, validate: [min:18, max:130]}
      - handle: newsletter
        field: {type: toggle}
      - handle: interests
        field:
          type: multiselect
          options: {options: [go, yaml, wasm]}
          validate: [max:2]
      - handle: visit
        field: {type: date}
      - handle: source
        field: {type: hidden}
      - handle: attachment
        field: {type: asset}
-- resources/forms/rules.yaml --
blueprint: rules
-- resources/blueprints/forms/rules.yaml --
fields:
  - handle: req
    field: {type: text, validate: [required]}
  - handle: min_text
    field: {type: text, validate: [min:3]}
  - handle: max_text
    field: {type: text, validate: [max:3]}
  - handle: min_number
    field: {type: number, validate: [min:10]}
  - handle: max_number
    field: {type: number, validate: [max:10]}
  - handle: min_list
    field: {type: multiselect, validate: [min:2]}
  - handle: max_list
    field: {type: multiselect, validate: [max:1]}
  - handle: email
    field: {type: text, validate: [email]}
  - handle: url
    field: {type: text, validate: [url]}
  - handle: regex
    field: {type: text, validate: ['regex:^[A-Z]+$']}
  - handle: range
    field: {type: number, validate: ['numeric_range:1,5']}
  - handle: size
    field: {type: text, validate: [size:4]}
  - handle: in
    field: {type: text, validate: ['in:red,green']}
  - handle: not_in
    field: {type: text, validate: ['not_in:root,admin']}
  - handle: alpha
    field: {type: text, validate: [alpha]}
  - handle: alpha_num
    field: {type: text, validate: [alpha_num]}
  - handle: alpha_dash
    field: {type: text, validate: [alpha_dash]}
  - handle: lowercase
    field: {type: text, validate: [lowercase]}
  - handle: uppercase
    field: {type: text, validate: [uppercase]}
  - handle: integer
    field: {type: text, validate: [integer]}
  - handle: numeric
    field: {type: text, validate: [numeric]}
  - handle: date
    field: {type: text, validate: [date]}
  - handle: after
    field: {type: text, validate: ['after:2020-01-01']}
  - handle: before
    field: {type: text, validate: ['before:2020-01-01']}
  - handle: accepted
    field: {type: toggle, validate: [accepted]}
  - handle: choice
    field:
      type: select
      options: {options: [a, b]}
  - handle: typed
    field: {type: number}
-- resources/forms/broken.yaml --
blueprint: broken
-- resources/blueprints/forms/broken.yaml --
fields:
  - handle: upload
    field: {type: asset, required: true}
-- resources/forms/orphan.yaml --
blueprint: does-not-exist
-- resources/forms/hooked.yaml --
blueprint: hooked
-- resources/blueprints/forms/hooked.yaml --
fields:
  - handle: email
    field: {type: text, required: true, validate: [email, 'hook:gate']}
  - handle: note
    field: {type: text}
-- resources/forms/gated.yaml --
blueprint: gated
-- resources/blueprints/forms/gated.yaml --
fields:
  - handle: code
    field: {type: text, validate: ['hook:missing']}
`

// fixedNow is the clock of the test group.
var fixedNow = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

// tick returns a clock that starts at fixedNow and advances a millisecond per reading, so that
// submissions sort in the order they were made.
func tick() func() time.Time {
	var n atomic.Int64
	return func() time.Time { return fixedNow.Add(time.Duration(n.Add(1)-1) * time.Millisecond) }
}

// env is one test group on its own site.
type env struct {
	dir     string
	store   *fsstore.Store
	h       http.Handler
	auth    *webtest.Auth
	viewer  string // forms:view
	deleter string // forms:view, delete
	nobody  string // no forms permission
	deps    forms.Deps
}

type option func(*forms.Deps)

// newEnv writes the test site (plus extra files) and builds the group on it. Rate limiting is
// off unless an option sets it.
func newEnv(t testing.TB, extra string, opts ...option) *env {
	t.Helper()
	dir := contenttest.WriteSite(t, site+extra)
	st := contenttest.OpenStore(t, dir)
	auth := webtest.NewAuth(t)
	e := &env{dir: dir, store: st, auth: auth}
	e.viewer = auth.Add(webtest.Token("viewer"), "vera", webtest.Role("v", webtest.Grant("forms", "view")))
	e.deleter = auth.Add(webtest.Token("deleter"), "dora", webtest.Role("d", webtest.Grant("forms", "view", "delete")))
	e.nobody = auth.Add(webtest.Token("nobody"), "nora", webtest.Role("n", webtest.Grant("entries", "view")))
	d := forms.Deps{
		Definitions: st,
		Submissions: st,
		Auth:        auth,
		SiteOrigins: []string{"https://www.example.com"},
		Log:         slog.New(slog.DiscardHandler),
		Now:         tick(),
	}
	e.deps = d
	return e.with(t, opts...)
}

// with returns the env with a new group built with more options, on the same site.
func (e *env) with(t testing.TB, opts ...option) *env {
	t.Helper()
	n := *e
	for _, o := range opts {
		o(&n.deps)
	}
	h, err := forms.New(n.deps)
	if err != nil {
		t.Fatalf("forms.New: %v", err)
	}
	n.h = h
	return &n
}

// get sends an anonymous GET.
func (e *env) get(t testing.TB, path string) *httptest.ResponseRecorder {
	t.Helper()
	return serve(e.h, httptest.NewRequest(http.MethodGet, path, nil))
}

// withHooks runs hook rules with host over the site's installed hooks.
func withHooks(t testing.TB, st *fsstore.Store, host *wasmhooks.Host) option {
	t.Helper()
	r, err := hookrun.NewRunner(st, host)
	if err != nil {
		t.Fatal(err)
	}
	return func(d *forms.Deps) { d.Hooks = r }
}

// newHost returns a WASM host closed when the test ends.
func newHost(t testing.TB, timeout time.Duration) *wasmhooks.Host {
	t.Helper()
	h, err := wasmhooks.New(wasmhooks.Options{Limits: wasmhooks.Limits{CallTimeout: timeout}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(t.Context()) })
	return h
}

// stored returns the submissions stored for a form, oldest first.
func (e *env) stored(t testing.TB, form string) []*content.Submission {
	t.Helper()
	var out []*content.Submission
	for s, err := range e.store.EachSubmission(form) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// files counts the files under content/forms/{form}.
func (e *env) files(t testing.TB, form string) int {
	t.Helper()
	n := 0
	_ = filepath.WalkDir(filepath.Join(e.dir, "content", "forms", form), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// post sends a submission with the given content type and extra headers.
func (e *env) post(t testing.TB, form, contentType string, body []byte, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/api/forms/"+form+"/submit", bytes.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	return webtest.Serve(t, e.h, r)
}

// postJSON submits v as JSON.
func (e *env) postJSON(t testing.TB, form string, v any, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return e.post(t, form, "application/json", b, hdr...)
}

// postForm submits values urlencoded.
func (e *env) postForm(t testing.TB, form string, vals url.Values, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	return e.post(t, form, "application/x-www-form-urlencoded", []byte(vals.Encode()), hdr...)
}

// multipartBody encodes fields (and files name -> content) as multipart/form-data.
func multipartBody(t testing.TB, fields [][2]string, files map[string]string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range files {
		fw, err := mw.CreateFormFile(name, name+".txt")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(data))
	}
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

// submitted is the body of a 201.
type submitted struct {
	Data struct {
		ID          string          `json:"id"`
		Form        string          `json:"form"`
		SubmittedAt string          `json:"submittedAt"`
		Data        json.RawMessage `json:"data"`
	} `json:"data"`
}

func wantStatus(t testing.TB, w *httptest.ResponseRecorder, status int) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status = %d, want %d; body: %s", w.Code, status, w.Body.String())
	}
}

// wantError checks status and error code.
func wantError(t testing.TB, w *httptest.ResponseRecorder, status int, code string) webtest.ErrorBody {
	t.Helper()
	wantStatus(t, w, status)
	e := webtest.DecodeError(t, w)
	if e.Error.Code != code {
		t.Fatalf("code = %s, want %s; body: %s", e.Error.Code, code, w.Body.String())
	}
	return e
}

// dataJSON is the JSON of a stored submission's data.
func dataJSON(t testing.TB, m *content.Map) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readModule reads a module built by the wasmhooks package's go generate.
func readModule(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "wasmhooks", "testdata", name+".wasm"))
	if err != nil {
		t.Fatalf("read module %s: %v", name, err)
	}
	return b
}

// newRequest builds a submission; chunked hides the body's length, as a streamed upload does.
func newRequest(form, contentType, body string, chunked bool) *http.Request {
	var rd io.Reader = strings.NewReader(body)
	if chunked {
		rd = io.MultiReader(rd)
	}
	r := httptest.NewRequest(http.MethodPost, "/api/forms/"+form+"/submit", rd)
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	return r
}

// serve runs one request.
func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}
