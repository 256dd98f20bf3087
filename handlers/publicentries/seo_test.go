package publicentries_test

import (
	"context"
	"encoding/json"
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
	"cms/content/fsstore"
	"cms/content/markdown"
	"cms/content/seo"
	"cms/handlers/publicentries"
	"cms/handlers/web/webtest"
)

const seoFiles = `
-- resources/seo/sites/default.yaml --
version: 1
kind: site
site: default
seo:
  titleSuffix: Example
  siteName: Example
  social: {twitterSite: '@example'}
-- resources/seo/sections/collection/blog.yaml --
version: 1
kind: section
section: collection
handle: blog
seo:
  description: {kind: field, value: category}
  sitemap: {priority: 0.8, changeFrequency: weekly}
-- content/collections/docs/hidden.md --
---
title: Hidden
status: published
seo:
  enabled: false
---
-- content/collections/docs/legacy.md --
---
title: Legacy
status: published
meta_title: Old </script> title
og_image: img/cover.png
canonical_url: "https://example.com/docs/legacy?utm_source=feed&page=2"
---
`

func newSEOHandler(t *testing.T, dir string) http.Handler {
	t.Helper()
	st := contenttest.OpenStore(t, dir)
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false),
		SEO: seo.NewResolver(seo.Config{Enabled: true, Metadata: true, StructuredData: true}, st),
		Site: func(*http.Request) content.Site {
			return content.Site{Handle: "default", URL: "https://example.com", Locale: "en-US"}
		}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

type seoJSON struct {
	Excluded    bool
	Title       string
	Description string
	Canonical   string
	Robots      struct {
		Index, Follow bool
		Content       string
	}
	OpenGraph struct{ Title, Description, URL, Type, SiteName, Locale, Image, ImageAlt string }
	Twitter   struct{ Card, Site, Creator string }
	JSONLD    map[string]any `json:"jsonLd"`
	Sitemap   struct {
		Included        bool
		Priority        *float64
		ChangeFrequency string
	}
}

func getSEO(t *testing.T, h http.Handler, path string) (seoJSON, *json.RawMessage) {
	t.Helper()
	w := webtest.Do(t, h, webtest.Request{Path: path})
	if w.Code != http.StatusOK {
		t.Fatalf("%s: status %d: %s", path, w.Code, w.Body)
	}
	var got struct {
		Data struct {
			Title string
			SEO   *json.RawMessage `json:"seo"`
		}
	}
	webtest.DecodeJSON(t, w, &got)
	var s seoJSON
	if got.Data.SEO != nil {
		if err := json.Unmarshal(*got.Data.SEO, &s); err != nil {
			t.Fatal(err)
		}
	}
	return s, got.Data.SEO
}

// TestSingleEntrySEO: the single entry carries the resolved seo object, built from the same
// cascade as the site's head tags; lists do not.
func TestSingleEntrySEO(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site+seoFiles)
	h := newSEOHandler(t, dir)

	s, raw := getSEO(t, h, "/api/public/entries/blog/one")
	if raw == nil {
		t.Fatal("no seo member")
	}
	if s.Title != "One | Example" || s.Description != "news" || s.Canonical != "https://example.com/blog/2026/03/05/one" ||
		!s.Robots.Index || !s.Robots.Follow || s.Robots.Content != "" || s.Excluded {
		t.Errorf("seo = %+v", s)
	}
	if s.OpenGraph.Title != "One" || s.OpenGraph.URL != s.Canonical || s.OpenGraph.Type != "article" || s.OpenGraph.SiteName != "Example" ||
		s.OpenGraph.Locale != "en_US" || s.Twitter.Card != "summary" || s.Twitter.Site != "@example" {
		t.Errorf("openGraph/twitter = %+v %+v", s.OpenGraph, s.Twitter)
	}
	if s.JSONLD["@type"] != "Article" || s.JSONLD["headline"] != "One" || s.JSONLD["url"] != s.Canonical {
		t.Errorf("jsonLd = %v", s.JSONLD)
	}
	if !s.Sitemap.Included || s.Sitemap.Priority == nil || *s.Sitemap.Priority != 0.8 || s.Sitemap.ChangeFrequency != "weekly" {
		t.Errorf("sitemap = %+v", s.Sitemap)
	}

	s, _ = getSEO(t, h, "/api/public/entries/docs/hidden")
	if !s.Excluded || s.Robots.Index || s.Robots.Content != "noindex" || s.Sitemap.Included || s.JSONLD != nil || s.Canonical != "" {
		t.Errorf("excluded entry seo = %+v", s)
	}

	s, _ = getSEO(t, h, "/api/public/entries/docs/legacy")
	if s.Title != "Old </script> title | Example" || s.OpenGraph.Image != "https://example.com/assets/img/cover.png" ||
		s.Canonical != "https://example.com/docs/legacy?page=2" || s.Twitter.Card != "summary_large_image" {
		t.Errorf("legacy entry seo = %+v", s)
	}
	w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/docs/legacy"})
	if strings.Contains(w.Body.String(), "</script>") {
		t.Errorf("the body carries </script> unescaped: %s", w.Body)
	}

	// Lists stay without seo.
	w = webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog"})
	if strings.Contains(w.Body.String(), `"seo"`) {
		t.Errorf("a list carries seo: %s", w.Body)
	}
}

// TestSingleEntrySEOFollowsDocuments: an edited SEO document changes the seo object and the
// ETag, without a restart.
func TestSingleEntrySEOFollowsDocuments(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site+seoFiles)
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchPoll, PollInterval: 20 * time.Millisecond, NoSync: true, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false),
		SEO:  seo.NewResolver(seo.Config{Enabled: true, Metadata: true}, st),
		Site: func(*http.Request) content.Site { return content.Site{Handle: "default", URL: "https://example.com"} }})
	if err != nil {
		t.Fatal(err)
	}
	const path = "/api/public/entries/blog/one"
	etag := webtest.Do(t, h, webtest.Request{Path: path}).Header().Get("ETag")
	if w := webtest.Do(t, h, webtest.Request{Path: path, Header: http.Header{"If-None-Match": {etag}}}); w.Code != http.StatusNotModified {
		t.Fatalf("unchanged: status %d", w.Code)
	}
	if err := os.WriteFile(filepath.Join(dir, "resources/seo/sites/default.yaml"), []byte("seo:\n  titleSuffix: Changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute) // a failure guard only
	for {
		if s, _ := getSEO(t, h, path); s.Title == "One | Changed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the edited site document was never applied")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if w := webtest.Do(t, h, webtest.Request{Path: path, Header: http.Header{"If-None-Match": {etag}}}); w.Code != http.StatusOK {
		t.Errorf("old ETag after the edit: status %d", w.Code)
	}
}

func TestSEORequiresSite(t *testing.T) {
	t.Parallel()
	_, err := publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(t, contenttest.WriteSite(t, site)), Markdown: markdown.New(false),
		SEO: seo.NewResolver(seo.Config{}, nil)})
	if err == nil || !strings.Contains(err.Error(), "Site is required") {
		t.Errorf("err = %v", err)
	}
}

// BenchmarkSingleEntrySEO: a cached single entry with and without the seo object.
func BenchmarkSingleEntrySEO(b *testing.B) {
	dir := contenttest.WriteSite(b, site+seoFiles)
	st := contenttest.OpenStore(b, dir)
	for _, withSEO := range []bool{false, true} {
		d := publicentries.Deps{Store: st, Markdown: markdown.New(false)}
		if withSEO {
			d.SEO = seo.NewResolver(seo.Config{Enabled: true, Metadata: true, StructuredData: true}, st)
			d.Site = func(*http.Request) content.Site { return content.Site{Handle: "default", URL: "https://example.com"} }
		}
		h, err := publicentries.New(d)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(map[bool]string{false: "without", true: "with"}[withSEO], func(b *testing.B) {
			r := httptest.NewRequest(http.MethodGet, "/api/public/entries/blog/one", nil)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatal(w.Code)
				}
			}
		})
	}
}

// TestListItemsShareSingleEntries: a list's item is the single entry's data without its seo
// object, and a list's body and ETag do not depend on whether single entries were read first
// (with an SEO resolver an entry is cached once, as its whole response, and lists take their
// items from it), nor on whether the group has an SEO resolver at all.
func TestListItemsShareSingleEntries(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site+seoFiles)
	plain := func() http.Handler {
		st := contenttest.OpenStore(t, dir)
		h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false)})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	const list = "/api/public/entries/blog?sort=title"
	type result struct {
		body, etag string
		singles    map[string]map[string]json.RawMessage // slug -> data members
	}
	run := func(h http.Handler, singlesFirst bool) result {
		var res result
		var items []map[string]json.RawMessage
		getList := func() {
			w := webtest.Do(t, h, webtest.Request{Path: list})
			if w.Code != http.StatusOK {
				t.Fatalf("%s: %d %s", list, w.Code, w.Body)
			}
			res.body, res.etag = w.Body.String(), w.Header().Get("ETag")
			var got struct{ Data []map[string]json.RawMessage }
			webtest.DecodeJSON(t, w, &got)
			items = got.Data
		}
		getSingles := func() {
			res.singles = map[string]map[string]json.RawMessage{}
			for _, slug := range []string{"one", "two", "three"} {
				w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/" + slug})
				if w.Code != http.StatusOK {
					continue // not published in the fixture
				}
				var got struct{ Data map[string]json.RawMessage }
				webtest.DecodeJSON(t, w, &got)
				res.singles[slug] = got.Data
			}
		}
		if singlesFirst {
			getSingles()
			getList()
		} else {
			getList()
			getSingles()
		}
		if len(items) == 0 || len(res.singles) == 0 {
			t.Fatalf("no items (%d) or no single entries (%d)", len(items), len(res.singles))
		}
		for _, it := range items {
			var slug string
			_ = json.Unmarshal(it["slug"], &slug)
			single, ok := res.singles[slug]
			if !ok {
				continue
			}
			if _, has := it["seo"]; has {
				t.Errorf("list item %s carries seo", slug)
			}
			delete(single, "seo")
			a, _ := json.Marshal(it)
			b, _ := json.Marshal(single)
			if string(a) != string(b) {
				t.Errorf("list item %s differs from the single entry's data:\n%s\n%s", slug, a, b)
			}
		}
		// Twice more: from the cache now.
		before := res.body
		getList()
		if res.body != before {
			t.Errorf("the list changed when read again:\n%s\n%s", before, res.body)
		}
		return res
	}
	results := []result{
		run(newSEOHandler(t, dir), true),
		run(newSEOHandler(t, dir), false),
		run(plain(), true),
		run(plain(), false),
	}
	for i, r := range results[1:] {
		if r.body != results[0].body || r.etag != results[0].etag {
			t.Errorf("run %d: list %s %s; want the first run's %s %s", i+1, r.etag, r.body, results[0].etag, results[0].body)
		}
	}
}
