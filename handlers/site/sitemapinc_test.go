package site_test

import (
	"log/slog"
	"net/http/httptest"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/handlers/site"
)

// The sitemap kept between requests is updated per changed entry: after entries are created,
// edited, unpublished, excluded and deleted it is byte for byte the sitemap a fresh server builds
// from scratch.
func TestSitemapFollowsChanges(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, testSite)
	st := contenttest.OpenStore(t, dir)
	build := func() func() string {
		h, err := site.New(site.Deps{Store: st, Sites: []content.Site{{Handle: "default", URL: "https://example.com", Default: true}},
			Flags: site.Flags{Sitemap: true}, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return func() string {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", "/sitemap.xml", nil))
			if w.Code != 200 {
				t.Fatalf("sitemap = %d", w.Code)
			}
			return w.Body.String()
		}
	}
	kept := build()
	before := kept()
	wantContains(t, "sitemap", before, "https://example.com/blog/2026/04/hello", "https://example.com/about")

	edit := func(c, slug string, change func(e *content.Entry)) {
		t.Helper()
		e, err := st.Entry(c, slug)
		if err != nil {
			t.Fatal(err)
		}
		next := *e
		next.Data = e.Data.Clone()
		change(&next)
		if _, err := st.UpdateEntry(c, slug, e.Hash, &next); err != nil {
			t.Fatal(err)
		}
	}
	edit("blog", "hello", func(e *content.Entry) { e.Title = "Hello again" }) // a new updatedAt
	edit("blog", "hidden", func(e *content.Entry) { e.Status = content.StatusPublished })
	edit("blog", "second", func(e *content.Entry) { e.Status = content.StatusDraft })
	edit("pages", "contact", func(e *content.Entry) { e.Data.Set("no_index", true) })
	if err := st.DeleteEntry("pages", "about"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateEntry(&content.Entry{Collection: "pages", Slug: "zzz-new", Title: "New", Status: content.StatusPublished,
		CreatedAt: "2026-10-01T00:00:00.000Z", UpdatedAt: "2026-10-01T00:00:00.000Z", Data: content.NewMap(0)}); err != nil {
		t.Fatal(err)
	}
	after := kept()
	if fresh := build()(); after != fresh {
		t.Errorf("kept sitemap after changes:\n%s\nfrom scratch:\n%s", after, fresh)
	}
	wantContains(t, "updated sitemap", after, "https://example.com/blog/2026/04/hidden", "https://example.com/zzz-new")
	wantNotContains(t, "updated sitemap", after, "https://example.com/about<", "/blog/2026/05/second", "https://example.com/contact")

	// A deletion alone.
	if err := st.DeleteEntry("blog", "hidden"); err != nil {
		t.Fatal(err)
	}
	if got, fresh := kept(), build()(); got != fresh || got == after {
		t.Errorf("kept sitemap after a deletion:\n%s\nfrom scratch:\n%s", got, fresh)
	}
}

// A page shows its entry's current body: the kept rendered bodies follow the file's hash.
func TestPageBodyFollowsEdits(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, testSite)
	st := contenttest.OpenStore(t, dir)
	h, err := site.New(site.Deps{Store: st, Sites: []content.Site{{Handle: "default", URL: "https://example.com", Default: true}},
		BodyBytes: 1 << 20, CacheBytes: 1 << 20, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	get := func() string {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/blog/2026/04/hello", nil))
		return w.Body.String()
	}
	wantContains(t, "page", get(), "<strong>the blog</strong>")
	e, err := st.Entry("blog", "hello")
	if err != nil {
		t.Fatal(err)
	}
	next := *e
	next.Content = "A *changed* body."
	if _, err := st.UpdateEntry("blog", "hello", e.Hash, &next); err != nil {
		t.Fatal(err)
	}
	body := get()
	wantContains(t, "edited page", body, "A <em>changed</em> body.")
	wantNotContains(t, "edited page", body, "the blog")
}
