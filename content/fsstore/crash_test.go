package fsstore_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/entryfile"
	"cms/content/fsstore"
	"cms/content/query"
)

// crashChildEnv makes the test binary act as a writer that is killed mid-loop; crashModeEnv
// chooses the loop ("rename" renames, "submit" submits forms, anything else rewrites).
const (
	crashChildEnv = "CMS_FSSTORE_CRASH_CHILD"
	crashModeEnv  = "CMS_FSSTORE_CRASH_MODE"
)

// TestMain lets the crash tests re-run this binary as the writer process.
func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		switch os.Getenv(crashModeEnv) {
		case "rename":
			crashRenamer(dir)
		case "submit":
			crashSubmitter(dir)
		default:
			crashWriter(dir)
		}
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
			e, err := entryfile.Parse("blog", fmt.Sprintf("post-%d", i), raw)
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

// The two slugs crashRenamer moves one entry between.
var renameSlugs = [2]string{"moving-a", "moving-b"}

func renameBody(n int) string {
	return strings.Repeat(fmt.Sprintf("moved %d times\n", n), 20+n%50)
}

// crashRenamer renames one entry of blog back and forth between two slugs, with a new title and
// body each time, until it is killed.
func crashRenamer(dir string) {
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	from := 0
	if _, err := st.EntryMeta("blog", renameSlugs[0]); err != nil {
		from = 1
	}
	for i := 0; ; i++ {
		cur, err := st.Entry("blog", renameSlugs[from])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		next := *cur
		next.Slug = renameSlugs[1-from]
		next.Title = fmt.Sprintf("Move %d", i)
		next.Content = renameBody(i)
		if _, err := st.UpdateEntry("blog", renameSlugs[from], cur.Hash, &next); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		from = 1 - from
		if i == 20 {
			_ = os.WriteFile(filepath.Join(dir, "running"), nil, 0o644)
		}
	}
}

// A writer killed with SIGKILL while it renames an entry leaves the entry under exactly one of
// its slugs: a read-only store opened before any writer never serves both, and a writable store
// opened afterwards finishes or undoes the rename so that exactly one file remains.
func TestSIGKILLDuringRenameLeavesOneFile(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writer processes")
	}
	t.Parallel()
	dir := contenttest.WriteSite(t, "-- resources/collections/blog.yaml --\ntitle: Blog\n"+
		"-- content/collections/blog/moving-a.md --\n---\ntitle: Original\nstatus: published\n---\n\nOriginal body.\n"+
		"-- content/collections/blog/staying.md --\n---\ntitle: Staying\nstatus: published\n---\n\nStays.\n")
	interrupted := 0 // kills that left a rename record
	defer func() { t.Logf("%d of 20 kills interrupted a rename", interrupted) }()
	for round := range 20 {
		_ = os.Remove(filepath.Join(dir, "running"))
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, crashModeEnv+"=rename")
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
				_ = cmd.Wait()
				t.Fatalf("round %d: renamer did not start: %s", round, stderr.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(1+round%7*6) * time.Millisecond)
		if err := cmd.Process.Kill(); err != nil { // SIGKILL
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if strings.TrimSpace(stderr.String()) != "" {
			t.Fatalf("round %d: renamer failed before the kill: %s", round, stderr.String())
		}

		if recs, _ := os.ReadDir(filepath.Join(dir, fsstore.RenamesDir)); len(recs) > 0 {
			interrupted++
		}
		// A frontend that cannot write serves the entry under one slug only.
		ro, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, ReadOnly: true, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		var served []string
		for _, slug := range renameSlugs {
			if _, err := ro.EntryMeta("blog", slug); err == nil {
				served = append(served, slug)
			}
		}
		list, _, err := ro.Entries("blog", query.Query{})
		_ = ro.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(served) != 1 || len(list) != 2 {
			t.Fatalf("round %d: a read-only store serves %v of the renamed entry and lists %d entries, want one and 2", round, served, len(list))
		}

		// A writable store resolves the interrupted rename on disk.
		st := contenttest.OpenStore(t, dir)
		var left []string
		for _, slug := range renameSlugs {
			raw, err := os.ReadFile(filepath.Join(dir, "content/collections/blog", slug+".md"))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			left = append(left, slug)
			e, err := entryfile.Parse("blog", slug, raw)
			if err != nil {
				t.Fatalf("round %d: %s does not parse after SIGKILL: %v", round, slug, err)
			}
			var n int
			if _, err := fmt.Sscanf(e.Title, "Move %d", &n); err == nil {
				if e.Content != strings.TrimSpace(renameBody(n)) {
					t.Fatalf("round %d: %s body does not match its move %d (torn write)", round, slug, n)
				}
			} else if e.Title != "Original" {
				t.Fatalf("round %d: %s has an unexpected title %q", round, slug, e.Title)
			}
		}
		if len(left) != 1 || left[0] != served[0] {
			t.Fatalf("round %d: files left %v after reopening, want exactly the one a read-only store served (%s)", round, left, served[0])
		}
		if _, err := st.EntryMeta("blog", left[0]); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		_ = st.Close()
	}
}

// crashSubmitters is how many goroutines of crashSubmitter submit at once, so that writes are
// in flight together when the kill lands.
const crashSubmitters = 16

// crashMessage is the message of the nth submission of a submitter: long enough to span more
// than one write, and checkable.
func crashMessage(n int) string {
	return strings.Repeat(fmt.Sprintf("message %d; ", n), 40+n%300)
}

// crashSubmitter submits to form "crash" from crashSubmitters goroutines, with fsync, until it is
// killed, and prints "id n" on stdout, one write per line, as soon as each submission is
// acknowledged; it deletes every fifth submission and prints "id deleted" once it is.
func crashSubmitter(dir string) {
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNone, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var wg sync.WaitGroup
	for g := range crashSubmitters {
		wg.Go(func() {
			for i := g; ; i += crashSubmitters {
				data := content.NewMap(2)
				data.Set("n", int64(i))
				data.Set("message", crashMessage(i))
				sub, err := st.CreateSubmission("crash", data, time.Time{})
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(3)
				}
				// One write of a short line: whole on the pipe even if the process dies next.
				if _, err := os.Stdout.WriteString(sub.ID + " " + strconv.Itoa(i) + "\n"); err != nil {
					os.Exit(4)
				}
				if i%5 == 0 {
					// Deleted soon after: a crash must not bring it back (the journal replay).
					if err := st.DeleteSubmission("crash", sub.ID); err != nil {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(3)
					}
					if _, err := os.Stdout.WriteString(sub.ID + " deleted\n"); err != nil {
						os.Exit(4)
					}
				}
			}
		})
	}
	wg.Wait()
}

// A submitter killed with SIGKILL while many submissions are in flight loses none it
// acknowledged: each is found by its id and holds what was submitted; and it leaves no torn
// file, so every submission file in the folder loads.
func TestSIGKILLKeepsAcknowledgedSubmissions(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns writer processes")
	}
	t.Parallel()
	dir := t.TempDir()
	acked := map[string]int{}    // id -> n, over all rounds
	deleted := map[string]bool{} // ids whose deletion was acknowledged
	for round := range 5 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, crashModeEnv+"=submit")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill after a random number of acknowledgements, while the others are in flight.
		killAfter := 20 + rand.IntN(300)
		lines := make(chan string)
		go func() {
			defer close(lines)
			r := bufio.NewReader(out)
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return // a partial last line was never acknowledged
				}
				lines <- strings.TrimSuffix(line, "\n")
			}
		}()
		var got []string
		deadline := time.After(2 * time.Minute)
		for len(got) < killAfter {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("round %d: the submitter stopped after %d acknowledgements: %s", round, len(got), stderr.String())
				}
				got = append(got, line)
			case <-deadline:
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("round %d: only %d submissions acknowledged: %s", round, len(got), stderr.String())
			}
		}
		if err := cmd.Process.Kill(); err != nil { // SIGKILL
			t.Fatal(err)
		}
		// Acknowledgements written before the kill are still in the pipe.
		for line := range lines {
			got = append(got, line)
		}
		_ = cmd.Wait()
		if strings.TrimSpace(stderr.String()) != "" {
			t.Fatalf("round %d: submitter failed before the kill: %s", round, stderr.String())
		}
		for _, line := range got {
			id, num, ok := strings.Cut(line, " ")
			if num == "deleted" {
				delete(acked, id)
				deleted[id] = true
				continue
			}
			n, err := strconv.Atoi(num)
			if !ok || err != nil {
				t.Fatalf("round %d: bad acknowledgement %q", round, line)
			}
			acked[id] = n
		}

		st := contenttest.OpenStore(t, dir)
		for id, n := range acked {
			sub, err := st.Submission("crash", id)
			if n%5 == 0 && content.IsNotFound(err) {
				continue // its deletion was under way, not yet acknowledged, when the kill came
			}
			if err != nil {
				t.Fatalf("round %d: acknowledged submission %s (n=%d) lost after SIGKILL: %v", round, id, n, err)
			}
			if v, _ := sub.Data.Value("n").(int64); v != int64(n) || sub.Data.Value("message") != crashMessage(n) {
				t.Fatalf("round %d: submission %s holds n=%v and a message of %d bytes, want n=%d and its message", round, id, sub.Data.Value("n"), len(fmt.Sprint(sub.Data.Value("message"))), n)
			}
		}
		for id := range deleted {
			if _, err := st.Submission("crash", id); !content.IsNotFound(err) {
				t.Fatalf("round %d: submission %s, deleted before the SIGKILL, is back: err = %v", round, id, err)
			}
		}
		total, err := st.SubmissionCount("crash")
		if err != nil {
			t.Fatal(err)
		}
		loaded := 0
		seen := map[string]bool{}
		for sub, err := range st.EachSubmission("crash") {
			if err != nil {
				t.Fatal(err)
			}
			if seen[sub.ID] {
				t.Fatalf("round %d: submission %s stored twice", round, sub.ID)
			}
			seen[sub.ID] = true
			// Acknowledged or not, a file holds one whole submission.
			n, ok := sub.Data.Value("n").(int64)
			if !ok || sub.Data.Value("message") != crashMessage(int(n)) {
				t.Fatalf("round %d: submission file of %s is torn: n=%v", round, sub.ID, sub.Data.Value("n"))
			}
			loaded++
		}
		if loaded != total {
			t.Fatalf("round %d: %d of %d submission files load after SIGKILL: a torn file", round, loaded, total)
		}
		t.Logf("round %d: killed after %d acknowledgements; %d files, %d acknowledged in all", round, len(got), total, len(acked))
		_ = st.Close()
		// The killed writer's journal was replayed and removed; the reader's closed cleanly.
		if left, _ := filepath.Glob(filepath.Join(dir, ".cms", "journal", "*.wal")); len(left) != 0 {
			t.Fatalf("round %d: journal segments left after replay and a clean close: %v", round, left)
		}
	}
}
