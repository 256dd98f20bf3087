package site_test

import (
	"net/http"
	"net/url"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"cms/content/preview"
	"cms/handlers/site"
)

// A page request with ?preview=TOKEN shows the current draft of the one entry the token was
// signed for, marked noindex and never cached; any other token, entry or an expired token gets
// what an anonymous visitor gets.
func TestDraftPreview(t *testing.T) {
	t.Parallel()
	var offset atomic.Int64
	var signer *preview.Signer
	f := newSite(t, testSite, func(d *site.Deps) {
		root, err := os.OpenRoot(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { root.Close() })
		signer = preview.New(root, false, func() time.Time { return time.Now().Add(time.Duration(offset.Load())) })
		d.Preview = signer
		d.CacheBytes = 1 << 20
	})
	sign := func(coll, slug string) string {
		tok, _, err := signer.Sign(coll, slug, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return url.QueryEscape(tok)
	}
	hidden, hello := sign("blog", "hidden"), sign("blog", "hello")
	draftPath := "/blog/2026/04/hidden?preview=" + hidden

	w := f.get(t, draftPath)
	if w.Code != http.StatusOK {
		t.Fatalf("preview of a draft = %d\n%s", w.Code, w.Body)
	}
	wantContains(t, "preview", w.Body.String(), "<h1>Hidden Draft</h1>", "Not yet.", `<p class="preview" role="status">`, `<meta name="robots" content="noindex">`)
	if h := w.Header(); h.Get("Cache-Control") != "no-store" || h.Get("X-Robots-Tag") != "noindex" {
		t.Errorf("preview headers %q", h)
	}

	// The token is for that entry only, and a bad one shows nothing more than anonymous.
	for _, p := range []string{"/blog/2026/04/hidden", "/blog/2026/04/hidden?preview=" + hello,
		"/blog/2026/04/hidden?preview=v1.1.AAAA", "/blog/2026/04/hidden?preview=" + hidden + "&preview=" + hidden} {
		if w := f.get(t, p); w.Code != http.StatusNotFound {
			t.Errorf("%s = %d, want 404", p, w.Code)
		} else {
			wantNotContains(t, p, w.Body.String(), "Not yet.")
		}
	}
	// A published page with a bad token is the published page.
	if w := f.get(t, "/blog/2026/04/hello?preview="+hidden); w.Code != http.StatusOK || w.Header().Get("X-Robots-Tag") != "" {
		t.Errorf("published page with another entry's token = %d %q", w.Code, w.Header())
	}

	// Once the token expires the same URL is a 404: the draft was never kept in the page cache.
	offset.Store(int64(2 * time.Minute))
	if w := f.get(t, draftPath); w.Code != http.StatusNotFound {
		t.Errorf("expired preview = %d, want 404\n%s", w.Code, w.Body)
	} else {
		wantNotContains(t, "expired preview", w.Body.String(), "Not yet.")
	}
}
