package publicentries_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/lru"
	"cms/content/markdown"
	"cms/content/seo"
	"cms/handlers/publicentries"
	"cms/handlers/web/webtest"
)

// readCounter counts the entries read from disk, by slug.
type readCounter struct {
	publicentries.Store
	mu    sync.Mutex
	reads map[string]int
}

func (s *readCounter) Entry(collection, slug string) (*content.Entry, error) {
	s.mu.Lock()
	s.reads[slug]++
	s.mu.Unlock()
	return s.Store.Entry(collection, slug)
}

// An entry read often stays cached while many others pass through a cache too small for them
// all: the least recently used go first, so the hot one is read and rendered once.
func TestHotEntryStaysCached(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("-- resources/collections/blog.yaml --\ntitle: Blog\nroute: /blog/{slug}\n")
	const n = 600
	for i := range n {
		fmt.Fprintf(&b, "-- content/collections/blog/post-%03d.md --\n---\ntitle: Post %d\nstatus: published\n---\n\n%s\n", i, i, strings.Repeat("Some body text. ", 30))
	}
	st := &readCounter{Store: contenttest.OpenStore(t, contenttest.WriteSite(t, b.String())), reads: map[string]int{}}
	// Some tens of entries fit.
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false), CacheBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	get := func(slug string) {
		if w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog/" + slug}); w.Code != 200 {
			t.Fatalf("GET %s: %d %s", slug, w.Code, w.Body)
		}
	}
	for i := range n {
		get("post-000")
		get(fmt.Sprintf("post-%03d", i))
	}
	if got := st.reads["post-000"]; got != 1 {
		t.Errorf("the hot entry was read %d times, want once", got)
	}
}

// A list query is cached when it is asked a second time, not the first: the distinct queries
// of a client paging and filtering are mostly asked once and would only push out the rest.
func TestListCachedWhenAskedAgain(t *testing.T) {
	t.Parallel()
	caches := &lru.Registry{}
	h, err := publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(t, contenttest.WriteSite(t, site)),
		Markdown: markdown.New(false), Caches: caches})
	if err != nil {
		t.Fatal(err)
	}
	lists := func() lru.Stats {
		for _, c := range caches.Stats() {
			if c.Name == "publicEntries.lists" {
				return c.Stats
			}
		}
		t.Fatal("no publicEntries.lists cache")
		return lru.Stats{}
	}
	const path = "/api/public/entries/blog?sort=title&limit=2"
	var bodies []string
	for i, want := range []lru.Stats{{Entries: 0, Hits: 0}, {Entries: 1, Hits: 0}, {Entries: 1, Hits: 1}} {
		w := webtest.Do(t, h, webtest.Request{Path: path})
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
		}
		bodies = append(bodies, w.Body.String())
		if got := lists(); got.Entries != want.Entries || got.Hits != want.Hits {
			t.Errorf("after request %d: %d cached, %d hits; want %d, %d", i+1, got.Entries, got.Hits, want.Entries, want.Hits)
		}
	}
	if bodies[0] != bodies[1] || bodies[1] != bodies[2] {
		t.Errorf("the responses differ:\n%s\n%s\n%s", bodies[0], bodies[1], bodies[2])
	}
}

// A list's ETag names its content: the same for the same page whether it was built or cached,
// different for another page, another projection or after a listed entry changed, and a client
// holding it gets 304.
func TestListETag(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, contenttest.WriteSite(t, site))
	h, err := publicentries.New(publicentries.Deps{Store: st, Markdown: markdown.New(false)})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string, hdr http.Header) *httptest.ResponseRecorder {
		t.Helper()
		w := webtest.Do(t, h, webtest.Request{Path: "/api/public/entries/blog?" + path, Header: hdr})
		if w.Code != http.StatusOK && w.Code != http.StatusNotModified {
			t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
		}
		return w
	}
	const page = "sort=title&limit=2"
	first := get(page, nil)
	etag := first.Header().Get("ETag")
	if etag == "" || first.Header().Get("Content-Length") != strconv.Itoa(first.Body.Len()) {
		t.Fatalf("ETag %q, Content-Length %q for %d bytes", etag, first.Header().Get("Content-Length"), first.Body.Len())
	}
	for i := range 3 { // built again, then cached, then from the cache
		if got := get(page, nil).Header().Get("ETag"); got != etag {
			t.Errorf("request %d: ETag %s, first %s", i+2, got, etag)
		}
	}
	if w := get(page, http.Header{"If-None-Match": {etag}}); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d %q, want 304 and no body", w.Code, w.Body)
	}
	others := map[string]string{page: etag}
	for _, p := range []string{"sort=title&limit=2&offset=1", "sort=title&limit=2&fields=title", "sort=title&limit=2&fields=slug", "sort=-title&limit=2"} {
		e := get(p, nil).Header().Get("ETag")
		for q, o := range others {
			if e == o {
				t.Errorf("%s and %s share the ETag %s", p, q, e)
			}
		}
		others[p] = e
	}
	cur, err := st.Entry("blog", "one")
	if err != nil {
		t.Fatal(err)
	}
	next := *cur
	next.Content = "Edited body."
	if _, err := st.UpdateEntry("blog", "one", cur.Hash, &next); err != nil {
		t.Fatal(err)
	}
	w := get(page, http.Header{"If-None-Match": {etag}})
	if w.Code != http.StatusOK || w.Header().Get("ETag") == etag || !strings.Contains(w.Body.String(), "Edited body.") {
		t.Errorf("after an edit of a listed entry: %d, ETag %s (was %s), body %s", w.Code, w.Header().Get("ETag"), etag, w.Body)
	}
}

// A list's ETag is the same from every process serving the same content (another instance, a
// restart), and differs when the same entries are served differently: here their urls, after
// the collection's route changed, with nothing else to tell the two processes apart.
func TestListETagAcrossProcesses(t *testing.T) {
	t.Parallel()
	moved := strings.Replace(site, "route: /blog/{year}/{month}/{day}/{slug}", "route: /news/{slug}", 1)
	if moved == site {
		t.Fatal("the test site has no blog route to change")
	}
	const path = "/api/public/entries/blog?sort=title&limit=2"
	etag := func(dir string) (string, string) {
		h, err := publicentries.New(publicentries.Deps{Store: contenttest.OpenStore(t, dir), Markdown: markdown.New(false)})
		if err != nil {
			t.Fatal(err)
		}
		w := webtest.Do(t, h, webtest.Request{Path: path})
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
		}
		return w.Header().Get("ETag"), w.Body.String()
	}
	dir := contenttest.WriteSite(t, site)
	first, body := etag(dir)
	if again, _ := etag(dir); again != first {
		t.Errorf("another process serving the same site: ETag %s, first %s", again, first)
	}
	other, otherBody := etag(contenttest.WriteSite(t, moved))
	if otherBody == body || !strings.Contains(otherBody, `"/news/`) {
		t.Fatalf("the route change did not show: %s", otherBody)
	}
	if other == first {
		t.Errorf("different bodies share the ETag %s:\n%s\n%s", first, body, otherBody)
	}
}

// A single entry's ETag is the same from every process serving the same files and differs when
// the body does: after a route change and a restart (a fresh process), the old ETag must not get
// a 304 for the moved url. The same for the seo member after an SEO document changes.
func TestEntryETagAcrossProcesses(t *testing.T) {
	t.Parallel()
	moved := strings.Replace(site, "route: /blog/{year}/{month}/{day}/{slug}", "route: /news/{slug}", 1)
	if moved == site {
		t.Fatal("the test site has no blog route to change")
	}
	const path = "/api/public/entries/blog/one"
	get := func(dir string, withSEO bool, header http.Header) (int, string, string) {
		d := publicentries.Deps{Store: contenttest.OpenStore(t, dir), Markdown: markdown.New(false)}
		if withSEO {
			d.SEO = seo.NewResolver(seo.Config{Enabled: true, Metadata: true}, nil)
			d.Site = func(*http.Request) content.Site { return content.Site{Handle: "main", URL: "https://example.com"} }
		}
		h, err := publicentries.New(d)
		if err != nil {
			t.Fatal(err)
		}
		w := webtest.Do(t, h, webtest.Request{Path: path, Header: header})
		return w.Code, w.Header().Get("ETag"), w.Body.String()
	}
	for _, withSEO := range []bool{false, true} {
		dir := contenttest.WriteSite(t, site)
		code, first, body := get(dir, withSEO, nil)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, code, body)
		}
		if _, again, _ := get(dir, withSEO, nil); again != first {
			t.Errorf("seo %v: another process serving the same site: ETag %s, first %s", withSEO, again, first)
		}
		other := contenttest.WriteSite(t, moved)
		code, etag, otherBody := get(other, withSEO, http.Header{"If-None-Match": {first}})
		if code == http.StatusNotModified {
			t.Errorf("seo %v: the moved entry answered 304 to the old ETag %s (its url changed)", withSEO, first)
		} else if !strings.Contains(otherBody, `"/news/one"`) || etag == first {
			t.Errorf("seo %v: after the route change: ETag %s (first %s), body %s", withSEO, etag, first, otherBody)
		}
	}
}

// A single entry answered from the cache is the response its first request got, byte for byte
// and with the same ETag, whether the cached encoding is kept as it is or was compressed when
// the budget bound (then expanded for the response); with and without an SEO object.
func TestCachedEntryMatchesFirstResponse(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(site)
	const n = 40
	for i := range n {
		fmt.Fprintf(&b, "-- content/collections/blog/many-%02d.md --\n---\ntitle: Many %d\nstatus: published\n---\n\n%s\n", i, i, strings.Repeat("Some body text, said again. ", 40))
	}
	dir := contenttest.WriteSite(t, b.String()+seoFiles)
	for _, withSEO := range []bool{false, true} {
		st := contenttest.OpenStore(t, dir)
		reg := &lru.Registry{}
		d := publicentries.Deps{Store: st, Markdown: markdown.New(false), CacheBytes: 48 << 10, Caches: reg}
		if withSEO {
			d.SEO = seo.NewResolver(seo.Config{Enabled: true, Metadata: true}, st)
			d.Site = func(*http.Request) content.Site { return content.Site{Handle: "default", URL: "https://example.com"} }
		}
		h, err := publicentries.New(d)
		if err != nil {
			t.Fatal(err)
		}
		first := map[string]*httptest.ResponseRecorder{}
		for round := range 3 {
			for i := range n {
				path := fmt.Sprintf("/api/public/entries/blog/many-%02d", i)
				w := webtest.Do(t, h, webtest.Request{Path: path})
				if w.Code != 200 {
					t.Fatalf("seo %v, GET %s: %d %s", withSEO, path, w.Code, w.Body)
				}
				f := first[path]
				if f == nil {
					first[path] = w
					continue
				}
				if w.Body.String() != f.Body.String() || w.Header().Get("Etag") != f.Header().Get("Etag") ||
					w.Header().Get("Content-Length") != f.Header().Get("Content-Length") {
					t.Fatalf("seo %v, round %d, GET %s: got %s %q (%s bytes), first %s %q (%s bytes)", withSEO, round, path,
						w.Header().Get("Etag"), w.Body, w.Header().Get("Content-Length"), f.Header().Get("Etag"), f.Body, f.Header().Get("Content-Length"))
				}
			}
		}
		var shrunk, hits int
		for _, c := range reg.Stats() {
			if c.Name == "publicEntries.entries" {
				shrunk, hits = c.Shrunk, int(c.Hits)
			}
		}
		if shrunk == 0 || hits == 0 {
			t.Errorf("seo %v: %d hits, %d values compressed; the test needs both", withSEO, hits, shrunk)
		}
	}
}
