package publicentries_test

import (
	"net/http"
	"strings"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/markdown"
	"cms/handlers/publicentries"
	"cms/handlers/web/webtest"
)

// onlyFor accepts the token "good" for one entry.
type onlyFor struct{ collection, slug string }

func (o onlyFor) Verify(token, collection, slug string) error {
	if token == "good" && collection == o.collection && slug == o.slug {
		return nil
	}
	return content.Unauthenticatedf("test", "Invalid or expired preview token")
}

// TestPreviewParameter: ?preview= shows a draft only with a token for that entry, every answer
// is no-store and noindex, and without a verifier the parameter opens nothing.
func TestPreviewParameter(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false), Preview: onlyFor{"blog", "secret"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		method, path string
		status       int
		shows        bool
	}{
		{"GET", "/api/public/entries/blog/secret?preview=good", 200, true},
		{"HEAD", "/api/public/entries/blog/secret?preview=good", 200, false},
		{"GET", "/api/public/entries/blog/secret?preview=bad", 401, false},
		{"GET", "/api/public/entries/blog/one?preview=good", 401, false},
		{"GET", "/api/public/entries/blog/secret?preview=good&preview=good", 400, false},
		{"GET", "/api/public/entries/blog/secret?preview=", 401, false},
		{"GET", "/api/public/entries/blog/secret", 404, false},
	} {
		w := webtest.Do(t, h, webtest.Request{Method: tc.method, Path: tc.path})
		if w.Code != tc.status || strings.Contains(w.Body.String(), "Not for the public") != tc.shows {
			t.Errorf("%s %s = %d %s", tc.method, tc.path, w.Code, w.Body)
		}
		if strings.Contains(tc.path, "preview") && (w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("X-Robots-Tag") != "noindex") {
			t.Errorf("%s %s: headers %q", tc.method, tc.path, w.Header())
		}
	}
	plain := newHandler(t, contenttest.WriteSite(t, site))
	if w := webtest.Do(t, plain, webtest.Request{Path: "/api/public/entries/blog/secret?preview=good"}); w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "Not for the public") {
		t.Errorf("without a verifier = %d %s", w.Code, w.Body)
	}
}
