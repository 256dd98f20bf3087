package gitsync_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/gitsync"
)

// 1,000 writes by 5 editors within 10 s (on the manual clock: one every 10 ms) make at most 10
// commits, with every change in HEAD and every editor the author or a Co-authored-by trailer.
func TestBurstOfWritesFromFiveEditors(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	f := start(t, dir, func(o *gitsync.Options) { o.NoSync = true })
	before := commitCount(t, dir)
	editors := make([]content.Editor, 5)
	for i := range editors {
		editors[i] = content.Editor{Name: fmt.Sprintf("Editor %d", i), Email: fmt.Sprintf("editor%d@example.com", i)}
	}
	for i := range 1000 {
		ed := editors[i%5]
		rel := fmt.Sprintf("content/collections/blog/post-%03d.md", i%250) // 250 files, each written 4 times
		f.change(t, rel, fmt.Sprintf("---\ntitle: Revision %d\n---\n", i), "Updated entry blog/"+rel, ed)
		f.clock.Advance(10 * time.Millisecond)
	}
	f.clock.Advance(2 * time.Second)
	commits := commitCount(t, dir) - before
	if commits < 1 || commits > 10 {
		t.Fatalf("%d commits for 1,000 writes, want 1 to 10", commits)
	}
	for i := 750; i < 1000; i++ { // the last revision of each file
		rel := fmt.Sprintf("content/collections/blog/post-%03d.md", i%250)
		if got := git(t, dir, "show", "HEAD:"+rel); got != fmt.Sprintf("---\ntitle: Revision %d\n---", i) {
			t.Fatalf("%s in HEAD = %q", rel, got)
		}
	}
	people := git(t, dir, "log", fmt.Sprintf("-%d", commits), "--format=%ae %(trailers:key=Co-authored-by,valueonly,separator=%x20)")
	for _, ed := range editors {
		if !strings.Contains(people, ed.Email) {
			t.Errorf("%s is neither an author nor a co-author:\n%s", ed.Email, people)
		}
	}
	if got := git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status = %q", got)
	}
}

// BenchmarkWriteLatency: a write through the store with git sync off and on. The commit is
// asynchronous; what a write pays is persisting the queue when it names a new path.
func BenchmarkWriteLatency(b *testing.B) {
	for _, on := range []bool{false, true} {
		for _, kind := range []string{"same-file", "new-file"} {
			b.Run(fmt.Sprintf("git=%v/%s", on, kind), func(b *testing.B) {
				dir := newRepo(b)
				write(b, dir, "resources/collections/blog.yaml", "title: Blog\n")
				opts := fsstore.Options{Dir: dir, Watch: fsstore.WatchNone}
				if on {
					o := options(dir, filepath.Join(b.TempDir(), "git-sync"), gitsync.Clock(nil), &bytes.Buffer{})
					o.Clock, o.NoSync = nil, false // the real clock: commits run in the background
					s, err := gitsync.New(o)
					if err != nil {
						b.Fatal(err)
					}
					defer s.Close()
					opts.OnChange = s.Enqueue
				}
				st, err := fsstore.Open(context.Background(), opts)
				if err != nil {
					b.Fatal(err)
				}
				defer st.Close()
				as := st.As(alice)
				data := content.NewMap(1)
				b.ResetTimer()
				for i := range b.N {
					if kind == "same-file" {
						data.Set("name", fmt.Sprint("Site ", i))
						if _, err := as.SaveGlobal("site", data, ""); err != nil {
							b.Fatal(err)
						}
					} else if _, err := as.CreateEntry(&content.Entry{Collection: "blog", Slug: fmt.Sprintf("p-%d", i), Data: content.NewMap(0)}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// bigRepo builds, once per process, a repository of 100,000 tracked files (git fast-import):
// 100,000 entries in one collection folder, git sync's worst case (the one tree it rewrites is
// the largest), and an index holding all of them.
var bigRepo = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "gitsync-bench-")
	if err != nil {
		return "", err
	}
	bigRepoDir = dir
	run := func(stdin *bytes.Buffer, args ...string) error {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		if stdin != nil {
			cmd.Stdin = stdin
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", args[0], err, out)
		}
		return nil
	}
	if err := run(nil, "init", "-q", "-b", "main"); err != nil {
		return "", err
	}
	var in bytes.Buffer
	w := bufio.NewWriter(&in)
	fmt.Fprintf(w, "commit refs/heads/main\ncommitter Owner <owner@example.com> 1700000000 +0000\ndata 7\ninitial\n")
	for i := range 100_000 {
		body := fmt.Sprintf("---\ntitle: Post %d\n---\n\nBody of post %d.\n", i, i)
		fmt.Fprintf(w, "M 100644 inline content/collections/blog/post-%06d.md\ndata %d\n%s\n", i, len(body), body)
	}
	w.Flush()
	if err := run(&in, "fast-import", "--quiet"); err != nil {
		return "", err
	}
	if err := run(nil, "read-tree", "HEAD"); err != nil { // the index: every file tracked
		return "", err
	}
	return dir, os.MkdirAll(filepath.Join(dir, "content/collections/blog"), 0o755)
})

var bigRepoDir string

// BenchmarkCommitOneFileOf100k: one commit of one changed file in a repository of 100,000
// tracked files.
func BenchmarkCommitOneFileOf100k(b *testing.B) {
	dir, err := bigRepo()
	if err != nil {
		b.Fatal(err)
	}
	s, err := gitsync.New(options(dir, filepath.Join(b.TempDir(), "git-sync"), newClock(), &bytes.Buffer{}))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	id := s.Status()[0].ID
	b.ResetTimer()
	for i := range b.N {
		rel := "content/collections/blog/post-050000.md"
		write(b, dir, rel, fmt.Sprintf("---\ntitle: Edited %d %d\n---\n", i, time.Now().UnixNano()))
		s.Enqueue(content.Change{Paths: []string{rel}, Message: "Updated entry blog/post-050000", Editor: alice})
		res, err := s.Sync(context.Background(), id)
		if err != nil || !res[0].Committed {
			b.Fatalf("sync = %+v, %v", res, err)
		}
	}
}
