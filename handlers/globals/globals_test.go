package globals_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/globals"
	"cms/handlers/web/webtest"
)

const site = `
-- resources/globals/site.yaml --
title: Site
blueprint: site
-- resources/globals/nodata.yaml --
title: No Data
-- resources/blueprints/globals/site.yaml --
tabs:
  main:
    fields:
      - handle: site_name
        field: {type: text, required: true, validate: [max:20]}
      - handle: gallery
        field: {type: asset, options: {max_files: 2}}
-- content/globals/site.yaml --
site_name: Old
legacy: kept
-- content/globals/orphan.yaml --
a: 1
-- content/globals/broken.yaml --
a: [
`

// Session tokens of the callers (webtest.Auth.Add starts their sessions).
var (
	viewer = webtest.Token("viewer")
	editor = webtest.Token("editor")
	other  = webtest.Token("other")
)

func newHandler(t testing.TB) (http.Handler, string) {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	auth := webtest.NewAuth(t)
	auth.Add(viewer, "v", webtest.Role("viewer", webtest.Grant("globals", "view")))
	auth.Add(editor, "e", webtest.Role("editor", webtest.Grant("globals", "view", "edit")))
	auth.Add(other, "o", webtest.Role("other", webtest.Grant("entries", "view", "edit")))
	h, err := globals.New(globals.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return h, dir
}

func TestNewRequiresStore(t *testing.T) {
	t.Parallel()
	if _, err := globals.New(globals.Deps{}); err == nil {
		t.Fatal("New without a store succeeded")
	}
}

func TestEndpoints(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		req        webtest.Request
		wantStatus int
		wantCode   string // error code, or "" for success
		wantBody   string // substring of a successful body
		wantField  string // a key of error.fields
	}{
		{"list unauthenticated", webtest.Request{Path: "/api/globals"}, 401, "AUTHENTICATION_ERROR", "", ""},
		{"list forbidden", webtest.Request{Path: "/api/globals", Token: other}, 403, "AUTHORIZATION_ERROR", "", ""},
		{"list", webtest.Request{Path: "/api/globals", Token: viewer}, 200, "",
			`{"data":[{"handle":"broken","title":"Broken","blueprint":"broken"},{"handle":"nodata","title":"No Data","blueprint":"nodata"},{"handle":"orphan","title":"Orphan","blueprint":"orphan"},{"handle":"site","title":"Site","blueprint":"site"}]}`, ""},
		{"get unauthenticated", webtest.Request{Path: "/api/globals/site"}, 401, "AUTHENTICATION_ERROR", "", ""},
		{"get forbidden", webtest.Request{Path: "/api/globals/site", Token: other}, 403, "AUTHORIZATION_ERROR", "", ""},
		{"get", webtest.Request{Path: "/api/globals/site", Token: viewer}, 200, "", `{"data":{"site_name":"Old","legacy":"kept"}}`, ""},
		{"get defined without data", webtest.Request{Path: "/api/globals/nodata", Token: viewer}, 200, "", `{"data":{}}`, ""},
		{"get data without definition", webtest.Request{Path: "/api/globals/orphan", Token: viewer}, 200, "", `{"data":{"a":1}}`, ""},
		{"get unknown", webtest.Request{Path: "/api/globals/nope", Token: viewer}, 404, "NOT_FOUND", "", ""},
		{"get invalid handle", webtest.Request{Path: "/api/globals/a.b", Token: viewer}, 400, "BAD_REQUEST", "", ""},
		{"get broken file", webtest.Request{Path: "/api/globals/broken", Token: viewer}, 500, "INTERNAL_ERROR", "", ""},
		{"unknown route", webtest.Request{Path: "/api/globals/site/x", Token: viewer}, 404, "NOT_FOUND", "", ""},
		{"wrong method", webtest.Request{Method: "DELETE", Path: "/api/globals/site", Token: editor}, 405, "METHOD_NOT_ALLOWED", "", ""},
		{"put unauthenticated", webtest.Request{Method: "PUT", Path: "/api/globals/site", Body: map[string]any{"site_name": "X"}}, 401, "AUTHENTICATION_ERROR", "", ""},
		{"put view only", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: viewer, Body: map[string]any{"site_name": "X"}}, 403, "AUTHORIZATION_ERROR", "", ""},
		{"put cookie without origin", webtest.Request{Method: "PUT", Path: "/api/globals/site", Cookies: []*http.Cookie{{Name: "cms_session", Value: editor}}, Body: map[string]any{"site_name": "X"}}, 403, "CSRF_REJECTED", "", ""},
		{"put", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"New","extra":[1,2]}`}, 200, "", `{"data":{"site_name":"New","extra":[1,2]}}`, ""},
		{"put required missing", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"legacy":"x"}`}, 422, "VALIDATION_ERROR", "", "site_name"},
		{"put rule fails", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"` + strings.Repeat("x", 21) + `"}`}, 422, "VALIDATION_ERROR", "", "site_name"},
		{"put too many files", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"S","gallery":["a.png","b.png","c.png"]}`}, 422, "VALIDATION_ERROR", "", "gallery"},
		{"put invalid key", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"S","bad key":1}`}, 422, "VALIDATION_ERROR", "", "bad key"},
		{"put malformed json", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":`}, 400, "BAD_REQUEST", "", ""},
		{"put array", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `[1]`}, 400, "BAD_REQUEST", "", ""},
		{"put empty body", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: ` `}, 400, "BAD_REQUEST", "", ""},
		{"put not json", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `a=b`, Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}}, 415, "UNSUPPORTED_MEDIA_TYPE", "", ""},
		{"put too large", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"` + strings.Repeat("x", 2<<20) + `"}`}, 413, "PAYLOAD_TOO_LARGE", "", ""},
		{"put unknown global", webtest.Request{Method: "PUT", Path: "/api/globals/nope", Token: editor, Body: `{"a":1}`}, 404, "NOT_FOUND", "", ""},
		{"put stale if-match", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"S"}`, Header: http.Header{"If-Match": {`"0000"`}}}, 409, "CONFLICT", "", ""},
		{"put malformed if-match", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"S"}`, Header: http.Header{"If-Match": {`abc`}}}, 400, "BAD_REQUEST", "", ""},
		{"put if-match star", webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"S"}`, Header: http.Header{"If-Match": {`*`}}}, 200, "", `{"data":{"site_name":"S"}}`, ""},
		{"put replaces a broken file", webtest.Request{Method: "PUT", Path: "/api/globals/broken", Token: editor, Body: `{"a":1}`}, 200, "", `{"data":{"a":1}}`, ""},
		{"blueprint", webtest.Request{Path: "/api/globals/site/blueprint", Token: viewer}, 200, "",
			`{"data":{"kind":"globals","handle":"site","tabs":[{"handle":"main","fields":[{"handle":"site_name","type":"text","required":true,"validate":["max:20"]},{"handle":"gallery","type":"asset","options":{"max_files":2}}]}]},"fieldsets":{}}`, ""},
		{"blueprint missing", webtest.Request{Path: "/api/globals/nodata/blueprint", Token: viewer}, 200, "", `{"data":null,"fieldsets":{}}`, ""},
		{"blueprint forbidden", webtest.Request{Path: "/api/globals/site/blueprint", Token: other}, 403, "AUTHORIZATION_ERROR", "", ""},
		{"blueprint unknown global", webtest.Request{Path: "/api/globals/nope/blueprint", Token: viewer}, 404, "NOT_FOUND", "", ""},
		{"put without blueprint", webtest.Request{Method: "PUT", Path: "/api/globals/orphan", Token: editor, Body: `{"anything":true}`}, 200, "", `{"data":{"anything":true}}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, _ := newHandler(t)
			w := webtest.Do(t, h, c.req)
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantCode != "" {
				e := webtest.DecodeError(t, w)
				if e.Error.Code != c.wantCode {
					t.Errorf("code = %s, want %s (%s)", e.Error.Code, c.wantCode, e.Error.Message)
				}
				if c.wantField != "" && len(e.Error.Fields[c.wantField]) == 0 {
					t.Errorf("fields = %v, want a message for %q", e.Error.Fields, c.wantField)
				}
				return
			}
			if got := strings.TrimSpace(w.Body.String()); got != c.wantBody {
				t.Errorf("body = %s\nwant   %s", got, c.wantBody)
			}
		})
	}
}

func TestPutWritesFileInKeyOrder(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t)
	w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"new":"n","legacy":"still","site_name":"Renamed"}`})
	if w.Code != 200 {
		t.Fatalf("status = %d: %s", w.Code, w.Body)
	}
	b, err := os.ReadFile(filepath.Join(dir, "content/globals/site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "site_name: Renamed\nlegacy: still\nnew: n\n"; string(b) != want {
		t.Errorf("file = %q, want %q", b, want)
	}
	if w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/nope", Token: editor, Body: `{"a":1}`}); w.Code != 404 {
		t.Fatalf("PUT unknown = %d", w.Code)
	}
	if _, err := os.Stat(filepath.Join(dir, "content/globals/nope.yaml")); !os.IsNotExist(err) {
		t.Errorf("PUT of an unknown global created a file: %v", err)
	}
}

func TestIfMatchFlow(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	get := webtest.Do(t, h, webtest.Request{Path: "/api/globals/site", Token: editor})
	etag := get.Header().Get("ETag")
	if get.Code != 200 || len(etag) != 66 {
		t.Fatalf("GET = %d, ETag %q", get.Code, etag)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/globals/site", Token: editor, Header: http.Header{"If-None-Match": {etag}}}); w.Code != http.StatusNotModified {
		t.Errorf("conditional GET = %d, want 304", w.Code)
	}
	put := func() int {
		return webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"A"}`, Header: http.Header{"If-Match": {etag}}}).Code
	}
	first := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"A"}`, Header: http.Header{"If-Match": {etag}}})
	if first.Code != 200 || first.Header().Get("ETag") == etag || first.Header().Get("ETag") == "" {
		t.Fatalf("first PUT = %d, ETag %q (old %q)", first.Code, first.Header().Get("ETag"), etag)
	}
	if code := put(); code != http.StatusConflict {
		t.Errorf("second PUT with the old ETag = %d, want 409", code)
	}
	w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor, Body: `{"site_name":"A"}`, Header: http.Header{"If-Match": {etag}}})
	var body struct {
		Error struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Details["currentHash"] == nil {
		t.Errorf("conflict body = %s", w.Body)
	}
}

// TestFixtureRoundTrip reads Madori's example global and saves it back unchanged.
func TestFixtureRoundTrip(t *testing.T) {
	t.Parallel()
	dir := contenttest.CopyFixture(t, "madori-site")
	auth := webtest.NewAuth(t)
	auth.Add(editor, "e", webtest.Role("editor", webtest.Grant("globals", "view", "edit")))
	h, err := globals.New(globals.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	get := webtest.Do(t, h, webtest.Request{Path: "/api/globals/site-settings", Token: editor})
	var body struct {
		Data json.RawMessage `json:"data"`
	}
	webtest.DecodeJSON(t, get, &body)
	put := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/site-settings", Token: editor, Body: []byte(body.Data),
		Header: http.Header{"If-Match": {get.Header().Get("ETag")}}})
	if get.Code != 200 || put.Code != 200 || !strings.Contains(put.Body.String(), string(body.Data)) {
		t.Errorf("GET = %d, PUT back = %d %s", get.Code, put.Code, put.Body)
	}
}

// TestConcurrentIfMatch sends many PUTs carrying the same ETag at once: exactly one wins.
func TestConcurrentIfMatch(t *testing.T) {
	t.Parallel()
	h, _ := newHandler(t)
	etag := webtest.Do(t, h, webtest.Request{Path: "/api/globals/site", Token: editor}).Header().Get("ETag")
	const n = 8
	codes := make(chan int, n)
	for i := range n {
		go func() {
			codes <- webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/globals/site", Token: editor,
				Body: fmt.Sprintf(`{"site_name":"Writer %d"}`, i), Header: http.Header{"If-Match": {etag}}}).Code
		}()
	}
	won := 0
	for range n {
		switch c := <-codes; c {
		case 200:
			won++
		case 409:
		default:
			t.Errorf("PUT = %d", c)
		}
	}
	if won != 1 {
		t.Errorf("%d PUTs with the same ETag succeeded, want 1", won)
	}
}
