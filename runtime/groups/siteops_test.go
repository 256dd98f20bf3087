package groups_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cms/content/contenttest"
	"cms/content/password"
	"cms/runtime/seoops"
	"cms/runtime/wire"
)

// siteAdmin is a role that may edit entries, globals and SEO records.
const siteAdmin = `
-- resources/roles/admin.yaml --
handle: admin
display: Admin
permissions:
  - resource: seo
    actions: [view, create, edit, delete]
  - resource: seo-redirects
    actions: [view, create, edit, delete]
  - resource: seo-errors
    actions: [view, create, edit, delete]
  - resource: entries
    actions: [view, create, edit, delete, publish]
  - resource: settings
    actions: [view, edit]
  - resource: globals
    actions: [view, edit]
`

// service is an assembled service (every group) on a site folder, with a signed-in admin.
type service struct {
	t     *testing.T
	s     *wire.Services
	mux   http.Handler
	token string
}

func newService(t *testing.T, files string) *service {
	t.Helper()
	hash, err := password.Hash("a very good password")
	if err != nil {
		t.Fatal(err)
	}
	dir := contenttest.WriteSite(t, files+siteAdmin+
		"-- users/ann.yaml --\nemail: ann@example.com\nname: Ann\nroles: [admin]\npassword_hash: \""+hash+"\"\n")
	s, mux := startSite(t, dir, nil)
	sv := &service{t: t, s: s, mux: mux}
	w := sv.do("POST", "/api/auth/login", `{"email":"ann@example.com","password":"a very good password"}`)
	var login struct{ Token string }
	if err := json.Unmarshal(w.Body.Bytes(), &login); err != nil || login.Token == "" {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	sv.token = login.Token
	return sv
}

// do sends a request as the admin (JSON body).
func (sv *service) do(method, path, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if sv.token != "" {
		r.Header.Set("Authorization", "Bearer "+sv.token)
	}
	w := httptest.NewRecorder()
	sv.mux.ServeHTTP(w, r)
	return w
}

// visit sends an anonymous page request to the public website's host.
func (sv *service) visit(method, target string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	r.Host = "example.com"
	w := httptest.NewRecorder()
	sv.mux.ServeHTTP(w, r)
	return w
}

// hash is an entry's content hash, for an edit.
func (sv *service) hash(collection, slug string) string {
	w := sv.do("GET", "/api/entries/"+collection+"/"+slug, "")
	var e struct{ Data struct{ ContentHash string } }
	_ = json.Unmarshal(w.Body.Bytes(), &e)
	return e.Data.ContentHash
}

// rename changes an entry's slug through the entries API.
func (sv *service) rename(collection, slug, to string) {
	sv.t.Helper()
	if w := sv.do("PUT", "/api/entries/"+collection+"/"+slug, `{"slug":"`+to+`","contentHash":"`+sv.hash(collection, slug)+`"}`); w.Code != 200 {
		sv.t.Fatalf("rename: %d %s", w.Code, w.Body)
	}
}

const blogSite = `-- cms.config.yaml --
watch: none
sites: [{handle: main, url: 'https://example.com/', locale: en}]
-- resources/collections/blog.yaml --
title: Blog
route: /blog/{slug}
-- content/collections/blog/hello.md --
---
title: Hello
status: published
---
Hello body.
-- content/collections/blog/first.md --
---
title: First
status: published
---
First body.
-- content/seo/redirects/old.yaml --
version: 1
id: old
site: main
source: /old
destination: /blog/hello
status: 301
enabled: true
`

// TestSiteRedirectsAndNotFound: the public website answers authored redirects before rendering
// (page GETs and HEADs only), records the pages it answers 404, and a renamed published entry's
// old URL redirects to the new one.
func TestSiteRedirectsAndNotFound(t *testing.T) {
	t.Parallel()
	sv := newService(t, blogSite)
	if w := sv.visit("GET", "/blog/hello"); w.Code != 200 || !strings.Contains(w.Body.String(), "Hello body.") {
		t.Fatalf("page = %d %s", w.Code, w.Body)
	}
	w := sv.visit("GET", "/old?utm=x&y=1")
	if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "https://example.com/blog/hello?utm=x&y=1" {
		t.Errorf("GET /old = %d Location %q", w.Code, w.Header().Get("Location"))
	}
	if w := sv.visit("HEAD", "/old"); w.Code != http.StatusMovedPermanently {
		t.Errorf("HEAD /old = %d", w.Code)
	}
	if w := sv.visit("POST", "/old"); w.Code == http.StatusMovedPermanently || w.Header().Get("Location") != "" {
		t.Errorf("POST /old = %d Location %q, want no redirect", w.Code, w.Header().Get("Location"))
	}

	w = sv.visit("GET", "/no-such-page?q=1")
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "<html") {
		t.Errorf("unknown page = %d %s", w.Code, w.Body)
	}
	nf, err := seoops.NotFound(sv.s)
	if err != nil || nf == nil {
		t.Fatalf("tracker: %v %v", nf, err)
	}
	nf.Flush()
	w = sv.do("GET", "/api/seo/not-found?site=main", "")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"path":"/no-such-page"`) {
		t.Errorf("not-found list = %d %s", w.Code, w.Body)
	}
	if strings.Contains(w.Body.String(), "/old") || strings.Contains(w.Body.String(), "/blog/hello") {
		t.Errorf("a page that was found is listed: %s", w.Body)
	}

	sv.rename("blog", "first", "second")
	w = sv.visit("GET", "/blog/first")
	if w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "https://example.com/blog/second" {
		t.Errorf("old URL after the rename = %d Location %q", w.Code, w.Header().Get("Location"))
	}
	if w := sv.visit("GET", "/blog/second"); w.Code != 200 || !strings.Contains(w.Body.String(), "First body.") {
		t.Errorf("new URL = %d", w.Code)
	}
}
