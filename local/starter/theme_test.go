package starter_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/handlers/site"
	"cms/local/starter"
)

// The starter site's own theme renders its pages: home, the blog list with pagination, a post,
// a page, a topic page, the contact form, the menu and the footer from the site-settings
// global; and no template fails.
func TestStarterTheme(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "site")
	if err := starter.CopyTo(dir); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	st := contenttest.OpenStore(t, dir)
	h, err := site.New(site.Deps{Store: st, Views: filepath.Join(dir, "resources", "views"),
		Sites: []content.Site{{Handle: "default", URL: "http://localhost:3000", Locale: "en", Default: true}},
		Flags: site.Flags{Metadata: true, Sitemap: true, Robots: true, Humans: true},
		Log:   slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path   string
		status int
		want   []string
	}{
		{"/", 200, []string{"<h1>A small site made of plain files</h1>", `<p class="lead">A small site to explore, break and rebuild.</p>`,
			"<h2>Everything is a file</h2>", `<a class="button" href="/blog/2026/04/welcome-to-cms">Read the welcome post</a>`,
			"Latest posts", `<a href="/tags/news">News</a>`, `<link rel="stylesheet" href="/assets/theme/starter.css">`,
			`<a href="/about">About</a>`, `<a href="https://commonmark.org/help/" rel="noopener" class="external">Markdown guide</a>`,
			`<a href="https://mastodon.example/@starter" rel="noopener me">Mastodon</a>`, `<a href="mailto:hello@example.com">`}},
		{"/blog", 200, []string{"<h1>Blog</h1>", `rel="next">Older →</a>`, "Page 1 of 2"}},
		{"/blog?page=2", 200, []string{`rel="prev">← Newer</a>`, "Page 2 of 2"}},
		{"/blog/2026/04/welcome-to-cms", 200, []string{"<h1>Welcome to your new site</h1>", "3 min read", `<a href="/tags/guides">Guides</a>`, "← All posts",
			`<title>Welcome to the starter site</title>`}},
		{"/about", 200, []string{"<h1>Who this starter is for</h1>"}},
		{"/contact", 200, []string{`<form class="cms-form" method="post" action="/api/forms/contact/submit"`, `name="_honeypot"`, `<option value="sales">Sales</option>`,
			// The page has no script to hide the company field for other topics, so it says when it counts.
			`<p class="cms-help" id="contact-company-help">For sales questions only.</p>`,
			`<input type="text" id="contact-company" name="company" value="" aria-describedby="contact-company-help">`}},
		// A field's help and its error are both read out with it.
		{"/contact?form=contact&status=error&code=VALIDATION_ERROR&errors=%7B%22company%22%3A%5B%22Too+long%22%5D%7D", 200,
			[]string{`name="company" value="" aria-invalid="true" aria-describedby="contact-company-help contact-company-error">`}},
		{"/tags/news", 200, []string{"<h1>News</h1>", "Welcome to your new site"}},
		{"/search?q=welcome", 200, []string{"<h1>Search</h1>", `value="welcome"`, `<a href="/blog/2026/04/welcome-to-cms">Welcome to your new site</a>`, "<mark>", `<a href="/search" aria-current="page">Search</a>`}},
		// A browser that sends no Referer is sent to the form's redirect page on failure too:
		// the thank-you page then says the message was not sent and shows the form again.
		{"/thanks?form=contact&status=error&code=VALIDATION_ERROR&errors=%7B%22email%22%3A%5B%22This+field+is+required%22%5D%7D&old=%7B%22name%22%3A%22Ada%22%7D", 200,
			[]string{"<h1>Your message was not sent</h1>", `<form class="cms-form"`, "This field is required", `value="Ada"`}},
		// A page number past the last says so and links back, rather than "Page 99 of 2".
		{"/blog?page=99", 200, []string{`<p>There is no page 99: the blog has 2. <a href="/blog">Back to the newest posts</a>.</p>`}},
		{"/search?q=welcome&page=9", 200, []string{`<p>There is no page 9 of results. <a href="/search?q=welcome">Back to the first page</a>.</p>`}},
		{"/coming-soon", 404, []string{"<h1>Page not found</h1>"}},
		{"/blog/2026/05/draft-roadmap", 404, nil},
	}
	unwanted := map[string][]string{"/blog?page=99": {"Page 99 of", "No posts yet", "← Newer"}, "/search?q=welcome&page=9": {"Page 9 of", "← Previous"}}
	for _, c := range cases {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, c.path, nil))
		if w.Code != c.status {
			t.Errorf("%s: %d, want %d\n%s", c.path, w.Code, c.status, w.Body)
			continue
		}
		for _, s := range c.want {
			if !strings.Contains(w.Body.String(), s) {
				t.Errorf("%s lacks %q:\n%s", c.path, s, w.Body)
			}
		}
		for _, s := range unwanted[c.path] {
			if strings.Contains(w.Body.String(), s) {
				t.Errorf("%s has %q:\n%s", c.path, s, w.Body)
			}
		}
	}
	if log.Len() > 0 {
		t.Errorf("log:\n%s", log.String())
	}
}
