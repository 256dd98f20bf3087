package fsstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content"
)

// openSynced opens a store on dir with fsync on, so that submissions go through the journal.
func openSynced(t *testing.T, dir string) *Store {
	t.Helper()
	st, err := Open(context.Background(), Options{Dir: dir, Watch: WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if st.journal == nil {
		t.Skip("no submission journal on this system")
	}
	// Segments are sealed and retired only at Close: tests see them as a crash would leave them.
	st.journal.mu.Lock()
	st.journal.maxAge = time.Hour
	st.journal.mu.Unlock()
	return st
}

func journalData(n int) *content.Map {
	m := content.NewMap(1)
	m.Set("n", int64(n))
	return m
}

// submissionYAML is a submission file's bytes, as the store writes them.
func submissionYAML(t *testing.T, form, id string, n int) []byte {
	t.Helper()
	raw, err := formatSubmission(&content.Submission{ID: id, Form: form, SubmittedAt: "2026-01-02T03:04:05.000Z", Data: journalData(n)})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestJournalRecordsRoundTrip(t *testing.T) {
	t.Parallel()
	recs := []journalRecord{
		{kind: recCreate, form: "contact", name: "2026-01-02T03-04-05-a.yaml", raw: []byte("id: a\n")},
		{kind: recDelete, form: "contact", name: "2026-01-02T03-04-05-a.yaml"},
		{kind: recCreate, form: "f_2", name: "x.yaml", raw: []byte{}},
	}
	var b []byte
	for _, r := range recs {
		b = appendRecord(b, r)
	}
	got, good := parseRecords(b)
	if good != len(b) || len(got) != len(recs) {
		t.Fatalf("parsed %d records over %d of %d bytes, want %d over all", len(got), good, len(b), len(recs))
	}
	for i := range recs {
		if got[i].kind != recs[i].kind || got[i].form != recs[i].form || got[i].name != recs[i].name || !bytes.Equal(got[i].raw, recs[i].raw) {
			t.Errorf("record %d = %+v, want %+v", i, got[i], recs[i])
		}
	}
}

// A segment's bytes come from disk after a crash: whatever is torn or wrong ends the good part,
// and nothing after it is trusted.
func TestJournalParseStopsAtBadRecord(t *testing.T) {
	t.Parallel()
	good := appendRecord(nil, journalRecord{kind: recCreate, form: "contact", name: "a.yaml", raw: []byte("id: a\n")})
	next := journalRecord{kind: recCreate, form: "contact", name: "b.yaml", raw: []byte("id: b\n")}
	enc := appendRecord(nil, next)
	flip := func(i int) []byte { b := slices.Clone(enc); b[i] ^= 0x40; return b }
	bad := func(r journalRecord) []byte { return appendRecord(nil, r) }
	cases := map[string][]byte{
		"torn header":        enc[:5],
		"torn body":          enc[:len(enc)-2],
		"length beyond":      flip(2),
		"checksum":           flip(5),
		"body bit":           flip(len(enc) - 1),
		"unknown kind":       bad(journalRecord{kind: 9, form: "contact", name: "b.yaml"}),
		"bad form":           bad(journalRecord{kind: recCreate, form: "../etc", name: "b.yaml"}),
		"name with slash":    bad(journalRecord{kind: recCreate, form: "contact", name: "x/b.yaml"}),
		"dot name":           bad(journalRecord{kind: recCreate, form: "contact", name: ".b.yaml"}),
		"dot-dot":            bad(journalRecord{kind: recCreate, form: "contact", name: "..yaml"}),
		"not yaml":           bad(journalRecord{kind: recCreate, form: "contact", name: "b.txt"}),
		"delete with bytes":  bad(journalRecord{kind: recDelete, form: "contact", name: "b.yaml", raw: []byte("x")}),
		"zeros":              make([]byte, 64),
		"huge length":        {0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 1},
		"empty body":         {0, 0, 0, 0, 0, 0, 0, 0},
		"form length beyond": func() []byte { b := slices.Clone(enc); b[9] = 0xff; return b }(),
	}
	for name, tail := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := append(slices.Clone(good), tail...)
			b = append(b, enc...) // a good record after damage is not trusted either
			recs, n := parseRecords(b)
			if len(recs) != 1 || recs[0].name != "a.yaml" || n != len(good) {
				t.Errorf("got %d records over %d bytes, want only the first over %d", len(recs), n, len(good))
			}
		})
	}
}

// FuzzJournalParse feeds untrusted segment bytes to the parser: it never panics, and the records
// it accepts are exactly what the good bytes encode.
func FuzzJournalParse(f *testing.F) {
	f.Add(appendRecord(nil, journalRecord{kind: recCreate, form: "contact", name: "a.yaml", raw: []byte("id: a\n")}))
	f.Add(appendRecord(appendRecord(nil, journalRecord{kind: recDelete, form: "c", name: "b.yaml"}), journalRecord{kind: recCreate, form: "c", name: "b.yaml"}))
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, good := parseRecords(b)
		if good < 0 || good > len(b) {
			t.Fatalf("good = %d of %d bytes", good, len(b))
		}
		var again []byte
		for _, r := range recs {
			if !content.ValidHandle(r.form) || !validSubmissionName(r.name) {
				t.Fatalf("accepted record %q/%q", r.form, r.name)
			}
			again = appendRecord(again, r)
		}
		if !bytes.Equal(again, b[:good]) {
			t.Fatalf("re-encoding the records gives %d bytes, want the %d good ones", len(again), good)
		}
	})
}

// A store that opens replays the journal segments left by a process that ended: a submission
// whose file a crash of the machine lost or emptied is written again, one deleted later in the
// journal is not, a file that loads is left alone, and the segments are removed.
func TestJournalReplay(t *testing.T) {
	t.Parallel()
	const form = "contact"
	idA, idB, idC, idD := content.NewSubmissionID(time.Now()), content.NewSubmissionID(time.Now()), content.NewSubmissionID(time.Now()), content.NewSubmissionID(time.Now())
	name := func(id string) string { return "2026-01-02T03-04-05-" + id + ".yaml" }
	type file struct {
		id      string
		content []byte // nil: no file
	}
	cases := []struct {
		name  string
		files []file                 // before the replay
		recs  func() []journalRecord // the orphan segment
		tail  []byte                 // appended to the segment (a torn record)
		other []journalRecord        // a segment of another ended process, read first
		want  map[string]int         // id -> n after the replay
	}{
		{
			name: "lost file restored",
			recs: func() []journalRecord {
				return []journalRecord{{kind: recCreate, form: form, name: name(idA), raw: submissionYAML(t, form, idA, 1)}}
			},
			want: map[string]int{idA: 1},
		},
		{
			name:  "empty file restored",
			files: []file{{idA, []byte{}}},
			recs: func() []journalRecord {
				return []journalRecord{{kind: recCreate, form: form, name: name(idA), raw: submissionYAML(t, form, idA, 1)}}
			},
			want: map[string]int{idA: 1},
		},
		{
			name:  "torn file restored",
			files: []file{{idA, submissionYAML(t, form, idA, 1)[:20]}},
			recs: func() []journalRecord {
				return []journalRecord{{kind: recCreate, form: form, name: name(idA), raw: submissionYAML(t, form, idA, 1)}}
			},
			want: map[string]int{idA: 1},
		},
		{
			name:  "file cut after its id restored",
			files: []file{{idA, []byte("id: " + idA + "\nform: contact\n")}},
			recs: func() []journalRecord {
				return []journalRecord{{kind: recCreate, form: form, name: name(idA), raw: submissionYAML(t, form, idA, 1)}}
			},
			want: map[string]int{idA: 1},
		},
		{
			name:  "whole file kept",
			files: []file{{idA, submissionYAML(t, form, idA, 1)}},
			recs: func() []journalRecord {
				return []journalRecord{{kind: recCreate, form: form, name: name(idA), raw: submissionYAML(t, form, idA, 1)}}
			},
			want: map[string]int{idA: 1},
		},
		{
			name:  "deleted stays deleted",
			files: []file{{idB, submissionYAML(t, form, idB, 2)}},
			recs: func() []journalRecord {
				return []journalRecord{
					{kind: recCreate, form: form, name: name(idA), raw: submissionYAML(t, form, idA, 1)},
					{kind: recCreate, form: form, name: name(idB), raw: submissionYAML(t, form, idB, 2)},
					{kind: recDelete, form: form, name: name(idA)},
				}
			},
			want: map[string]int{idB: 2},
		},
		{
			name: "deleted by another process",
			recs: func() []journalRecord {
				return []journalRecord{{kind: recCreate, form: form, name: name(idA), raw: submissionYAML(t, form, idA, 1)}}
			},
			other: []journalRecord{{kind: recDelete, form: form, name: name(idA)}},
			want:  map[string]int{},
		},
		{
			name: "journaled twice written once",
			recs: func() []journalRecord {
				r := journalRecord{kind: recCreate, form: form, name: name(idC), raw: submissionYAML(t, form, idC, 3)}
				return []journalRecord{r, r}
			},
			want: map[string]int{idC: 3},
		},
		{
			name: "torn tail ignored",
			recs: func() []journalRecord {
				return []journalRecord{{kind: recCreate, form: form, name: name(idA), raw: submissionYAML(t, form, idA, 1)}}
			},
			tail: appendRecord(nil, journalRecord{kind: recCreate, form: form, name: name(idD), raw: submissionYAML(t, form, idD, 4)})[:30],
			want: map[string]int{idA: 1},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			folder := filepath.Join(dir, "content", "forms", form)
			if err := os.MkdirAll(folder, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(folder, name(f.id)), f.content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b := []byte(journalMagic)
			for _, r := range tc.recs() {
				b = appendRecord(b, r)
			}
			b = append(b, tc.tail...)
			if err := os.MkdirAll(filepath.Join(dir, ".cms", "journal"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".cms", "journal", "dead-000000000001.wal"), b, 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.other != nil {
				o := []byte(journalMagic)
				for _, r := range tc.other {
					o = appendRecord(o, r)
				}
				if err := os.WriteFile(filepath.Join(dir, ".cms", "journal", "aaaa-000000000001.wal"), o, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			st := openSynced(t, dir)
			got := map[string]int{}
			for sub, err := range st.EachSubmission(form) {
				if err != nil {
					t.Fatal(err)
				}
				n, _ := sub.Data.Value("n").(int64)
				if _, dup := got[sub.ID]; dup {
					t.Errorf("submission %s twice", sub.ID)
				}
				got[sub.ID] = int(n)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("after replay, submissions (id: n) = %v, want %v", got, tc.want)
			}
			if total, _ := st.SubmissionCount(form); total != len(tc.want) {
				t.Errorf("%d files, want %d (no torn or doubled file)", total, len(tc.want))
			}
			if segs, _ := filepath.Glob(filepath.Join(dir, ".cms", "journal", "*")); len(segs) != 0 {
				t.Errorf("replayed segments still there: %v", segs)
			}
		})
	}
}

// A segment a live store holds is not replayed by another store opening the same folder: a
// submission its operator deleted by hand stays deleted, and the segment stays with its store.
func TestJournalReplayLeavesLiveSegments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := openSynced(t, dir)
	sub, err := a.CreateSubmission("contact", journalData(1), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	name, err := a.submissionFile("test", "contact", sub.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "content", "forms", "contact", name)); err != nil {
		t.Fatal(err)
	}
	// Another store, as another process: it must not take a's segment for a leftover.
	b := openSynced(t, dir)
	if _, err := b.Submission("contact", sub.ID); !content.IsNotFound(err) {
		t.Errorf("the submission deleted by hand is back: err = %v", err)
	}
	if segs, _ := filepath.Glob(filepath.Join(dir, ".cms", "journal", "*"+journalExt)); len(segs) != 1 {
		t.Errorf("segments = %v, want a's only", segs)
	}
}

// Concurrent submitters share one flush: while a flush is under way, those who append wait for
// the next one, which covers all of them; and none returns before the flush that covers its
// record has succeeded.
func TestJournalGroupCommit(t *testing.T) {
	t.Parallel()
	st := openSynced(t, t.TempDir())
	j := st.journal
	const writers = 16
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	j.mu.Lock()
	j.flush = func(f *os.File) error {
		once.Do(func() {
			close(entered)
			<-release // the first flush waits until every writer has appended
		})
		return fdatasync(f)
	}
	j.mu.Unlock()

	var returned sync.Map
	var wg sync.WaitGroup
	wg.Go(func() {
		sub, err := st.CreateSubmission("contact", journalData(0), time.Time{})
		if err != nil {
			t.Error(err)
			return
		}
		returned.Store(sub.ID, true)
	})
	<-entered
	for i := 1; i < writers; i++ {
		wg.Go(func() {
			sub, err := st.CreateSubmission("contact", journalData(i), time.Time{})
			if err != nil {
				t.Error(err)
				return
			}
			returned.Store(sub.ID, true)
		})
	}
	journalWait(t, j, func() bool { return j.cur != nil && len(j.cur.keys) == writers })
	acked := 0
	returned.Range(func(any, any) bool { acked++; return true })
	if acked != 0 {
		t.Fatalf("%d submissions acknowledged before their record was flushed", acked)
	}
	close(release)
	wg.Wait()
	j.mu.Lock()
	flushes := j.flushes
	j.mu.Unlock()
	if flushes > 2 {
		t.Errorf("%d flushes for %d concurrent submissions, want 2 (the first, then one for the rest)", flushes, writers)
	}
	if n, _ := st.SubmissionCount("contact"); n != writers {
		t.Errorf("%d submission files, want %d", n, writers)
	}
}

// A flush that fails acknowledges nothing it covered; later submissions are fsync'd one by one.
func TestJournalFlushFailure(t *testing.T) {
	t.Parallel()
	st := openSynced(t, t.TempDir())
	j := st.journal
	j.mu.Lock()
	j.flush = func(*os.File) error { return errors.New("disk on fire") }
	j.mu.Unlock()
	if _, err := st.CreateSubmission("contact", journalData(1), time.Time{}); content.KindOf(err) != content.Internal || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("submission over a failed flush: err = %v, want an Internal error", err)
	}
	if n, _ := st.SubmissionCount("contact"); n != 0 {
		t.Errorf("%d submission files after a failed flush, want none", n)
	}
	sub, err := st.CreateSubmission("contact", journalData(2), time.Time{})
	if err != nil {
		t.Fatalf("submission after the journal broke: %v", err)
	}
	if _, err := st.Submission("contact", sub.ID); err != nil {
		t.Error(err)
	}
}

// A store closed cleanly leaves no segment behind; one that did not close (a crash, simulated by
// copying its folder) is replayed, without the submissions deleted meanwhile.
func TestJournalCloseAndCrashCopy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := openSynced(t, dir)
	keep, err := st.CreateSubmission("contact", journalData(1), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := st.CreateSubmission("contact", journalData(2), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteSubmission("contact", gone.ID); err != nil {
		t.Fatal(err)
	}
	// The machine crashes now, and its disk lost the file of keep (written without fsync).
	crashed := t.TempDir()
	if err := os.CopyFS(crashed, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	keepName, err := st.submissionFile("test", "contact", keep.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(crashed, "content", "forms", "contact", keepName)); err != nil {
		t.Fatal(err)
	}
	after := openSynced(t, crashed)
	if sub, err := after.Submission("contact", keep.ID); err != nil || sub.Data.Value("n") != int64(1) {
		t.Errorf("acknowledged submission after the crash: %v, %v", sub, err)
	}
	if _, err := after.Submission("contact", gone.ID); !content.IsNotFound(err) {
		t.Errorf("deleted submission after the crash: err = %v, want NotFound", err)
	}

	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if segs, _ := filepath.Glob(filepath.Join(dir, ".cms", "journal", "*")); len(segs) != 0 {
		t.Errorf("segments left after a clean close: %v", segs)
	}
	if n, _ := openSynced(t, dir).SubmissionCount("contact"); n != 1 {
		t.Errorf("%d submissions after reopening, want 1", n)
	}
}

// journalWait polls cond (under the journal's lock) until it holds, failing after a generous
// minute (an outcome, not a time bound).
func journalWait(t *testing.T, j *subJournal, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		j.mu.Lock()
		ok := cond()
		j.mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatal("timed out")
}

// A store that keeps running retires its segments once they are old: their files are synced and
// the segments removed, so that the journal stays short.
func TestJournalRetiresOldSegments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := openSynced(t, dir)
	j := st.journal
	j.mu.Lock()
	j.maxAge = time.Nanosecond
	j.mu.Unlock()
	for i := range 3 {
		if _, err := st.CreateSubmission("contact", journalData(i), time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	journalWait(t, j, func() bool { return j.cur == nil && len(j.sealed) == 0 && len(j.live) == 0 })
	if segs, _ := filepath.Glob(filepath.Join(dir, ".cms", "journal", "*")); len(segs) != 0 {
		t.Errorf("segments left after retirement: %v", segs)
	}
	if n, _ := st.SubmissionCount("contact"); n != 3 {
		t.Errorf("%d submissions, want 3", n)
	}
}

// Through the journal, a submission is readable the moment it is acknowledged: listed, found,
// exported and counted; and deleting it removes its file.
func TestJournaledSubmissionReadAndDelete(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := openSynced(t, dir)
	var ids []string
	for i := range 3 {
		sub, err := st.CreateSubmission("contact", journalData(i), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sub.ID)
	}
	page, total, err := st.Submissions("contact", 1, 10, SortOldest)
	if err != nil || total != 3 || len(page) != 3 || page[0].ID != ids[0] || page[2].ID != ids[2] {
		t.Fatalf("list = %d of %d, %v", len(page), total, err)
	}
	if sub, err := st.Submission("contact", ids[1]); err != nil || sub.Data.Value("n") != int64(1) {
		t.Errorf("get = %v, %v", sub, err)
	}
	var exported []string
	for sub, err := range st.EachSubmission("contact") {
		if err != nil {
			t.Fatal(err)
		}
		exported = append(exported, sub.ID)
	}
	if !slices.Equal(exported, ids) {
		t.Errorf("export = %v, want %v", exported, ids)
	}
	if err := st.DeleteSubmission("contact", ids[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Submission("contact", ids[1]); !content.IsNotFound(err) {
		t.Errorf("after delete: err = %v, want NotFound", err)
	}
	files, _ := os.ReadDir(filepath.Join(dir, "content", "forms", "contact"))
	if len(files) != 2 {
		t.Errorf("%d files after the delete, want 2", len(files))
	}
}
