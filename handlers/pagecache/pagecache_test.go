package pagecache_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"cms/content/pagecache"
	hpc "cms/handlers/pagecache"
)

// fakeSite is a page handler like the site group's: it renders a page per path, recording what
// it reads, with a form token where the page has a form.
type fakeSite struct {
	renders atomic.Int32
	tokens  atomic.Int32
	block   chan struct{} // if set, renders wait on it
	status  int
	cookie  bool
	size    int
}

func (s *fakeSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.renders.Add(1)
	if s.block != nil {
		<-s.block
	}
	rec := pagecache.FromContext(r.Context())
	slug := strings.Trim(r.URL.Path, "/")
	rec.Entry("blog", slug)
	rec.Navigation("main")
	token, ok := rec.Placeholder("csrf")
	if !ok {
		token = fmt.Sprintf("direct-%d", s.tokens.Add(1))
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if s.cookie {
		w.Header().Set("Set-Cookie", "s=1")
	}
	if s.status != 0 {
		w.WriteHeader(s.status)
	}
	fmt.Fprintf(w, "<h1>%s on %s</h1>", slug, r.Host)
	if slug == "contact" {
		fmt.Fprintf(w, `<form><input name="token" value="%s"></form>`, token)
	}
	_, _ = io.WriteString(w, strings.Repeat("<p>lorem ipsum dolor</p>", 50+s.size))
}

type env struct {
	site  *fakeSite
	cache *pagecache.Cache
	h     http.Handler
}

func newEnv(t *testing.T, site *fakeSite, max int64) *env {
	t.Helper()
	c, err := pagecache.New(pagecache.Options{Driver: pagecache.NewMemory(1 << 26)})
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int32
	h := hpc.Wrap(site, hpc.Config{
		Cache: c,
		Rules: &pagecache.Rules{Reserved: []string{"/api", "/cp"}, Exclude: []string{"/account*"}},
		Site: func(r *http.Request) (string, bool) {
			switch r.Host {
			case "example.com":
				return "default", true
			case "fr.example.com":
				return "fr", true
			}
			return "", false
		},
		Fill:         map[string]func(*http.Request) string{"csrf": func(*http.Request) string { return fmt.Sprintf("fresh-%d", n.Add(1)) }},
		MaxPageBytes: max,
	})
	return &env{site: site, cache: c, h: h}
}

func (e *env) do(t *testing.T, method, target string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	if r.Host == "" || r.Host == "example.com" {
		r.Host = "example.com"
	}
	for i := 0; i < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			r.Host = hdr[i+1]
			continue
		}
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, r)
	return w
}

func TestMissThenHit(t *testing.T) {
	e := newEnv(t, &fakeSite{}, 0)
	a := e.do(t, "GET", "/hello")
	b := e.do(t, "GET", "/hello/") // the trailing slash is the same page
	if a.Code != 200 || a.Header().Get("X-Cache") != "MISS" || b.Header().Get("X-Cache") != "HIT" {
		t.Fatalf("X-Cache %q then %q", a.Header().Get("X-Cache"), b.Header().Get("X-Cache"))
	}
	if a.Body.String() != b.Body.String() || !strings.HasPrefix(b.Body.String(), "<h1>hello on example.com</h1>") {
		t.Fatalf("bodies differ: %.60q / %.60q", a.Body.String(), b.Body.String())
	}
	if e.site.renders.Load() != 1 {
		t.Errorf("%d renders", e.site.renders.Load())
	}
	if b.Header().Get("Content-Type") != "text/html; charset=utf-8" || b.Header().Get("ETag") == "" || a.Header().Get("ETag") != b.Header().Get("ETag") {
		t.Errorf("headers %v", b.Header())
	}
	// Conditional request: 304, no body.
	c := e.do(t, "GET", "/hello", "If-None-Match", b.Header().Get("ETag"))
	if c.Code != http.StatusNotModified || c.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d, %d bytes", c.Code, c.Body.Len())
	}
	// Per-site keys: the same path on another site is another page.
	fr := e.do(t, "GET", "/hello", "Host", "fr.example.com")
	if fr.Header().Get("X-Cache") != "MISS" || !strings.Contains(fr.Body.String(), "on fr.example.com") {
		t.Errorf("other site: %s %.40q", fr.Header().Get("X-Cache"), fr.Body.String())
	}
}

func TestBypassAndUnstorable(t *testing.T) {
	e := newEnv(t, &fakeSite{}, 0)
	for _, c := range []struct {
		target string
		hdr    []string
	}{
		{"/p", []string{"Cookie", "sid=1"}},
		{"/p", []string{"Authorization", "Bearer x"}},
		{"/p", []string{"Accept", "application/json"}},
		{"/p", []string{"Host", "evil.example"}},
		{"/api/x", nil},
		{"/account/orders", nil},
		{"/.env", nil},
		{"/blog%2Fx", nil},
		{"/p?preview=token", nil},
	} {
		for range 2 {
			w := e.do(t, "GET", c.target, c.hdr...)
			if w.Header().Get("X-Cache") != "BYPASS" || w.Code != 200 {
				t.Errorf("%s %v: %d %q", c.target, c.hdr, w.Code, w.Header().Get("X-Cache"))
			}
		}
	}
	if n := e.cache.Stats().Entries; n != 0 {
		t.Errorf("bypassed requests stored %d pages", n)
	}
	for name, s := range map[string]*fakeSite{"404": {status: 404}, "set-cookie": {cookie: true}} {
		e := newEnv(t, s, 0)
		e.do(t, "GET", "/p")
		if w := e.do(t, "GET", "/p"); w.Header().Get("X-Cache") != "MISS" || s.renders.Load() != 2 {
			t.Errorf("%s: stored (%q, %d renders)", name, w.Header().Get("X-Cache"), s.renders.Load())
		}
		if s.cookie && e.do(t, "GET", "/p").Header().Get("Set-Cookie") != "s=1" {
			t.Errorf("the cookie of an unstored page was lost")
		}
	}
}

// HEAD is answered from a stored page but never stores one.
func TestHead(t *testing.T) {
	e := newEnv(t, &fakeSite{}, 0)
	if w := e.do(t, "HEAD", "/x"); w.Header().Get("X-Cache") != "MISS" {
		t.Fatalf("cold HEAD: %q", w.Header().Get("X-Cache"))
	}
	if n := e.cache.Stats().Entries; n != 0 {
		t.Fatalf("HEAD stored %d pages", n)
	}
	get := e.do(t, "GET", "/x")
	w := e.do(t, "HEAD", "/x")
	if get.Header().Get("X-Cache") != "MISS" || w.Header().Get("X-Cache") != "HIT" || w.Body.Len() != 0 || w.Header().Get("Content-Length") != fmt.Sprint(get.Body.Len()) {
		t.Fatalf("HEAD after GET: %q, %d bytes, length %q", w.Header().Get("X-Cache"), w.Body.Len(), w.Header().Get("Content-Length"))
	}
}

func TestAcceptEncoding(t *testing.T) {
	e := newEnv(t, &fakeSite{}, 0)
	plain := e.do(t, "GET", "/z").Body.String()
	br := e.do(t, "GET", "/z", "Accept-Encoding", "gzip, deflate, br")
	gz := e.do(t, "GET", "/z", "Accept-Encoding", "gzip")
	if br.Header().Get("Content-Encoding") != "br" || gz.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(br.Header().Get("Vary"), "Accept-Encoding") {
		t.Fatalf("encodings %q %q", br.Header().Get("Content-Encoding"), gz.Header().Get("Content-Encoding"))
	}
	if br.Body.Len() >= len(plain) || br.Header().Get("Content-Length") != fmt.Sprint(br.Body.Len()) {
		t.Errorf("br: %d bytes of %d, length %q", br.Body.Len(), len(plain), br.Header().Get("Content-Length"))
	}
	b, err := io.ReadAll(brotli.NewReader(br.Body))
	if err != nil || string(b) != plain {
		t.Errorf("brotli body differs (%v)", err)
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := io.ReadAll(zr)
	if string(g) != plain {
		t.Error("gzip body differs")
	}
}

// A form in a cached page gets a fresh token in every response, the first included, and the
// stored page never reaches a visitor with its placeholder.
func TestPlaceholderFreshPerResponse(t *testing.T) {
	e := newEnv(t, &fakeSite{}, 0)
	seen := map[string]bool{}
	for i := range 3 {
		w := e.do(t, "GET", "/contact", "Accept-Encoding", "br, gzip")
		body := w.Body.String()
		if w.Header().Get("Content-Encoding") != "" || strings.Contains(body, "__CMS_PLACEHOLDER") {
			t.Fatalf("response %d: encoding %q, body %q", i, w.Header().Get("Content-Encoding"), body[:120])
		}
		if !strings.Contains(w.Header().Get("Cache-Control"), "private") {
			t.Errorf("response %d may be kept by a shared cache: %q", i, w.Header().Get("Cache-Control"))
		}
		i0 := strings.Index(body, `value="`)
		tok := body[i0+7 : i0+7+strings.Index(body[i0+7:], `"`)]
		if !strings.HasPrefix(tok, "fresh-") || seen[tok] {
			t.Fatalf("response %d token %q (seen %v)", i, tok, seen)
		}
		seen[tok] = true
	}
	if e.site.renders.Load() != 1 {
		t.Errorf("%d renders", e.site.renders.Load())
	}
	// A bypassed request renders directly, with the page's own token.
	if w := e.do(t, "GET", "/contact", "Cookie", "a=1"); !strings.Contains(w.Body.String(), `value="direct-`) {
		t.Errorf("bypass body %q", w.Body.String()[:100])
	}
}

// What the page handler records through the request context drives the purge.
func TestRecordedReadsPurge(t *testing.T) {
	e := newEnv(t, &fakeSite{}, 0)
	e.do(t, "GET", "/a")
	e.do(t, "GET", "/b")
	if got := e.cache.Purge(pagecache.Change{Kind: pagecache.ChangeEntry, Collection: "blog", Slug: "a"}); len(got) != 1 || got[0] != "/a" {
		t.Fatalf("purged %v", got)
	}
	if w := e.do(t, "GET", "/a"); w.Header().Get("X-Cache") != "MISS" {
		t.Errorf("purged page: %q", w.Header().Get("X-Cache"))
	}
	if w := e.do(t, "GET", "/b"); w.Header().Get("X-Cache") != "HIT" {
		t.Errorf("unrelated page: %q", w.Header().Get("X-Cache"))
	}
}

// 100 concurrent requests for a cold page run the page handler once.
func TestSingleFlight(t *testing.T) {
	s := &fakeSite{block: make(chan struct{})}
	e := newEnv(t, s, 0)
	var wg sync.WaitGroup
	codes := make(chan string, 100)
	for range 100 {
		wg.Go(func() { codes <- e.do(t, "GET", "/hot").Header().Get("X-Cache") })
	}
	for e.cache.Waiting() < 99 {
		time.Sleep(time.Millisecond)
	}
	close(s.block)
	wg.Wait()
	close(codes)
	n := map[string]int{}
	for c := range codes {
		n[c]++
	}
	if s.renders.Load() != 1 || n["MISS"] != 1 || n["HIT"] != 99 {
		t.Fatalf("renders %d, states %v", s.renders.Load(), n)
	}
}

// A page larger than the capture bound reaches its client whole and is not stored.
func TestLargePageStreamed(t *testing.T) {
	e := newEnv(t, &fakeSite{size: 2000}, 4096)
	w := e.do(t, "GET", "/contact")
	body := w.Body.String()
	if w.Code != 200 || !strings.HasSuffix(body, "<p>lorem ipsum dolor</p>") || len(body) < 2000*24 || strings.Contains(body, "__CMS_PLACEHOLDER") {
		t.Fatalf("%d, %d bytes", w.Code, len(body))
	}
	if n := e.cache.Stats().Entries; n != 0 {
		t.Errorf("stored %d", n)
	}
}

// A request that waited its MissTimeout for another's render renders on its own.
func TestSingleFlightTimeoutRendersAlone(t *testing.T) {
	c, err := pagecache.New(pagecache.Options{Driver: pagecache.NewMemory(1 << 24), MissTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	release, started := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	slowFirst := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			close(started)
			<-release
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<p>page</p>")
	})
	h := hpc.Wrap(slowFirst, hpc.Config{Cache: c, Rules: &pagecache.Rules{}, Site: func(*http.Request) (string, bool) { return "default", true }})
	first := make(chan *httptest.ResponseRecorder)
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/p", nil))
		first <- w
	}()
	<-started
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/p", nil))
	close(release)
	if w.Code != 200 || w.Header().Get("X-Cache") != "MISS" || w.Body.String() != "<p>page</p>" || n.Load() != 2 {
		t.Fatalf("waiting request: %d %q %q, %d renders", w.Code, w.Header().Get("X-Cache"), w.Body.String(), n.Load())
	}
	if f := <-first; f.Header().Get("X-Cache") != "MISS" || f.Body.String() != "<p>page</p>" {
		t.Fatalf("first request: %q %q", f.Header().Get("X-Cache"), f.Body.String())
	}
}
