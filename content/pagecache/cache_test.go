package pagecache

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cms/content/lru"
)

func htmlHeader() http.Header {
	return http.Header{"Content-Type": {"text/html; charset=utf-8"}}
}

func newMemCache(t testing.TB, opts Options) *Cache {
	t.Helper()
	if opts.Driver == nil {
		opts.Driver = NewMemory(1 << 30)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// store renders a fake page of key that read deps.
func store(t testing.TB, c *Cache, key string, read func(r *Recorder)) {
	t.Helper()
	rec := NewRecorder()
	if read != nil {
		read(rec)
	}
	p, err := c.Put(key, c.Begin(), 200, htmlHeader(), []byte("<p>"+key+"</p>"), rec)
	if err != nil || p == nil {
		t.Fatalf("Put %s: %v, %v", key, p, err)
	}
}

// model is a generated site: collections of entries, each with its page; list pages per
// collection (paginated); some entries reference others; every page renders the main navigation
// and the site global.
type model struct {
	colls   []string
	perColl int
}

func (m model) entryKey(coll string, i int) string { return fmt.Sprintf("default|/%s/e%d", coll, i) }
func (m model) listKey(coll string, page int) string {
	return fmt.Sprintf("default|/%s/page/%d", coll, page)
}

// fill stores every page of the model and returns the expected keys for an edit of coll/e<i>.
func (m model) fill(t testing.TB, c *Cache) {
	for ci, coll := range m.colls {
		for i := range m.perColl {
			key := m.entryKey(coll, i)
			store(t, c, key, func(r *Recorder) {
				r.Entry(coll, fmt.Sprintf("e%d", i))
				r.Navigation("main")
				r.Global("site")
				// Every 10th entry references the first entry of the next collection.
				if i%10 == 0 {
					next := m.colls[(ci+1)%len(m.colls)]
					r.Entry(next, "e0")
				}
			})
		}
		for p := range m.perColl / 20 {
			store(t, c, m.listKey(coll, p), func(r *Recorder) {
				r.List(coll)
				r.Navigation("main")
			})
		}
	}
	store(t, c, "default|/", func(r *Recorder) { r.Global("site"); r.Navigation("main") })
}

// Editing one entry of a 1,000-entry site purges exactly its page, its collection's list pages
// and the pages that reference it.
func TestPurgePrecision(t *testing.T) {
	m := model{colls: []string{"blog", "news", "docs", "team", "jobs"}, perColl: 200}
	c := newMemCache(t, Options{})
	m.fill(t, c)
	total := c.Stats().Entries
	if total != 5*200+5*10+1 {
		t.Fatalf("stored %d pages", total)
	}

	// news/e0 is referenced by blog/e0, blog/e10, ..., blog/e190.
	got := c.Purge(Change{Kind: ChangeEntry, Collection: "news", Slug: "e0"})
	var want []string
	want = append(want, "/news/e0")
	for p := range 10 {
		want = append(want, fmt.Sprintf("/news/page/%d", p))
	}
	for i := 0; i < 200; i += 10 {
		want = append(want, fmt.Sprintf("/blog/e%d", i))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("purged %d URLs %v\nwant %d %v", len(got), got, len(want), want)
	}
	if n := c.Stats().Entries; n != total-len(want) {
		t.Errorf("%d pages left, want %d", n, total-len(want))
	}
	// An entry nothing references: its page and its list pages only.
	got = c.Purge(Change{Kind: ChangeEntry, Collection: "team", Slug: "e7"})
	if len(got) != 11 || got[0] != "/team/e7" {
		t.Errorf("purged %v", got)
	}
	// Purging again finds nothing: the list pages are gone already.
	if got := c.Purge(Change{Kind: ChangeEntry, Collection: "team", Slug: "e7"}); len(got) != 0 {
		t.Errorf("second purge = %v", got)
	}
	// A global edit purges the pages that read it and nothing else (entry pages and the home).
	left := c.Stats().Entries
	got = c.Purge(Change{Kind: ChangeGlobal, Handle: "site"})
	if len(got) != left-30 { // 30 list pages remain (blog, docs, jobs) and do not read the global
		t.Errorf("global purge removed %d of %d", len(got), left)
	}
	// The navigation now only reaches the list pages.
	if got := c.Purge(Change{Kind: ChangeNavigation, Handle: "main"}); len(got) != 30 {
		t.Errorf("navigation purge removed %d", len(got))
	}
	if n := c.Stats().Entries; n != 0 {
		t.Errorf("%d pages left", n)
	}
}

func TestPurgeWholeCollectionTaxonomyAndAll(t *testing.T) {
	c := newMemCache(t, Options{})
	store(t, c, "default|/a", func(r *Recorder) { r.Entry("blog", "a") })
	store(t, c, "default|/b", func(r *Recorder) { r.Entry("blog", "b") })
	store(t, c, "default|/n", func(r *Recorder) { r.Entry("news", "n") })
	store(t, c, "default|/tags/go", func(r *Recorder) { r.Taxonomy("tags", "go") })
	store(t, c, "default|/tags/rust", func(r *Recorder) { r.Taxonomy("tags", "rust") })
	store(t, c, "default|/tags", func(r *Recorder) { r.Taxonomy("tags", "") })
	store(t, c, "fr|/static", nil)
	if got := c.Purge(Change{Kind: ChangeEntry, Collection: "blog"}); !slices.Equal(got, []string{"/a", "/b"}) {
		t.Errorf("collection purge = %v", got)
	}
	if got := c.Purge(Change{Kind: ChangeTaxonomy, Handle: "tags", Term: "go"}); !slices.Equal(got, []string{"/tags", "/tags/go"}) {
		t.Errorf("term purge = %v", got)
	}
	if got := c.Purge(Change{Kind: ChangeAll}); !slices.Equal(got, []string{"/_sites/fr/static", "/n", "/tags/rust"}) {
		t.Errorf("full purge = %v", got)
	}
}

func TestInvalidationRules(t *testing.T) {
	c := newMemCache(t, Options{InvalidationRules: []InvalidationRule{{Collection: "blog", URLs: []string{"/blog*", "/"}}}})
	for _, k := range []string{"default|/", "default|/blog", "default|/blog/x", "default|/about"} {
		store(t, c, k, nil)
	}
	if got := c.Purge(Change{Kind: ChangeEntry, Collection: "blog", Slug: "x"}); !slices.Equal(got, []string{"/", "/blog", "/blog/x"}) {
		t.Errorf("purge = %v", got)
	}
}

// A page rendered while a purge happened is not stored: it may show the purged content.
func TestPutAfterPurgeRefused(t *testing.T) {
	c := newMemCache(t, Options{})
	begin := c.Begin()
	c.Purge(Change{Kind: ChangeEntry, Collection: "blog", Slug: "a"})
	p, err := c.Put("default|/a", begin, 200, htmlHeader(), []byte("old"), nil)
	if err != nil || p != nil {
		t.Fatalf("Put after purge stored %v (%v)", p, err)
	}
	if _, ok := c.Get("default|/a"); ok {
		t.Fatal("stale page served")
	}
}

func TestExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	c := newMemCache(t, Options{Now: func() time.Time { return *clock.Load() }})
	store(t, c, "default|/blog", func(r *Recorder) {
		r.List("blog")
		r.Until(now.Add(time.Hour))     // a post dated in an hour appears then
		r.Until(now.Add(3 * time.Hour)) // the earliest wins
	})
	if _, ok := c.Get("default|/blog"); !ok {
		t.Fatal("miss before expiry")
	}
	later := now.Add(time.Hour)
	clock.Store(&later)
	if _, ok := c.Get("default|/blog"); ok {
		t.Fatal("hit after expiry")
	}
	if n := c.Stats().Entries; n != 0 {
		t.Errorf("expired page kept: %d entries", n)
	}
}

// 100 concurrent misses of one key run one render; the others get its page.
func TestSingleFlight(t *testing.T) {
	c := newMemCache(t, Options{})
	var renders atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	var leaders, shared atomic.Int32
	started := make(chan struct{})
	var once sync.Once
	for range 100 {
		wg.Go(func() {
			p, leader, err := c.Do(context.Background(), "default|/x", func() *Page {
				renders.Add(1)
				once.Do(func() { close(started) })
				<-release
				p, _ := c.Put("default|/x", c.Begin(), 200, htmlHeader(), []byte("x"), nil)
				return p
			})
			if err != nil || p == nil {
				t.Errorf("Do: %v %v", p, err)
				return
			}
			if leader {
				leaders.Add(1)
			} else {
				shared.Add(1)
			}
		})
	}
	<-started
	// Let the render finish once the 99 others wait for it.
	for c.waiting.Load() < 99 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if r := renders.Load(); r != 1 || leaders.Load() != 1 || shared.Load() != 99 {
		t.Fatalf("renders %d, leaders %d, shared %d", r, leaders.Load(), shared.Load())
	}
}

func TestSingleFlightTimeout(t *testing.T) {
	c := newMemCache(t, Options{MissTimeout: time.Millisecond})
	release := make(chan struct{})
	started := make(chan struct{})
	go c.Do(context.Background(), "k", func() *Page { close(started); <-release; return nil })
	<-started
	_, leader, err := c.Do(context.Background(), "k", func() *Page { t.Error("second render ran"); return nil })
	close(release)
	if err != ErrTimeout || leader {
		t.Fatalf("err %v leader %v", err, leader)
	}
}

func TestPlaceholders(t *testing.T) {
	rec := NewRecorder()
	m, ok := rec.Placeholder("csrf")
	if !ok {
		t.Fatal("no marker")
	}
	if _, ok := (*Recorder)(nil).Placeholder("csrf"); ok {
		t.Fatal("nil recorder gave a marker")
	}
	c := newMemCache(t, Options{})
	body := []byte(`<form><input name="t" value="` + m + `">` + strings.Repeat("x", 1000) + `</form>`)
	p, _ := c.Put("default|/f", c.Begin(), 200, htmlHeader(), body, rec)
	if !p.Placeholders || p.Gzip != nil || p.Brotli != nil || !strings.HasPrefix(p.ETag, "W/") {
		t.Fatalf("page %+v", p)
	}
	n := 0
	fill := func(name string) (string, bool) { n++; return fmt.Sprintf("tok%d", n), name == "csrf" }
	a, b := Fill(p.Body, fill), Fill(p.Body, fill)
	if !strings.Contains(string(a), `value="tok1"`) || !strings.Contains(string(b), `value="tok2"`) {
		t.Fatalf("filled %q / %q", a[:40], b[:40])
	}
	if !strings.Contains(string(p.Body), m) {
		t.Fatal("Fill changed the stored page")
	}
}

func TestEncoding(t *testing.T) {
	c := newMemCache(t, Options{})
	p, _ := c.Put("default|/", c.Begin(), 200, htmlHeader(), []byte(strings.Repeat("<p>hello</p>", 200)), nil)
	for ae, want := range map[string]string{"": "", "gzip": "gzip", "gzip, br": "br", "br;q=0, gzip": "gzip", "*": "br", "identity": "", "br;q=0": ""} {
		if got, _ := p.Encoding(ae); got != want {
			t.Errorf("Encoding(%q) = %q, want %q", ae, got, want)
		}
	}
}

// The memory driver stays within its budget, dropping the least recently used pages, and the
// dependency index forgets them.
func TestMemoryBound(t *testing.T) {
	d := NewMemory(64 << 10)
	c := newMemCache(t, Options{Driver: d})
	for i := range 2000 {
		key := fmt.Sprintf("default|/p%d", i)
		store(t, c, key, func(r *Recorder) { r.Entry("blog", fmt.Sprint(i)) })
		if i == 10 {
			c.Get("default|/p0") // keep p0 hot
		}
		if i > 10 {
			c.Get("default|/p0")
		}
	}
	n, b, m := d.Stats()
	if b > m || n == 0 || n >= 2000 {
		t.Fatalf("entries %d bytes %d max %d", n, b, m)
	}
	if _, ok := c.Get("default|/p0"); !ok {
		t.Error("the hot page was evicted")
	}
	if _, ok := c.Get("default|/p1"); ok {
		t.Error("a cold page survived")
	}
	c.mu.Lock()
	idx := len(c.idx.byKey)
	c.mu.Unlock()
	if idx != n {
		t.Errorf("index holds %d keys, driver %d", idx, n)
	}
}

func TestStoreChange(t *testing.T) {
	c := newMemCache(t, Options{})
	store(t, c, "default|/a", func(r *Recorder) { r.Entry("blog", "a") })
	store(t, c, "default|/n", func(r *Recorder) { r.Navigation("main") })
	store(t, c, "default|/g", func(r *Recorder) { r.Global("site") })
	store(t, c, "default|/t", func(r *Recorder) { r.Taxonomy("tags", "go") })
	store(t, c, "default|/x", nil)
	for _, s := range []struct{ kind, coll, name, want string }{
		{"entry", "blog", "a", "/a"},
		{"navigation", "", "main", "/n"},
		{"global", "", "site", "/g"},
		{"taxonomy", "tags", "go", "/t"},
		{"definitions", "", "", "/x"},
	} {
		if got := c.Purge(StoreChange(s.kind, s.coll, s.name)); !slices.Equal(got, []string{s.want}) {
			t.Errorf("%s: purged %v", s.kind, got)
		}
	}
}

// The cache reports in the form of the service's other caches, so the readiness report's
// registry takes it.
var _ lru.Statser = (*Cache)(nil)
