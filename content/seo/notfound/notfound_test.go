package notfound_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cms/content/seo/notfound"
)

// clock is a settable time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func open(t testing.TB, dir string) (*notfound.Tracker, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 3, 1, 12, 0, 30, 0, time.UTC)}
	tr, err := notfound.Open(notfound.Options{Dir: dir, Sites: []string{"default", "fr"}, RetentionDays: 90, Now: c.Now, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	return tr, c
}

func list(t *testing.T, tr *notfound.Tracker, site string) []notfound.Observation {
	t.Helper()
	tr.Flush()
	l, err := tr.List(site)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestRecordsDeduplicatedPerMinute(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tr, c := open(t, dir)
	if !tr.Record("default", "/missing", true, "https://news.example/a/b?c=d") {
		t.Fatal("the first observation is not queued")
	}
	if tr.Record("default", "/missing/", false, "") {
		t.Error("a repeat within the minute is queued")
	}
	if !tr.Record("fr", "/missing", false, "") {
		t.Error("the same path on another site is a repeat")
	}
	c.Add(time.Minute)
	if !tr.Record("default", "/missing", false, "javascript:alert(1)") {
		t.Error("the next minute's observation is dropped")
	}
	l := list(t, tr, "default")
	if len(l) != 1 {
		t.Fatalf("records = %+v", l)
	}
	o := l[0]
	if o.Hits != 2 || o.Path != "/missing" || o.Query == nil || *o.Query != "redacted" ||
		o.ReferrerOrigin == nil || *o.ReferrerOrigin != "https://news.example" ||
		o.FirstSeen != "2026-03-01T12:00:30Z" || o.LastSeen != "2026-03-01T12:01:30Z" || !strings.HasPrefix(o.OpaqueID, "nf_") {
		t.Errorf("record = %+v", o)
	}
	if l := list(t, tr, "fr"); len(l) != 1 || l[0].Query != nil || l[0].ReferrerOrigin != nil {
		t.Errorf("fr records = %+v", l)
	}
	// The file is per site, and holds no query value or referrer path.
	b, err := os.ReadFile(filepath.Join(dir, "not-found", "default.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "c=d") || strings.Contains(string(b), "/a/b") || strings.Contains(string(b), `"fr"`) {
		t.Errorf("the file keeps more than it should:\n%s", b)
	}
}

func TestSkippedPaths(t *testing.T) {
	t.Parallel()
	tr, _ := open(t, t.TempDir())
	for _, p := range []string{"/app.js", "/style.CSS", "/x.map", "/favicon.ico", "/a.png", "/a.jpg", "/a.jpeg", "/a.gif",
		"/a.svg", "/a.webp", "/f.woff", "/f.woff2", "/.env", "/a/.git/config", "/a/../b", "relative", "", "//evil.example", "/a%zz"} {
		if tr.Record("default", p, false, "") {
			t.Errorf("%q is recorded", p)
		}
	}
	if tr.Record("nosite", "/page", false, "") || tr.Record("../x", "/page", false, "") {
		t.Error("an unknown site is recorded")
	}
	if l := list(t, tr, "default"); len(l) != 0 {
		t.Errorf("records = %+v", l)
	}
}

func TestKeyBudgetPerMinute(t *testing.T) {
	t.Parallel()
	tr, c := open(t, t.TempDir())
	queued := 0
	for i := range notfound.MaxKeys + 50 {
		if tr.Record("default", fmt.Sprintf("/p/%d", i), false, "") {
			queued++
		}
		if i%500 == 0 {
			tr.Flush() // keep the queue from dropping: this test is about the key budget
		}
	}
	if queued != notfound.MaxKeys {
		t.Errorf("%d observations accepted in one minute, want %d", queued, notfound.MaxKeys)
	}
	c.Add(time.Minute)
	if !tr.Record("default", "/p/next-minute", false, "") {
		t.Error("the budget does not renew the next minute")
	}
}

func TestRetentionAndBound(t *testing.T) {
	t.Parallel()
	tr, c := open(t, t.TempDir())
	tr.Record("default", "/ancient", false, "")
	tr.Flush()
	c.Add(91 * 24 * time.Hour)
	// 3,000 distinct paths over three minutes: at most 1,000 kept, the most recent.
	for m := range 3 {
		for i := range 1000 {
			tr.Record("default", fmt.Sprintf("/m%d/%d", m, i), false, "")
			if i%500 == 0 {
				tr.Flush()
			}
		}
		tr.Flush()
		c.Add(time.Minute)
	}
	l := list(t, tr, "default")
	if len(l) != notfound.MaxRecords {
		t.Fatalf("%d records, want %d", len(l), notfound.MaxRecords)
	}
	for _, o := range l {
		if !strings.HasPrefix(o.Path, "/m2/") {
			t.Fatalf("kept %s, not one of the newest", o.Path)
		}
	}
}

func TestDelete(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tr, _ := open(t, dir)
	tr.Record("default", "/a", false, "")
	tr.Record("default", "/b", false, "")
	l := list(t, tr, "default")
	o, err := tr.Delete(l[0].OpaqueID)
	if err != nil || o.OpaqueID != l[0].OpaqueID {
		t.Fatalf("Delete = %+v, %v", o, err)
	}
	if _, err := tr.Delete(l[0].OpaqueID); err == nil {
		t.Error("deleting twice succeeds")
	}
	if err := tr.DeletePath("default", l[1].Path); err != nil {
		t.Fatal(err)
	}
	if l := list(t, tr, "default"); len(l) != 0 {
		t.Errorf("left: %+v", l)
	}
	// Another tracker on the same folder (another process) reads what this one wrote.
	tr.Record("default", "/c", false, "")
	tr.Flush()
	other, _ := open(t, dir)
	if l := list(t, other, "default"); len(l) != 1 || l[0].Path != "/c" {
		t.Errorf("another process reads %+v", l)
	}
}

// TestFloodStaysBounded sends 50,000 distinct 404s (issue 14's figure) through Record: the
// store keeps at most 1,000 records and the heap does not grow with the flood. Not parallel:
// the heap is the process's, and other tests running meanwhile would count in its growth.
func TestFloodStaysBounded(t *testing.T) {
	tr, c := open(t, t.TempDir())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range 50_000 {
		tr.Record("default", fmt.Sprintf("/flood/%d/%s", i, strings.Repeat("x", 64)), true, "https://spam.example/")
		if i%2000 == 1999 {
			c.Add(time.Minute)
		}
	}
	tr.Flush()
	runtime.GC()
	runtime.ReadMemStats(&after)
	if l := list(t, tr, "default"); len(l) > notfound.MaxRecords || len(l) == 0 {
		t.Errorf("%d records", len(l))
	}
	// 50,000 records of ~150 bytes would be 7 MB; the bound keeps it far below.
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 4<<20 {
		t.Errorf("the heap grew by %d bytes", grew)
	}
}

// BenchmarkRecord is the cost a 404 pays for being recorded (distinct paths: the worst case).
func BenchmarkRecord(b *testing.B) {
	tr, c := open(b, b.TempDir())
	i := 0
	for b.Loop() {
		i++
		if i%1000 == 0 {
			c.Add(time.Minute)
		}
		tr.Record("default", fmt.Sprintf("/bench/%d", i), false, "")
	}
}

// crashEnv makes the test binary a recorder that is killed mid-write.
const crashEnv = "CMS_NOTFOUND_CRASH_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashEnv); dir != "" {
		tr, err := notfound.Open(notfound.Options{Dir: dir, Sites: []string{"default"}, RetentionDays: 90})
		if err != nil {
			os.Exit(2)
		}
		fmt.Println("ready")
		for i := 0; ; i++ {
			tr.Record("default", fmt.Sprintf("/crash/%d/%s", i, strings.Repeat("y", i%300)), false, "")
			if i%50 == 0 {
				tr.Flush()
			}
		}
	}
	os.Exit(m.Run())
}

// TestKilledWriterLeavesAWholeFile kills a recording process at random points: the
// observations file is always a whole JSON document.
func TestKilledWriterLeavesAWholeFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "not-found", "default.json")
	for round := range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		_, _ = out.Read(buf)
		// Wait until the child has written the file at least once more, then kill it.
		deadline := time.Now().Add(time.Minute)
		first, _ := os.Stat(file)
		for time.Now().Before(deadline) {
			if st, err := os.Stat(file); err == nil && (first == nil || !st.ModTime().Equal(first.ModTime())) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(round*7) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		var l []notfound.Observation
		if err := json.Unmarshal(b, &l); err != nil || len(l) == 0 {
			t.Fatalf("round %d: a torn file (%d bytes): %v", round, len(b), err)
		}
	}
}
