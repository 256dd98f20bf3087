package fsstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/fsstore"
)

// crashChildEnv makes the test binary act as a writer that is killed mid-loop.
const crashChildEnv = "CMS_FSSTORE_CRASH_CHILD"

// TestMain lets the crash test re-run this binary as the writer process.
func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashWriter(dir)
		return
	}
	os.Exit(m.Run())
}

// crashWriter rewrites every entry of blog with growing bodies until it is killed.
func crashWriter(dir string) {
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i := 0; ; i++ {
		slug := fmt.Sprintf("post-%d", i%8)
		cur, err := st.Entry("blog", slug)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		next := *cur
		next.Title = fmt.Sprintf("Revision %d", i)
		next.Content = strings.Repeat(fmt.Sprintf("line %d of revision %d\n", i, i), 50+i%200)
		if _, err := st.UpdateEntry("blog", slug, cur.Hash, &next); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		if i == 20 {
			// Tell the parent the loop is running.
			_ = os.WriteFile(filepath.Join(dir, "running"), nil, 0o644)
		}
	}
}

// A writer killed with SIGKILL in the middle of its write loop leaves every entry file
// parseable, holding either an old or a new revision, never a torn one.
func TestSIGKILLLeavesNoTornFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writer processes")
	}
	t.Parallel()
	files := "-- resources/collections/blog.yaml --\ntitle: Blog\n"
	for i := range 8 {
		files += fmt.Sprintf("-- content/collections/blog/post-%d.md --\n---\ntitle: Original %d\nstatus: published\n---\n\nOriginal body.\n", i, i)
	}
	dir := contenttest.WriteSite(t, files)
	for round := range 5 {
		_ = os.Remove(filepath.Join(dir, "running"))
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
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
		time.Sleep(time.Duration(10+round*15) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil { // SIGKILL
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if strings.TrimSpace(stderr.String()) != "" {
			t.Fatalf("writer failed before the kill: %s", stderr.String())
		}
		for i := range 8 {
			p := filepath.Join(dir, "content/collections/blog", fmt.Sprintf("post-%d.md", i))
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			e, err := fsstore.ParseEntry("blog", fmt.Sprintf("post-%d", i), raw)
			if err != nil {
				t.Fatalf("round %d: post-%d does not parse after SIGKILL: %v", round, i, err)
			}
			if e.Title == "" || !(strings.HasPrefix(e.Title, "Original") || strings.HasPrefix(e.Title, "Revision")) {
				t.Fatalf("round %d: post-%d has an unexpected title %q", round, i, e.Title)
			}
			if strings.HasPrefix(e.Title, "Revision") {
				var n int
				fmt.Sscanf(e.Title, "Revision %d", &n)
				want := strings.Repeat(fmt.Sprintf("line %d of revision %d\n", n, n), 50+n%200)
				if e.Content != strings.TrimSpace(want) {
					t.Fatalf("round %d: post-%d body does not match its revision %d (torn write)", round, i, n)
				}
			}
		}
		// A store opened afterwards loads every entry.
		st := contenttest.OpenStore(t, dir)
		for i := range 8 {
			if _, err := st.EntryMeta("blog", fmt.Sprintf("post-%d", i)); err != nil {
				t.Fatalf("round %d: %v", round, content.KindOf(err))
			}
		}
	}
}
