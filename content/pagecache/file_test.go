package pagecache

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func openFileCache(t *testing.T, dir string) (*Cache, *File) {
	t.Helper()
	d, err := OpenFile(dir, FileOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	c, err := New(Options{Driver: d})
	if err != nil {
		t.Fatal(err)
	}
	return c, d
}

// The file driver lays pages out for a front web server (one index.html per URL, with .gz and
// .br beside it), keeps what each page read across a restart, and purges files exactly.
func TestFileDriverLayoutAndRestart(t *testing.T) {
	dir := t.TempDir()
	c, _ := openFileCache(t, dir)
	big := strings.Repeat("<p>hello world</p>", 100)
	for _, k := range []string{"default|/", "default|/blog", "default|/blog/a", "fr|/blog"} {
		rec := NewRecorder()
		rec.Entry("blog", "a")
		if _, err := c.Put(k, c.Begin(), 200, htmlHeader(), []byte(k+big), rec); err != nil {
			t.Fatal(err)
		}
	}
	rec := NewRecorder()
	m, _ := rec.Placeholder("csrf")
	if p, err := c.Put("default|/contact", c.Begin(), 200, htmlHeader(), []byte("<input value="+m+">"+big), rec); err != nil || p == nil {
		t.Fatal(p, err)
	}
	for _, f := range []string{"default/index.html", "default/index.html.gz", "default/index.html.br", "default/blog/index.html", "default/blog/a/index.html", "fr/blog/index.html", "default/contact/.page"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "default/blog/index.html"))
	if !bytes.HasPrefix(raw, []byte("default|/blog<p>")) {
		t.Errorf("index.html = %.40q", raw)
	}
	if _, err := os.Stat(filepath.Join(dir, "default/contact/index.html")); err == nil {
		t.Error("a page with placeholders was exported for the front server")
	}

	// A new process finds the pages and what they read.
	c2, d2 := openFileCache(t, dir)
	if n, _, _ := d2.Stats(); n != 5 {
		t.Fatalf("reopened with %d pages", n)
	}
	p, ok := c2.Get("default|/blog/a")
	if !ok || !bytes.HasSuffix(p.Body, []byte(big)) || p.Gzip == nil || p.Brotli == nil {
		t.Fatalf("Get after restart: %v", ok)
	}
	got := c2.Purge(Change{Kind: ChangeEntry, Collection: "blog", Slug: "a"})
	if !slices.Equal(got, []string{"/", "/_sites/fr/blog", "/blog", "/blog/a"}) {
		t.Fatalf("purged %v", got)
	}
	for _, f := range []string{"default/index.html", "default/index.html.gz", "default/blog/a/index.html", "default/blog/a/.page"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s survived the purge", f)
		}
	}
	if _, ok := c2.Get("default|/contact"); !ok {
		t.Error("the unrelated page was purged")
	}
	// Clear removes the pages and nothing else that lives in the folder.
	if err := os.WriteFile(filepath.Join(dir, "default", "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := c2.Clear(); err != nil || n != 1 {
		t.Errorf("Clear = %d, %v", n, err)
	}
	var left []string
	_ = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			left = append(left, rel)
		}
		return nil
	})
	if !slices.Equal(left, []string{"default", "default/keep.txt"}) {
		t.Errorf("Clear left %v", left)
	}
}

func TestFileDriverQueryAndBadRecords(t *testing.T) {
	dir := t.TempDir()
	c, _ := openFileCache(t, dir)
	r := &Rules{QueryStrings: QuerySeparate}
	k, _ := r.Key("default", "/search", "q=go")
	if p, _ := c.Put(k, c.Begin(), 200, htmlHeader(), []byte("results"), nil); p == nil {
		t.Fatal("not stored")
	}
	if _, err := os.Stat(filepath.Join(dir, "default/search/?q=go/index.html")); err != nil {
		t.Error(err)
	}
	// A record cut short is never served, and is removed at the next start.
	rp := filepath.Join(dir, "default/search/?q=go/.page")
	raw, _ := os.ReadFile(rp)
	if err := os.WriteFile(rp, raw[:len(raw)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(k); ok {
		t.Fatal("short record served")
	}
	c2, d2 := openFileCache(t, dir)
	if n, _, _ := d2.Stats(); n != 0 {
		t.Errorf("%d pages after a bad record", n)
	}
	if _, ok := c2.Get(k); ok {
		t.Error("bad record served after restart")
	}
}

// crashChildEnv makes the test binary a writer of cached pages that is killed mid-loop.
const crashChildEnv = "CMS_PAGECACHE_CRASH_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashWriter(dir)
		return
	}
	os.Exit(m.Run())
}

// crashPage is revision i of a page: every line names i, so a torn page mixes revisions or
// lacks its end.
func crashPage(key string, i int) []byte {
	return []byte("<html>" + strings.Repeat(fmt.Sprintf("<p>%s revision %d</p>\n", key, i), 200+i%300) + "</html>")
}

func crashWriter(dir string) {
	d, err := OpenFile(dir, FileOptions{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	c, err := New(Options{Driver: d})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i := 0; ; i++ {
		key := fmt.Sprintf("default|/p%d", i%4)
		if _, err := c.Put(key, c.Begin(), 200, htmlHeader(), crashPage(key, i), nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		if i == 10 {
			_ = os.WriteFile(filepath.Join(dir, "running"), nil, 0o644)
		}
	}
}

// wholePage reports whether b is one complete revision of a page.
func wholePage(b []byte) bool {
	s := string(b)
	if !strings.HasPrefix(s, "<html>") || !strings.HasSuffix(s, "</html>") {
		return false
	}
	lines := strings.Split(strings.TrimSuffix(strings.TrimPrefix(s, "<html>"), "</html>"), "\n")
	for _, l := range lines[:len(lines)-1] {
		if l != lines[0] {
			return false
		}
	}
	return true
}

// A writer killed with SIGKILL mid-write leaves no torn page: every record and every index.html
// is one whole revision, and a reopened cache serves only whole pages.
func TestSIGKILLLeavesNoTornPage(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writer processes")
	}
	dir := t.TempDir()
	for round := range 4 {
		_ = os.Remove(filepath.Join(dir, "running"))
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for {
			if _, err := os.Stat(filepath.Join(dir, "running")); err == nil {
				break
			}
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				t.Fatalf("writer did not start: %s", stderr.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(5+round*20) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if strings.TrimSpace(stderr.String()) != "" {
			t.Fatalf("writer failed before the kill: %s", stderr.String())
		}
		c, _ := openFileCache(t, dir)
		for i := range 4 {
			key := fmt.Sprintf("default|/p%d", i)
			p, ok := c.Get(key)
			if !ok {
				t.Fatalf("round %d: %s lost", round, key)
			}
			if !wholePage(p.Body) {
				t.Fatalf("round %d: torn record of %s", round, key)
			}
			raw, err := os.ReadFile(filepath.Join(dir, "default", fmt.Sprintf("p%d", i), "index.html"))
			if err != nil || !wholePage(raw) {
				t.Fatalf("round %d: torn index.html of %s (%v)", round, key, err)
			}
		}
	}
}

// Two processes share a file cache: a page one stored is purged by the other once it served it,
// and the statistics count hits and misses.
func TestFileDriverShared(t *testing.T) {
	dir := t.TempDir()
	a, _ := openFileCache(t, dir)
	b, _ := openFileCache(t, dir)
	rec := NewRecorder()
	rec.Entry("blog", "x")
	if p, _ := a.Put("default|/x", a.Begin(), 200, htmlHeader(), []byte("x"), rec); p == nil {
		t.Fatal("not stored")
	}
	if _, ok := b.Get("default|/y"); ok {
		t.Fatal("hit on nothing")
	}
	if _, ok := b.Get("default|/x"); !ok {
		t.Fatal("the other process's page was not served")
	}
	if got := b.Purge(Change{Kind: ChangeEntry, Collection: "blog", Slug: "x"}); !slices.Equal(got, []string{"/x"}) {
		t.Fatalf("purged %v", got)
	}
	if _, ok := a.Get("default|/x"); ok {
		t.Fatal("purged page still served")
	}
	st := b.Stats()
	if st.Hits != 1 || st.Misses != 1 || st.HitRatio() != 0.5 {
		t.Errorf("stats %+v", st)
	}
}

// A page rendered while a purge happened is not left on disk.
func TestFilePutAfterPurgeRefused(t *testing.T) {
	dir := t.TempDir()
	c, _ := openFileCache(t, dir)
	begin := c.Begin()
	c.Purge(Change{Kind: ChangeEntry, Collection: "blog", Slug: "a"})
	if p, err := c.Put("default|/a", begin, 200, htmlHeader(), []byte("old"), nil); p != nil || err != nil {
		t.Fatalf("stored %v (%v)", p, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "default/a/index.html")); err == nil {
		t.Fatal("stale page on disk")
	}
}
