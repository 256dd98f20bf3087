package fsstore_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"cms/content/contenttest"
	"cms/content/fsstore"
)

// A freshly opened server store names the work it left for the background (the index snapshot
// write, the temp sweep, the check of a loaded snapshot against the files) until it is done,
// so a benchmark can wait for a settled process. A read-only store writes nothing.
func TestBackgroundWorkIsReportedUntilDone(t *testing.T) {
	dir := contenttest.WriteSite(t, sharedSite)
	settle := func(st *fsstore.Store) {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute) // generous: only a hung job takes this long
		for len(st.Background()) > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("background work still pending: %v", st.Background())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	openPoll := func(readOnly bool) *fsstore.Store {
		st, err := fsstore.Open(t.Context(), fsstore.Options{Dir: dir, Snapshot: true, ReadOnly: readOnly, Watch: fsstore.WatchPoll,
			NoSync: true, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}

	st := openPoll(false)
	got := st.Background()
	for _, want := range []string{"indexSnapshot", "tempSweep"} {
		if !slices.Contains(got, want) {
			t.Errorf("first start: background %v, want %s in it", got, want)
		}
	}
	settle(st)
	if _, err := os.Stat(filepath.Join(dir, fsstore.SnapshotFile)); err != nil {
		t.Errorf("settled, but no snapshot written: %v", err)
	}
	st.Close()

	st = openPoll(false)
	if !st.IndexInfo().FromSnapshot {
		t.Fatal("second start did not load the snapshot")
	}
	if got := st.Background(); !slices.Contains(got, "indexVerify") {
		t.Errorf("start from the snapshot: background %v, want indexVerify in it", got)
	}
	settle(st)
	st.Close()

	ro := openPoll(true)
	if got := ro.Background(); slices.Contains(got, "indexSnapshot") || slices.Contains(got, "tempSweep") {
		t.Errorf("read-only store: background %v, want no writes", got)
	}
	settle(ro)
}
