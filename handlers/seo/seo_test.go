package seo_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	cseo "cms/content/seo"
	"cms/content/seo/notfound"
	"cms/content/seo/redirects"
	"cms/content/seo/report"
	"cms/handlers/seo"
	"cms/handlers/web/webtest"
)

const siteFiles = `
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- resources/seo/sites/default.yaml --
version: 1
kind: site
seo:
  titleSuffix: Example
-- content/collections/blog/hello.md --
---
title: Hello world, a first post
status: published
---
Hi.
-- content/collections/blog/draft.md --
---
title: Not yet
status: draft
---
`

var sites = []content.Site{
	{Handle: "default", URL: "https://example.com", Locale: "en-US", Default: true},
	{Handle: "fr", URL: "https://example.fr", Locale: "fr-FR"},
}

var (
	admin   = webtest.Token("admin")
	nobody  = webtest.Token("nobody")
	frOnly  = webtest.Token("fr-only")
	viewer  = webtest.Token("viewer")
	allSEO  = []string{"seo", "seo-reports", "seo-redirects", "seo-errors"}
	actions = []string{"view", "create", "edit", "delete"}
)

type env struct {
	h       http.Handler
	dir     string
	tracker *notfound.Tracker
}

func newEnv(t *testing.T, f seo.Features) *env {
	t.Helper()
	dir := contenttest.WriteSite(t, siteFiles)
	st := contenttest.OpenStore(t, dir)
	auth := webtest.NewAuth(t)
	var grants []content.Permission
	for _, res := range allSEO {
		grants = append(grants, webtest.Grant(res, actions...))
	}
	auth.Add(admin, "a", webtest.Role("admin", grants...))
	auth.Add(nobody, "n", webtest.Role("nobody", webtest.Grant("entries", "view", "edit")))
	var fr []content.Permission
	for _, res := range allSEO {
		fr = append(fr, content.Permission{Resource: res, Actions: actions, Scope: "fr"})
	}
	auth.Add(frOnly, "f", webtest.Role("fr-only", fr...))
	var views []content.Permission
	for _, res := range allSEO {
		views = append(views, webtest.Grant(res, "view"))
	}
	auth.Add(viewer, "v", webtest.Role("viewer", views...))
	rs, err := redirects.Open(redirects.Options{Dir: filepath.Join(dir, "content", "seo", "redirects"), Sites: sites, CheckEvery: -1, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := notfound.Open(notfound.Options{Dir: filepath.Join(dir, "storage", "seo"), Sites: []string{"default", "fr"}, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	now := func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }
	d := seo.Deps{Store: st, Auth: auth, Log: slog.New(slog.DiscardHandler), Sites: sites,
		Resolver: cseo.NewResolver(cseo.Config{Enabled: true, Metadata: true, StructuredData: true}, st),
		Features: f, Redirects: rs, NotFound: tr,
		Reports: &report.Snapshots{Dir: filepath.Join(dir, "storage", "seo"), RetentionDays: 90, Limit: 5, NoSync: true, Now: now},
		Now:     now}
	h, err := seo.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return &env{h: h, dir: dir, tracker: tr}
}

var allOn = seo.Features{Enabled: true, Reports: true, Redirects: true, ErrorTracking: true}

func (e *env) do(t *testing.T, method, path, token string, body any) *httptest.ResponseRecorder {
	t.Helper()
	return webtest.Do(t, e.h, webtest.Request{Method: method, Path: path, Token: token, Body: body})
}

// TestAuthorisationMatrix: every route answers 401 without a session, 403 to a caller without
// the route's permission (and to one whose grant is scoped to another site), and serves a
// caller with it.
func TestAuthorisationMatrix(t *testing.T) {
	t.Parallel()
	e := newEnv(t, allOn)
	e.tracker.Record("default", "/lost", false, "")
	e.tracker.Flush()
	obs, _ := e.tracker.List("default")
	if len(obs) != 1 {
		t.Fatal("no observation")
	}
	// A redirect to read and delete.
	if w := e.do(t, "POST", "/api/seo/redirects", admin, map[string]any{"id": "keep", "site": "default", "source": "/k", "destination": "/l", "status": 301, "enabled": true}); w.Code != 201 {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	siteDoc := map[string]any{"seo": map[string]any{"titleSuffix": "Ex"}}
	routes := []struct {
		method, path string
		body         any
		perm         string // resource:action the route needs
		scoped       bool   // checked in the scope of the default site (so a grant on fr is not enough)
	}{
		{"GET", "/api/seo/sites", nil, "seo:view", false},
		{"GET", "/api/seo/sites/default", nil, "seo:view", true},
		{"PUT", "/api/seo/sites/default", siteDoc, "seo:edit", true},
		{"POST", "/api/seo/sites/default", siteDoc, "seo:edit", true},
		{"GET", "/api/seo/sections/collection", nil, "seo:view", false},
		{"PUT", "/api/seo/sections/collection/blog", siteDoc, "seo:edit", false},
		{"POST", "/api/seo/sections/collection/blog", siteDoc, "seo:edit", false},
		{"GET", "/api/seo/sections/collection/blog", nil, "seo:view", false},
		{"DELETE", "/api/seo/sections/collection/blog", nil, "seo:edit", false},
		{"POST", "/api/seo/preview", map[string]any{"type": "entry", "site": "default", "collection": "blog", "slug": "hello"}, "seo:view", true},
		{"POST", "/api/seo/reports/run", map[string]any{"site": "default"}, "seo-reports:edit", true},
		{"POST", "/api/seo/report/run", map[string]any{"site": "default"}, "seo-reports:edit", true},
		{"GET", "/api/seo/reports?site=default", nil, "seo-reports:view", true},
		{"GET", "/api/seo/report?site=default", nil, "seo-reports:view", true},
		{"GET", "/api/seo/reports/latest?site=default", nil, "seo-reports:view", true},
		{"GET", "/api/seo/status", nil, "seo-reports:view", false},
		{"GET", "/api/seo/redirects?site=default", nil, "seo-redirects:view", true},
		{"POST", "/api/seo/redirects", map[string]any{"id": "m", "site": "default", "source": "/m", "destination": "/n", "enabled": true}, "seo-redirects:edit", true},
		{"PUT", "/api/seo/redirects", map[string]any{"id": "m", "site": "default", "source": "/m", "destination": "/o", "enabled": true}, "seo-redirects:edit", true},
		{"GET", "/api/seo/redirects/keep", nil, "seo-redirects:view", true},
		{"DELETE", "/api/seo/redirects/m", nil, "seo-redirects:delete", true},
		{"GET", "/api/seo/not-found?site=default", nil, "seo-errors:view", true},
		{"POST", "/api/seo/not-found/promote", map[string]any{"site": "default", "source": "/p", "destination": "/q"}, "seo-redirects:create", true},
		{"DELETE", "/api/seo/not-found/" + obs[0].OpaqueID, nil, "seo-errors:delete", false},
		{"DELETE", "/api/seo/sites/default", nil, "seo:edit", true},
	}
	for _, rt := range routes {
		name := rt.method + " " + rt.path
		if w := e.do(t, rt.method, rt.path, "", rt.body); w.Code != 401 {
			t.Errorf("%s without a session: %d, want 401", name, w.Code)
		}
		if w := e.do(t, rt.method, rt.path, nobody, rt.body); w.Code != 403 {
			t.Errorf("%s without the permission: %d, want 403 (%s)", name, w.Code, w.Body)
		}
		if rt.scoped {
			if w := e.do(t, rt.method, rt.path, frOnly, rt.body); w.Code != 403 {
				t.Errorf("%s with a grant on another site: %d, want 403", name, w.Code)
			}
		}
		if strings.HasSuffix(rt.perm, ":view") {
			// A viewer may read, and only read.
			if w := e.do(t, rt.method, rt.path, viewer, rt.body); w.Code == 401 || w.Code == 403 {
				t.Errorf("%s as a viewer: %d", name, w.Code)
			}
		} else if w := e.do(t, rt.method, rt.path, viewer, rt.body); w.Code != 403 {
			t.Errorf("%s as a viewer: %d, want 403", name, w.Code)
		}
		if w := e.do(t, rt.method, rt.path, admin, rt.body); w.Code >= 300 {
			t.Errorf("%s as admin: %d %s", name, w.Code, w.Body)
		}
	}
}

func TestSiteDocumentRevisions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, allOn)
	w := e.do(t, "GET", "/api/seo/sites/default", admin, nil)
	var got struct {
		Data struct {
			SEO      map[string]any
			Revision string
		}
	}
	webtest.DecodeJSON(t, w, &got)
	if got.Data.SEO["titleSuffix"] != "Example" || len(got.Data.Revision) != 64 {
		t.Fatalf("GET = %s", w.Body)
	}
	file := filepath.Join(e.dir, "resources", "seo", "sites", "default.yaml")
	unchanged := webtest.Unchanged(t, file)
	w = e.do(t, "PUT", "/api/seo/sites/default", admin, map[string]any{"seo": map[string]any{"titleSuffix": "New"}, "expectedRevision": strings.Repeat("0", 64)})
	webtest.WantError(t, w, 409, "SEO_REVISION_CONFLICT")
	w = e.do(t, "PUT", "/api/seo/sites/default", admin, map[string]any{"titel": "typo"})
	webtest.WantError(t, w, 422, "SEO_INVALID_INPUT")
	unchanged()
	w = e.do(t, "PUT", "/api/seo/sites/default", admin, map[string]any{"seo": map[string]any{"titleSuffix": "New"}, "expectedRevision": got.Data.Revision})
	if w.Code != 200 {
		t.Fatalf("PUT = %d %s", w.Code, w.Body)
	}
	// The next preview resolves through the new document.
	w = e.do(t, "POST", "/api/seo/preview", admin, map[string]any{"type": "entry", "site": "default", "collection": "blog", "slug": "hello"})
	if !strings.Contains(w.Body.String(), `"title":"Hello world, a first post | New"`) || !strings.Contains(w.Body.String(), `"canonical":"https://example.com/blog/hello"`) {
		t.Errorf("preview = %s", w.Body)
	}
	// A draft needs includeDraft (and seo:edit).
	w = e.do(t, "POST", "/api/seo/preview", admin, map[string]any{"type": "entry", "collection": "blog", "slug": "draft"})
	webtest.WantError(t, w, 404, "SEO_NOT_FOUND")
	w = e.do(t, "POST", "/api/seo/preview", viewer, map[string]any{"type": "entry", "collection": "blog", "slug": "draft", "includeDraft": true})
	webtest.WantError(t, w, 403, "AUTHORIZATION_ERROR")
	if w = e.do(t, "POST", "/api/seo/preview", admin, map[string]any{"type": "entry", "collection": "blog", "slug": "draft", "includeDraft": true}); w.Code != 200 {
		t.Errorf("draft preview = %d %s", w.Code, w.Body)
	}
	// A section document is created (201) and listed.
	if w = e.do(t, "PUT", "/api/seo/sections/collection/blog", admin, map[string]any{"titleTemplate": "Blog: {title}"}); w.Code != 201 {
		t.Fatalf("PUT section = %d %s", w.Code, w.Body)
	}
	if w = e.do(t, "GET", "/api/seo/sections/collection", admin, nil); !strings.Contains(w.Body.String(), `"handle":"blog"`) {
		t.Errorf("sections = %s", w.Body)
	}
	webtest.WantError(t, e.do(t, "GET", "/api/seo/sections/pages", admin, nil), 404, "SEO_NOT_FOUND")
	webtest.WantError(t, e.do(t, "GET", "/api/seo/sites/nosuch", admin, nil), 404, "SEO_NOT_FOUND")
}

func TestRedirectsAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, allOn)
	w := e.do(t, "POST", "/api/seo/redirects", admin, map[string]any{"redirect": map[string]any{"site": "default", "source": "/a/", "destination": "/b", "enabled": true}})
	var created struct{ Data redirects.Redirect }
	webtest.DecodeJSON(t, w, &created)
	if w.Code != 201 || !strings.HasPrefix(created.Data.ID, "redirect_") || created.Data.Source != "/a" || created.Data.Status != 301 {
		t.Fatalf("create = %d %s", w.Code, w.Body)
	}
	w = e.do(t, "POST", "/api/seo/redirects", admin, map[string]any{"id": "chain", "site": "default", "source": "/z", "destination": "/a", "status": 302, "enabled": true})
	body := webtest.WantError(t, w, 422, "SEO_INVALID_INPUT")
	if !strings.Contains(w.Body.String(), `"rule":"chain"`) || !strings.Contains(w.Body.String(), created.Data.ID) || len(body.Error.Fields["destination"]) == 0 {
		t.Errorf("chain refusal = %s", w.Body)
	}
	w = e.do(t, "POST", "/api/seo/redirects", admin, map[string]any{"id": "js", "site": "default", "source": "/x", "destination": "javascript:alert(1)", "enabled": true})
	webtest.WantError(t, w, 422, "SEO_INVALID_INPUT")
	w = e.do(t, "POST", "/api/seo/redirects", admin, map[string]any{"id": "x", "site": "default", "source": "/x", "destination": "/y", "wildcard": true})
	webtest.WantError(t, w, 422, "SEO_INVALID_INPUT")
	// A stale revision is a conflict; the right one replaces.
	created.Data.Destination = "/c"
	w = e.do(t, "PUT", "/api/seo/redirects", admin, map[string]any{"redirect": created.Data, "expectedRevision": "stale"})
	webtest.WantError(t, w, 409, "SEO_REVISION_CONFLICT")
	w = e.do(t, "PUT", "/api/seo/redirects", admin, map[string]any{"redirect": created.Data, "expectedRevision": created.Data.Revision})
	if w.Code != 200 {
		t.Fatalf("replace = %d %s", w.Code, w.Body)
	}
	// A grant scoped to fr writes fr's redirects only.
	if w = e.do(t, "POST", "/api/seo/redirects", frOnly, map[string]any{"id": "f", "site": "fr", "source": "/a", "destination": "/b", "enabled": true}); w.Code != 201 {
		t.Errorf("fr write = %d %s", w.Code, w.Body)
	}
	if w = e.do(t, "GET", "/api/seo/redirects?site=fr", admin, nil); !strings.Contains(w.Body.String(), `"total":1`) {
		t.Errorf("fr list = %s", w.Body)
	}
	// By id, a grant scoped to fr reaches fr's redirect and not default's.
	if w = e.do(t, "GET", "/api/seo/redirects/f", frOnly, nil); w.Code != 200 {
		t.Errorf("fr reads its redirect: %d %s", w.Code, w.Body)
	}
	webtest.WantError(t, e.do(t, "GET", "/api/seo/redirects/"+created.Data.ID, frOnly, nil), 403, "AUTHORIZATION_ERROR")
	webtest.WantError(t, e.do(t, "DELETE", "/api/seo/redirects/"+created.Data.ID, frOnly, nil), 403, "AUTHORIZATION_ERROR")
	webtest.WantError(t, e.do(t, "GET", "/api/seo/redirects/nosuch", admin, nil), 404, "SEO_NOT_FOUND")
	if w = e.do(t, "DELETE", "/api/seo/redirects/f", admin, nil); w.Code != 204 {
		t.Errorf("delete = %d", w.Code)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "content", "seo", "redirects", "f.yaml")); err == nil {
		t.Error("the file is still there")
	}
}

func TestNotFoundListAndPromote(t *testing.T) {
	t.Parallel()
	e := newEnv(t, allOn)
	e.tracker.Record("default", "/old-post", true, "https://ref.example/x")
	e.tracker.Record("fr", "/perdu", false, "")
	e.tracker.Flush()
	w := e.do(t, "GET", "/api/seo/not-found?site=default", admin, nil)
	var list struct {
		Data []notfound.Observation
		Meta struct {
			Total   int
			Storage string
		}
	}
	webtest.DecodeJSON(t, w, &list)
	if len(list.Data) != 1 || list.Meta.Total != 1 || list.Meta.Storage != "operational" || list.Data[0].Path != "/old-post" {
		t.Fatalf("list = %s", w.Body)
	}
	w = e.do(t, "POST", "/api/seo/not-found/promote", admin, map[string]any{"site": "default", "opaqueId": list.Data[0].OpaqueID, "destination": "/blog/hello"})
	if w.Code != 201 || !strings.Contains(w.Body.String(), `"source":"/old-post"`) || !strings.Contains(w.Body.String(), `"status":301`) {
		t.Fatalf("promote = %d %s", w.Code, w.Body)
	}
	if w = e.do(t, "GET", "/api/seo/not-found?site=default", admin, nil); !strings.Contains(w.Body.String(), `"total":0`) {
		t.Errorf("the promoted record is still listed: %s", w.Body)
	}
	if w = e.do(t, "GET", "/api/seo/not-found?site=fr", admin, nil); !strings.Contains(w.Body.String(), `"total":1`) {
		t.Errorf("fr's record is gone: %s", w.Body)
	}
	webtest.WantError(t, e.do(t, "DELETE", "/api/seo/not-found/nf_nosuch", admin, nil), 404, "SEO_NOT_FOUND")
	webtest.WantError(t, e.do(t, "GET", "/api/seo/not-found?site=default&perPage=101", admin, nil), 400, "BAD_REQUEST")
}

func TestReportsAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, allOn)
	w := e.do(t, "POST", "/api/seo/reports/run", admin, nil)
	if w.Code != 201 || !strings.Contains(w.Body.String(), `"score":`) || !strings.Contains(w.Body.String(), `"seo.social.image.missing"`) {
		t.Fatalf("run = %d %s", w.Code, w.Body)
	}
	if w = e.do(t, "GET", "/api/seo/reports", admin, nil); !strings.Contains(w.Body.String(), `"total":1`) || strings.Contains(w.Body.String(), `"issues"`) {
		t.Errorf("list = %s", w.Body)
	}
	if w = e.do(t, "GET", "/api/seo/status", admin, nil); !strings.Contains(w.Body.String(), `"latest":{`) {
		t.Errorf("status = %s", w.Body)
	}
}

func TestFeaturesOff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f      seo.Features
		path   string
		method string
	}{
		{seo.Features{}, "/api/seo/sites", "GET"},
		{seo.Features{Enabled: true, Redirects: true, ErrorTracking: true}, "/api/seo/reports/run", "POST"},
		{seo.Features{Enabled: true, Reports: true, ErrorTracking: true}, "/api/seo/redirects", "GET"},
		{seo.Features{Enabled: true, Reports: true, Redirects: true}, "/api/seo/not-found", "GET"},
	} {
		e := newEnv(t, tc.f)
		webtest.WantError(t, e.do(t, tc.method, tc.path, admin, nil), 404, "SEO_FEATURE_DISABLED")
	}
	e := newEnv(t, allOn)
	webtest.WantError(t, e.do(t, "GET", "/api/seo/nothing", admin, nil), 404, "NOT_FOUND")
}

func TestLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, allOn)
	big := `{"seo":{"description":"` + strings.Repeat("x", 300<<10) + `"}}`
	webtest.WantError(t, e.do(t, "PUT", "/api/seo/sites/default", admin, big), 413, "PAYLOAD_TOO_LARGE")
	webtest.WantError(t, e.do(t, "POST", "/api/seo/redirects", admin, big), 413, "PAYLOAD_TOO_LARGE")
	deep := webtest.Nested(200)
	if w := e.do(t, "PUT", "/api/seo/sites/default", admin, deep); w.Code < 400 || w.Code == 500 {
		t.Errorf("a deeply nested body: %d %s", w.Code, w.Body)
	}
	if w := e.do(t, "POST", "/api/seo/redirects", admin, deep); w.Code < 400 || w.Code == 500 {
		t.Errorf("a deeply nested redirect: %d %s", w.Code, w.Body)
	}
	webtest.WantError(t, e.do(t, "POST", "/api/seo/redirects", admin, "not json"), 400, "BAD_REQUEST")
	webtest.WantError(t, e.do(t, "POST", "/api/seo/redirects", admin, `{"status":"301"}`), 422, "SEO_INVALID_INPUT")
}
