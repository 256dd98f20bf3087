package fsstore_test

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
)

func submissionData(kv ...any) *content.Map {
	m := content.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func TestCreateSubmissionWritesFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := contenttest.OpenStore(t, dir)
	at := time.Date(2026, 3, 4, 5, 6, 7, 890e6, time.UTC)
	sub, err := st.CreateSubmission("contact", submissionData("name", "Ada", "age", int64(36)), at)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Form != "contact" || sub.SubmittedAt != "2026-03-04T05:06:07.890Z" {
		t.Errorf("submission = %+v", sub)
	}
	if len(sub.ID) != 36 || sub.ID[14] != '7' {
		t.Errorf("id %q is not a version 7 UUID", sub.ID)
	}
	name := "2026-03-04T05-06-07-" + sub.ID + ".yaml"
	raw, err := os.ReadFile(filepath.Join(dir, "content", "forms", "contact", name))
	if err != nil {
		t.Fatalf("submission file %s: %v", name, err)
	}
	want := "id: " + sub.ID + "\nform: contact\nsubmitted_at: 2026-03-04T05:06:07.890Z\ndata:\n  name: Ada\n  age: 36\n"
	if string(raw) != want {
		t.Errorf("file =\n%s\nwant\n%s", raw, want)
	}
	got, err := st.Submission("contact", strings.ToUpper(sub.ID))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != sub.ID || got.Data.Value("age") != int64(36) || got.SubmittedAt != sub.SubmittedAt {
		t.Errorf("read back %+v", got)
	}
}

func TestSubmissionIDsSortByTime(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 50 {
		ids = append(ids, content.NewSubmissionID(base.Add(time.Duration(i)*time.Millisecond)))
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids of increasing times are not sorted: %v", ids)
	}
}

func TestSubmissionsPaging(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, t.TempDir())
	base := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var ids []string
	for i := range 25 {
		// Several per second: order within a second comes from the id's milliseconds.
		sub, err := st.CreateSubmission("f", submissionData("n", int64(i)), base.Add(time.Duration(i)*300*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sub.ID)
	}
	tests := []struct {
		name          string
		page, perPage int
		sort          string
		want          []int // indexes into ids
	}{
		{"newest first page", 1, 10, fsstore.SortNewest, []int{24, 23, 22, 21, 20, 19, 18, 17, 16, 15}},
		{"newest last page", 3, 10, fsstore.SortNewest, []int{4, 3, 2, 1, 0}},
		{"oldest second page", 2, 10, fsstore.SortOldest, []int{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}},
		{"past the end", 4, 10, fsstore.SortNewest, nil},
		{"huge page", 1 << 60, 100, fsstore.SortNewest, nil},
		{"all", 1, 100, fsstore.SortOldest, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			subs, total, err := st.Submissions("f", tc.page, tc.perPage, tc.sort)
			if err != nil {
				t.Fatal(err)
			}
			if total != 25 {
				t.Errorf("total = %d, want 25", total)
			}
			var got []int
			for _, s := range subs {
				got = append(got, slices.Index(ids, s.ID))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("page = %v, want %v", got, tc.want)
			}
		})
	}
	if _, _, err := st.Submissions("f", 0, 10, fsstore.SortNewest); content.KindOf(err) != content.Invalid {
		t.Errorf("page 0: err = %v, want Invalid", err)
	}
	subs, total, err := st.Submissions("nothing-yet", 1, 20, fsstore.SortNewest)
	if err != nil || total != 0 || len(subs) != 0 || subs == nil {
		t.Errorf("empty form: %v, %d, %v; want an empty, non-nil page", subs, total, err)
	}
}

func TestSubmissionLookupAndDelete(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, `
-- content/forms/contact/2024-05-06T07-08-09-0f8fad5b-d9cb-469f-a165-70867728950e.yaml --
id: 0f8fad5b-d9cb-469f-a165-70867728950e
form: contact
submitted_at: "2024-05-06T07:08:09.123Z"
data:
  email: old@example.com
-- content/forms/contact/2024-05-06T07-08-10-7c9e6679-7425-40de-944b-e07fc1f90ae7.yaml --
form: contact
submitted_at: "2024-05-06T07:08:10.000Z"
-- content/forms/contact/broken.yaml --
data: [not, a, map
-- content/forms/contact/.x.yaml.tmp.0011 --
half written
`)
	st := contenttest.OpenStore(t, dir)
	// A version 4 id (written by Madori) is found by scanning the folder.
	sub, err := st.Submission("contact", "0f8fad5b-d9cb-469f-a165-70867728950e")
	if err != nil {
		t.Fatal(err)
	}
	if sub.Data.Value("email") != "old@example.com" {
		t.Errorf("data = %v", sub.Data)
	}
	// No id in the file: it comes from the file name, and data defaults to empty.
	sub, err = st.Submission("contact", "7c9e6679-7425-40de-944b-e07fc1f90ae7")
	if err != nil || sub.ID != "7c9e6679-7425-40de-944b-e07fc1f90ae7" || sub.Data.Len() != 0 {
		t.Errorf("id from file name: %+v, %v", sub, err)
	}
	for _, id := range []string{"", "nope", "../../etc/passwd", "0f8fad5b-d9cb-469f-a165-70867728950f", "0f8fad5bd9cb469fa16570867728950e"} {
		if _, err := st.Submission("contact", id); !content.IsNotFound(err) {
			t.Errorf("Submission(%q): err = %v, want NotFound", id, err)
		}
	}
	if _, err := st.Submission("../x", "0f8fad5b-d9cb-469f-a165-70867728950e"); !content.IsNotFound(err) {
		t.Errorf("bad form handle: err = %v, want NotFound", err)
	}
	n, err := st.SubmissionCount("contact")
	if err != nil || n != 3 {
		t.Errorf("count = %d, %v; want 3 (temp files are not submissions)", n, err)
	}
	// The broken file counts but is left out of pages and exports.
	subs, total, err := st.Submissions("contact", 1, 10, fsstore.SortOldest)
	if err != nil || total != 3 || len(subs) != 2 {
		t.Errorf("page: %d of %d, %v", len(subs), total, err)
	}
	if err := st.DeleteSubmission("contact", "0f8fad5b-d9cb-469f-a165-70867728950e"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "content/forms/contact/2024-05-06T07-08-09-0f8fad5b-d9cb-469f-a165-70867728950e.yaml")); !os.IsNotExist(err) {
		t.Errorf("file still there: %v", err)
	}
	if err := st.DeleteSubmission("contact", "0f8fad5b-d9cb-469f-a165-70867728950e"); !content.IsNotFound(err) {
		t.Errorf("second delete: err = %v, want NotFound", err)
	}
}

func TestEachSubmissionStreamsInFileOrder(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, t.TempDir())
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 30 {
		if _, err := st.CreateSubmission("f", submissionData("n", int64(i)), base.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	var got []int64
	for sub, err := range st.EachSubmission("f") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, sub.Data.Value("n").(int64))
		if len(got) == 10 {
			break // stopping early must be fine
		}
	}
	if want := []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, err := range st.EachSubmission("../x") {
		if !content.IsNotFound(err) {
			t.Errorf("bad handle: err = %v, want NotFound", err)
		}
	}
}

func TestCreateSubmissionConcurrent(t *testing.T) {
	t.Parallel()
	st := contenttest.OpenStore(t, t.TempDir())
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 25 {
				if _, err := st.CreateSubmission("f", submissionData("x", "y"), time.Time{}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n, err := st.SubmissionCount("f"); err != nil || n != 200 {
		t.Errorf("count = %d, %v; want 200", n, err)
	}
}

func TestSubmissionsReadOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, ReadOnly: true, Watch: fsstore.WatchNone})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.CreateSubmission("f", nil, time.Time{}); content.KindOf(err) != content.Forbidden {
		t.Errorf("create on a read-only store: err = %v, want Forbidden", err)
	}
	if err := st.DeleteSubmission("f", content.NewSubmissionID(time.Now())); content.KindOf(err) != content.Forbidden {
		t.Errorf("delete on a read-only store: err = %v, want Forbidden", err)
	}
}

func BenchmarkCreateSubmission(b *testing.B) {
	st := contenttest.OpenStore(b, b.TempDir())
	data := submissionData("name", "Ada Lovelace", "email", "ada@example.com", "message", strings.Repeat("Hello. ", 40))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.CreateSubmission("f", data, time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateSubmissionParallel creates fsync'd submissions from 16 and 64 concurrent
// writers, the store's share of form submits under load, and reports submissions per second.
func BenchmarkCreateSubmissionParallel(b *testing.B) {
	data := submissionData("name", "Ada Lovelace", "email", "ada@example.com", "message", strings.Repeat("Hello. ", 40))
	for _, writers := range []int{16, 64} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			st, err := fsstore.Open(b.Context(), fsstore.Options{Dir: b.TempDir(), Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			b.SetParallelism(max(1, writers/runtime.GOMAXPROCS(0)))
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := st.CreateSubmission("f", data, time.Time{}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "submissions/s")
		})
	}
}

// The store keeps a form's folder open between submissions; a folder removed, or replaced by
// another, still gets every later submission at its path (at once when removed, after the
// store's next check, a second later by its clock, when moved away).
func TestSubmissionsFolderReplaced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var mu sync.Mutex
	clock := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	st, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, Now: now, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	folder := filepath.Join(dir, "content", "forms", "contact")
	submit := func(name string) {
		t.Helper()
		if _, err := st.CreateSubmission("contact", submissionData("name", name), time.Time{}); err != nil {
			t.Fatalf("submit %s: %v", name, err)
		}
	}
	names := func() []string {
		t.Helper()
		var out []string
		for sub, err := range st.EachSubmission("contact") {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sub.Data.Value("name").(string))
		}
		return out
	}
	submit("a") // makes the folder
	submit("a") // through the kept folder
	// Moved away and replaced by an empty folder: seen at the next check.
	if err := os.Rename(folder, folder+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	clock = clock.Add(2 * time.Second)
	mu.Unlock()
	submit("b")
	if got := names(); !slices.Equal(got, []string{"b"}) {
		t.Errorf("after the folder was replaced, submissions = %v, want [b]", got)
	}
	// Removed (all submissions deleted by hand): the next one makes the folder anew at once.
	if err := os.RemoveAll(folder); err != nil {
		t.Fatal(err)
	}
	submit("c")
	if got := names(); !slices.Equal(got, []string{"c"}) {
		t.Errorf("after the folder was removed, submissions = %v, want [c]", got)
	}
}
