package settings_test

import (
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/settings"
	"cms/handlers/web/webtest"
)

// Session tokens of the callers (webtest.Auth.Add starts their sessions).
var (
	viewer = webtest.Token("viewer")
	editor = webtest.Token("editor")
	other  = webtest.Token("other")
)

func newHandler(t *testing.T, files string) (http.Handler, string) {
	t.Helper()
	dir := contenttest.WriteSite(t, files)
	auth := webtest.NewAuth(t)
	auth.Add(viewer, "v", webtest.Role("viewer", webtest.Grant("settings", "view")))
	auth.Add(editor, "e", webtest.Role("editor", webtest.Grant("settings", "view", "edit")))
	auth.Add(other, "o", webtest.Role("other", webtest.Grant("globals", "view", "edit")))
	h, err := settings.New(settings.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return h, dir
}

const stored = "-- content/settings.yaml --\ntimezone: Europe/Paris\nsite_name: Stored\ncustom: 1\n"

func TestEndpoints(t *testing.T) {
	t.Parallel()
	put := func(body string) webtest.Request {
		return webtest.Request{Method: "PUT", Path: "/api/settings", Token: editor, Body: body}
	}
	cases := []struct {
		name       string
		files      string
		req        webtest.Request
		wantStatus int
		wantCode   string
		want       string // the success body, or a key of error.fields
	}{
		{"get unauthenticated", stored, webtest.Request{Path: "/api/settings"}, 401, "AUTHENTICATION_ERROR", ""},
		{"get forbidden", stored, webtest.Request{Path: "/api/settings", Token: other}, 403, "AUTHORIZATION_ERROR", ""},
		{"get defaults", "", webtest.Request{Path: "/api/settings", Token: viewer}, 200, "", `{"data":{"site_name":"My Site","locale":"en-US","timezone":"UTC"}}`},
		{"get stored", stored, webtest.Request{Path: "/api/settings", Token: viewer}, 200, "", `{"data":{"site_name":"Stored","locale":"en-US","timezone":"Europe/Paris","custom":1}}`},
		{"get broken file", "-- content/settings.yaml --\na: [\n", webtest.Request{Path: "/api/settings", Token: viewer}, 500, "INTERNAL_ERROR", ""},
		{"put unauthenticated", stored, webtest.Request{Method: "PUT", Path: "/api/settings", Body: `{}`}, 401, "AUTHENTICATION_ERROR", ""},
		{"put view only", stored, webtest.Request{Method: "PUT", Path: "/api/settings", Token: viewer, Body: `{}`}, 403, "AUTHORIZATION_ERROR", ""},
		{"put merges", stored, put(`{"locale":"fr-FR","custom":null,"new":{"a":true}}`), 200, "", `{"data":{"site_name":"Stored","locale":"fr-FR","timezone":"Europe/Paris","new":{"a":true}}}`},
		{"put null restores default", stored, put(`{"timezone":null}`), 200, "", `{"data":{"site_name":"Stored","locale":"en-US","timezone":"UTC","custom":1}}`},
		{"put on a missing file", "", put(`{"site_name":"Fresh","locale":"en","timezone":"America/New_York"}`), 200, "", `{"data":{"site_name":"Fresh","locale":"en","timezone":"America/New_York"}}`},
		{"site_name blank", stored, put(`{"site_name":"  "}`), 422, "VALIDATION_ERROR", "site_name"},
		{"site_name not a string", stored, put(`{"site_name":5}`), 422, "VALIDATION_ERROR", "site_name"},
		{"site_name too long", stored, put(`{"site_name":"` + strings.Repeat("é", 201) + `"}`), 422, "VALIDATION_ERROR", "site_name"},
		{"site_name at the bound", stored, put(`{"site_name":"` + strings.Repeat("é", 200) + `"}`), 200, "", ""},
		{"locale bad", stored, put(`{"locale":"english"}`), 422, "VALIDATION_ERROR", "locale"},
		{"locale with script", stored, put(`{"locale":"zh-Hant-TW"}`), 200, "", ""},
		{"timezone unknown", stored, put(`{"timezone":"Mars/Olympus"}`), 422, "VALIDATION_ERROR", "timezone"},
		{"timezone local", stored, put(`{"timezone":"Local"}`), 422, "VALIDATION_ERROR", "timezone"},
		{"timezone path", stored, put(`{"timezone":"../../etc/passwd"}`), 422, "VALIDATION_ERROR", "timezone"},
		{"timezone empty", stored, put(`{"timezone":""}`), 422, "VALIDATION_ERROR", "timezone"},
		{"bad key", stored, put(`{"a b":1}`), 422, "VALIDATION_ERROR", "a b"},
		{"malformed json", stored, put(`{`), 400, "BAD_REQUEST", ""},
		{"too large", stored, put(`{"x":"` + strings.Repeat("a", 70<<10) + `"}`), 413, "PAYLOAD_TOO_LARGE", ""},
		{"stale if-match", stored, webtest.Request{Method: "PUT", Path: "/api/settings", Token: editor, Body: `{}`, Header: http.Header{"If-Match": {`"abc"`}}}, 409, "CONFLICT", ""},
		{"wrong method", stored, webtest.Request{Method: "DELETE", Path: "/api/settings", Token: editor}, 405, "METHOD_NOT_ALLOWED", ""},
		{"unknown route", stored, webtest.Request{Path: "/api/settings/runtime", Token: editor}, 404, "NOT_FOUND", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, _ := newHandler(t, c.files)
			w := webtest.Do(t, h, c.req)
			if w.Code != c.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, c.wantStatus, w.Body)
			}
			if c.wantCode == "" {
				if got := strings.TrimSpace(w.Body.String()); c.want != "" && got != c.want {
					t.Errorf("body = %s\nwant   %s", got, c.want)
				}
				return
			}
			e := webtest.DecodeError(t, w)
			if e.Error.Code != c.wantCode {
				t.Errorf("code = %s, want %s", e.Error.Code, c.wantCode)
			}
			if c.want != "" && len(e.Error.Fields[c.want]) == 0 {
				t.Errorf("fields = %v, want a message for %q", e.Error.Fields, c.want)
			}
		})
	}
}

func TestGetDoesNotCreateAndPutWrites(t *testing.T) {
	t.Parallel()
	h, dir := newHandler(t, "")
	file := filepath.Join(dir, "content/settings.yaml")
	if w := webtest.Do(t, h, webtest.Request{Path: "/api/settings", Token: viewer}); w.Code != 200 {
		t.Fatalf("GET = %d", w.Code)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("GET created the settings file: %v", err)
	}
	etag := webtest.Do(t, h, webtest.Request{Path: "/api/settings", Token: viewer}).Header().Get("ETag")
	w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: "/api/settings", Token: editor, Body: `{"site_name":"S"}`, Header: http.Header{"If-Match": {etag}}})
	if w.Code != 200 {
		t.Fatalf("PUT with the ETag of a missing file = %d %s", w.Code, w.Body)
	}
	b, _ := os.ReadFile(file)
	if string(b) != "site_name: S\n" {
		t.Errorf("file = %q", b)
	}
}
