package fsstore_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
	"cms/content/seo"
)

const seoSite = `
-- resources/collections/blog.yaml --
title: Blog
-- resources/seo/sites/default.yaml --
version: 1
kind: site
site: default
seo:
  titleSuffix: Example
  description: Site wide
-- resources/seo/sections/collection/blog.yaml --
version: 1
kind: section
section: collection
handle: blog
seo:
  description: {kind: field, value: summary}
-- resources/seo/sections/taxonomy/tags.yaml --
seo:
  robots: {indexing: noindex}
-- resources/seo/sections/collection/bad.yaml --
version: 1
kind: section
section: taxonomy
handle: other
seo:
  titel: typo
-- resources/seo/sections/collection/broken.yaml --
seo: [unclosed
-- resources/seo/sections/pages/x.yaml --
seo: {}
-- resources/seo/sites/nothing.yaml --
version: 1
kind: site
`

func TestSEODocs(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, seoSite)
	st := contenttest.OpenStore(t, dir)

	m, err := st.SEOSite("default")
	if err != nil || m.Value("titleSuffix") != "Example" {
		t.Fatalf("SEOSite = %v, %v", m, err)
	}
	if m, err := st.SEOSite("nothing"); m != nil || err != nil {
		t.Errorf("a document without seo: %v, %v", m, err)
	}
	if m, err := st.SEOSite("missing"); m != nil || err != nil {
		t.Errorf("a missing document: %v, %v", m, err)
	}
	// Handles never reach the file system: a path is simply not a document.
	for _, h := range []string{"../collections/blog", "default/../default", "", "..", "/etc/passwd"} {
		if m, err := st.SEOSite(h); m != nil || err != nil {
			t.Errorf("SEOSite(%q) = %v, %v", h, m, err)
		}
		if m, err := st.SEOSection("collection", h); m != nil || err != nil {
			t.Errorf("SEOSection(collection, %q) = %v, %v", h, m, err)
		}
	}
	if m, err := st.SEOSection("../sites", "default"); m != nil || err != nil {
		t.Errorf("SEOSection(../sites) = %v, %v", m, err)
	}
	if m, err := st.SEOSection("taxonomy", "tags"); err != nil || m == nil {
		t.Errorf("taxonomy section = %v, %v", m, err)
	}
	for _, h := range []string{"bad", "broken"} {
		if _, err := st.SEOSection("collection", h); err == nil {
			t.Errorf("invalid section %s loaded without an error", h)
		}
	}

	// Every broken document is a problem for cms check, naming the file and the key.
	probs := map[string]string{}
	for _, p := range st.Problems() {
		probs[p.File] = p.Message
	}
	for file, want := range map[string]string{
		"resources/seo/sections/collection/bad.yaml":    `section must be "collection"`,
		"resources/seo/sections/collection/broken.yaml": "",
		"resources/seo/sections/pages":                  "collection and taxonomy only",
	} {
		msg, ok := probs[file]
		if !ok || !strings.Contains(msg, want) {
			t.Errorf("problem of %s = %q (reported: %v), want it to contain %q", file, msg, ok, want)
		}
	}
	if msg := probs["resources/seo/sections/collection/bad.yaml"]; !strings.Contains(msg, `handle must be "bad"`) || !strings.Contains(msg, "seo.titel: unknown key") {
		t.Errorf("bad.yaml problem = %q", msg)
	}

	// The resolver reads the store's layers, skipping the broken ones.
	r := seo.NewResolver(seo.Config{Enabled: true, Metadata: true}, st)
	site := content.Site{Handle: "default", URL: "https://example.com", Locale: "en"}
	data := content.NewMap(1)
	data.Set("summary", "From the field")
	meta := r.Resolve(seo.Subject{Site: site, Kind: "entry", Section: "blog", Path: "/blog/a", Title: "A", Data: data})
	if meta.Title != "A | Example" || meta.Description != "From the field" {
		t.Errorf("resolved %q / %q", meta.Title, meta.Description)
	}
	meta = r.Resolve(seo.Subject{Site: site, Kind: "entry", Section: "broken", Path: "/b", Title: "B"})
	if meta.Title != "B | Example" || meta.Description != "Site wide" {
		t.Errorf("with a broken section: %q / %q", meta.Title, meta.Description)
	}
	if meta := r.Resolve(seo.Subject{Site: site, Kind: "term", Section: "tags", Path: "/tags/x", Title: "X"}); !meta.NoIndex {
		t.Error("taxonomy section not applied to a term")
	}
}

// TestSEODocsHotReload: an edited document is seen without a restart, and a fix clears the problem.
func TestSEODocsHotReload(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, seoSite)
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchPoll, PollInterval: 20 * time.Millisecond, NoSync: true, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	file := filepath.Join(dir, "resources/seo/sites/default.yaml")
	if err := os.WriteFile(file, []byte("seo:\n  titleSuffix: Changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { m, _ := st.SEOSite("default"); return m != nil && m.Value("titleSuffix") == "Changed" })
	if err := os.WriteFile(file, []byte("seo:\n  robots: {indexing: sometimes}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { _, err := st.SEOSite("default"); return err != nil })
	if err := os.WriteFile(file, []byte("seo:\n  robots: {indexing: noindex}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { m, err := st.SEOSite("default"); return err == nil && m != nil })
	for _, p := range st.Problems() {
		if p.File == "resources/seo/sites/default.yaml" {
			t.Errorf("fixed document still reported: %s", p.Message)
		}
	}
}
