package gitsync_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cms/content"
	"cms/content/fsstore"
	"cms/content/gitsync"
)

// manualClock fires timers only when a test advances it, in the test's goroutine.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*manualTimer
}

type manualTimer struct {
	at   time.Time
	f    func()
	done bool
}

func newClock() *manualClock { return &manualClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *manualClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *manualClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if t.done {
			return false
		}
		t.done = true
		return true
	}
}

// Advance moves the clock and runs the timers that are due, in order; timers they start run
// too when due.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		var next *manualTimer
		for _, t := range c.timers {
			if !t.done && !t.at.After(c.now) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next != nil {
			next.done = true
		}
		c.mu.Unlock()
		if next == nil {
			return
		}
		next.f()
	}
}

// git runs the git command line in dir and returns its trimmed output.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=Owner", "GIT_AUTHOR_EMAIL=owner@example.com",
		"GIT_COMMITTER_NAME=Owner", "GIT_COMMITTER_EMAIL=owner@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimRight(string(out), "\n ")
}

func write(t testing.TB, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newRepo makes a repository in a new folder with one commit of a small site.
func newRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, dir, "content/collections/blog/first.md", "---\ntitle: First\n---\n")
	write(t, dir, "content/globals/site.yaml", "name: Site\n")
	write(t, dir, "resources/collections/blog.yaml", "title: Blog\n")
	write(t, dir, "notes.txt", "notes\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "initial")
	return dir
}

type fixture struct {
	site  string
	clock *manualClock
	s     *gitsync.Syncer
	logs  *bytes.Buffer
}

func options(site, state string, clock gitsync.Clock, logs *bytes.Buffer) gitsync.Options {
	return gitsync.Options{
		SiteDir: site, StatePath: state,
		Tracked:          gitsync.DefaultTracked("content", "resources"),
		Never:            []string{".sessions", ".cms", "storage"},
		UseAuthenticated: true,
		Bot:              content.Editor{Name: "CMS", Email: "cms@localhost"},
		CommitPrefix:     "[CMS]",
		Clock:            clock,
		Log:              slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		NoSync:           true,
	}
}

func start(t *testing.T, site string, edit func(*gitsync.Options)) *fixture {
	t.Helper()
	f := &fixture{site: site, clock: newClock(), logs: &bytes.Buffer{}}
	o := options(site, filepath.Join(t.TempDir(), "git-sync"), f.clock, f.logs)
	if edit != nil {
		edit(&o)
	}
	s, err := gitsync.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f.s = s
	return f
}

var (
	alice = content.Editor{Name: "Alice", Email: "alice@example.com"}
	bob   = content.Editor{Name: "Bob", Email: "bob@example.com"}
)

// change writes rel in the site and enqueues it, as a write through the store does.
func (f *fixture) change(t *testing.T, rel, body, msg string, ed content.Editor) {
	t.Helper()
	write(t, f.site, rel, body)
	f.s.Enqueue(content.Change{Paths: []string{rel}, Message: msg, Editor: ed})
}

func commitCount(t *testing.T, dir string) int {
	t.Helper()
	var n int
	fmt.Sscan(git(t, dir, "rev-list", "--count", "HEAD"), &n)
	return n
}

func TestCommitHoldsExactlyTheQueuedPaths(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	f := start(t, dir, nil)
	// An unrelated staged change and an unrelated modified file of a tracked folder.
	write(t, dir, "notes.txt", "staged notes\n")
	git(t, dir, "add", "notes.txt")
	write(t, dir, "content/globals/site.yaml", "name: Edited, not through the service\n")

	f.change(t, "content/collections/blog/hello.md", "---\ntitle: Hello\n---\n", "Created entry blog/hello", alice)
	f.clock.Advance(2 * time.Second)

	if got := git(t, dir, "show", "--name-status", "--format=%an <%ae>|%s", "HEAD"); got != "Alice <alice@example.com>|[CMS] Created entry blog/hello\n\nA\tcontent/collections/blog/hello.md" {
		t.Errorf("HEAD = %q", got)
	}
	if got := git(t, dir, "show", "HEAD:content/collections/blog/hello.md"); got != "---\ntitle: Hello\n---" {
		t.Errorf("committed file = %q", got)
	}
	// The user's staged file is still staged (and only it), the modified one still modified, and
	// the committed file is clean.
	if got := git(t, dir, "status", "--porcelain"); got != "M  notes.txt\n M content/globals/site.yaml" && got != " M content/globals/site.yaml\nM  notes.txt" {
		t.Errorf("git status = %q", got)
	}
	if got := git(t, dir, "diff", "--cached", "--name-only"); got != "notes.txt" {
		t.Errorf("staged = %q", got)
	}
	st := f.s.Status()
	if len(st) != 1 || st[0].Status != gitsync.StatusClean || st[0].Branch != "main" || st[0].LastCommit == nil {
		t.Errorf("status = %+v", st)
	}
}

func TestDeletesRenamesAndFoldersAreCommitted(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	f := start(t, dir, nil)
	if err := os.Rename(filepath.Join(dir, "content/collections/blog/first.md"), filepath.Join(dir, "content/collections/blog/renamed.md")); err != nil {
		t.Fatal(err)
	}
	f.s.Enqueue(content.Change{Paths: []string{"content/collections/blog/first.md", "content/collections/blog/renamed.md"}, Message: "Renamed entry", Editor: alice})
	if err := os.RemoveAll(filepath.Join(dir, "resources/collections")); err != nil {
		t.Fatal(err)
	}
	f.s.Enqueue(content.Change{Paths: []string{"resources/collections"}, Message: content.ExternalChangeMessage, External: true})
	f.clock.Advance(2 * time.Second)
	got := git(t, dir, "show", "--no-renames", "--name-status", "--format=", "HEAD")
	want := "D\tcontent/collections/blog/first.md\nA\tcontent/collections/blog/renamed.md\nD\tresources/collections/blog.yaml"
	if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(want), " ") {
		t.Errorf("HEAD changes:\n%s\nwant\n%s", got, want)
	}
	if got := git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status = %q, want clean", got)
	}
}

func TestDebounceCoalescesABurst(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	f := start(t, dir, nil)
	before := commitCount(t, dir)
	f.change(t, "content/collections/blog/a.md", "a", "Created entry blog/a", alice)
	f.clock.Advance(1500 * time.Millisecond)
	f.change(t, "content/collections/blog/b.md", "b", "Created entry blog/b", alice)
	f.clock.Advance(1500 * time.Millisecond)
	if n := commitCount(t, dir); n != before {
		t.Fatalf("committed before the debounce was quiet: %d commits", n-before)
	}
	if st := f.s.Status()[0]; st.Status != gitsync.StatusPending || st.Counts.Added != 2 {
		t.Errorf("status while waiting = %+v", st)
	}
	f.clock.Advance(500 * time.Millisecond)
	if n := commitCount(t, dir); n != before+1 {
		t.Fatalf("%d commits after the burst, want 1", n-before)
	}
	if got := git(t, dir, "log", "-1", "--format=%s"); got != "[CMS] Created entry blog/b" {
		t.Errorf("message = %q, want the latest change's", got)
	}
	if got := git(t, dir, "show", "--name-only", "--format=", "HEAD"); got != "content/collections/blog/a.md\ncontent/collections/blog/b.md" {
		t.Errorf("paths = %q", got)
	}
}

func TestAttribution(t *testing.T) {
	t.Parallel()
	for _, useAuth := range []bool{true, false} {
		t.Run(fmt.Sprint("useAuthenticated=", useAuth), func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t)
			f := start(t, dir, func(o *gitsync.Options) { o.UseAuthenticated = useAuth })
			f.change(t, "content/collections/blog/a.md", "a", "Created entry blog/a", alice)
			f.change(t, "content/collections/blog/b.md", "b", "Created entry blog/b", bob)
			f.change(t, "content/collections/blog/a.md", "a2", "Updated entry blog/a", alice)
			f.clock.Advance(2 * time.Second)
			got := git(t, dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%B")
			want := "Alice <alice@example.com>|CMS <cms@localhost>|[CMS] Updated entry blog/a\n\nCo-authored-by: Bob <bob@example.com>"
			if !useAuth {
				want = "CMS <cms@localhost>|CMS <cms@localhost>|[CMS] Updated entry blog/a\n\nCo-authored-by: Alice <alice@example.com>\nCo-authored-by: Bob <bob@example.com>"
			}
			if got != want {
				t.Errorf("commit:\n%s\nwant\n%s", got, want)
			}
			// The next batch starts afresh: Bob alone.
			f.change(t, "content/collections/blog/b.md", "b2", "Updated entry blog/b", bob)
			f.clock.Advance(2 * time.Second)
			if got, want := git(t, dir, "log", "-1", "--format=%an|%(trailers:key=Co-authored-by,valueonly)"), map[bool]string{true: "Bob|", false: "CMS|Bob <bob@example.com>"}[useAuth]; got != want {
				t.Errorf("second commit = %q, want %q", got, want)
			}
		})
	}
}

func TestExcludedAndNeverCommittedPaths(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	f := start(t, dir, nil)
	before := commitCount(t, dir)
	for _, p := range []string{"content/forms/contact/1.yaml", ".cms/generation", "storage/seo/x.json", ".sessions/abc.json", "users/alice.yaml", "public/assets/a.png", "notes.txt"} {
		f.change(t, p, "x", "Changed "+p, alice)
	}
	f.clock.Advance(time.Minute)
	if n := commitCount(t, dir); n != before {
		t.Errorf("%d commits of excluded paths", n-before)
	}
	if st := f.s.Status(); len(st) != 1 || st[0].Status != gitsync.StatusClean {
		t.Errorf("status = %+v", st)
	}
	// Configured roots and excludes: assets tracked, their sidecars excluded.
	dir2 := newRepo(t)
	g := start(t, dir2, func(o *gitsync.Options) {
		o.Tracked = []gitsync.Tracked{{Root: "public/assets", Exclude: []string{"**/*.meta.yaml"}}}
	})
	g.change(t, "public/assets/img/a.png", "png", "Uploaded asset img/a.png", alice)
	g.change(t, "public/assets/img/a.png.meta.yaml", "alt: x", "Updated asset metadata img/a.png", alice)
	g.change(t, "content/globals/site.yaml", "name: x", "Updated global site", alice)
	g.clock.Advance(2 * time.Second)
	if got := git(t, dir2, "show", "--name-only", "--format=", "HEAD"); got != "public/assets/img/a.png" {
		t.Errorf("committed = %q", got)
	}
}

func TestSiteInsideALargerRepository(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	site := filepath.Join(repo, "sites", "blog")
	write(t, site, "content/globals/site.yaml", "name: Blog\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "site")
	f := start(t, site, nil)
	f.change(t, "content/globals/site.yaml", "name: Blog, edited\n", "Updated global site", alice)
	f.clock.Advance(2 * time.Second)
	if got := git(t, repo, "show", "--name-only", "--format=%s", "HEAD"); got != "[CMS] Updated global site\n\nsites/blog/content/globals/site.yaml" {
		t.Errorf("HEAD = %q", got)
	}
	if got := git(t, repo, "status", "--porcelain"); got != "" {
		t.Errorf("status = %q, want clean", got)
	}
}

// newRemote makes a bare repository, makes it dir's origin and pushes main there.
func newRemote(t *testing.T, dir string) string {
	t.Helper()
	remote := filepath.Join(t.TempDir(), "remote.git")
	git(t, dir, "init", "-q", "--bare", "-b", "main", remote)
	git(t, dir, "remote", "add", "origin", remote)
	git(t, dir, "push", "-q", "origin", "main")
	return remote
}

func TestPushRejectedThenRetried(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	remote := newRemote(t, dir)
	f := start(t, dir, func(o *gitsync.Options) { o.Push = true })

	f.change(t, "content/collections/blog/a.md", "a", "Created entry blog/a", alice)
	f.clock.Advance(2 * time.Second)
	if got, want := git(t, remote, "rev-parse", "main"), git(t, dir, "rev-parse", "HEAD"); got != want {
		t.Fatalf("remote main = %s, local HEAD = %s", got, want)
	}
	if st := f.s.Status()[0]; st.Status != gitsync.StatusPushed || st.PushPending || st.Remote != remote {
		t.Errorf("status after push = %+v", st)
	}

	// Someone else pushes: the remote moves ahead.
	other := filepath.Join(t.TempDir(), "other")
	git(t, dir, "clone", "-q", remote, other)
	write(t, other, "README.md", "readme\n")
	git(t, other, "add", "README.md")
	git(t, other, "commit", "-q", "-m", "readme")
	git(t, other, "push", "-q", "origin", "main")
	remoteTip := git(t, remote, "rev-parse", "main")

	f.change(t, "content/collections/blog/b.md", "b", "Created entry blog/b", bob)
	f.clock.Advance(2 * time.Second)
	st := f.s.Status()[0]
	if st.Status != gitsync.StatusFailed || !st.PushPending || st.Error == "" || !st.CanRetry {
		t.Fatalf("status after a rejected push = %+v", st)
	}
	if got := git(t, dir, "log", "-1", "--format=%s"); got != "[CMS] Created entry blog/b" {
		t.Errorf("the commit was not kept: HEAD = %q", got)
	}
	if got := git(t, remote, "rev-parse", "main"); got != remoteTip {
		t.Errorf("the remote was overwritten")
	}
	// The backoff retries, and fails again while nothing is fixed.
	f.clock.Advance(5 * time.Second)
	if st := f.s.Status()[0]; st.Status != gitsync.StatusFailed || !st.PushPending {
		t.Errorf("status after an automatic retry = %+v", st)
	}

	// The owner reconciles the histories; a retry on demand pushes.
	git(t, dir, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
	res, err := f.s.Retry(context.Background(), st.ID)
	if err != nil || !res.Pushed || res.PendingPush || res.Error != "" {
		t.Fatalf("retry = %+v, %v", res, err)
	}
	if got, want := git(t, remote, "rev-parse", "main"), git(t, dir, "rev-parse", "HEAD"); got != want {
		t.Errorf("remote main = %s, local HEAD = %s", got, want)
	}
	if st := f.s.Status()[0]; st.Status != gitsync.StatusPushed || st.PushPending || st.Error != "" {
		t.Errorf("status after the retry = %+v", st)
	}
}

func TestCredentialsAreNeverShown(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	const secret = "s3cr3t-t0ken"
	git(t, dir, "remote", "add", "origin", "https://deploy:"+secret+"@127.0.0.1:1/site.git")
	f := start(t, dir, func(o *gitsync.Options) { o.Push = true; o.Timeout = 10 * time.Second })
	f.change(t, "content/collections/blog/a.md", "a", "Created entry blog/a", alice)
	f.clock.Advance(2 * time.Second)
	st := f.s.Status()[0]
	res, _ := f.s.Retry(context.Background(), st.ID)
	if st.Error == "" || res.Error == "" || !st.PushPending {
		t.Fatalf("the push to an unreachable remote did not fail: %+v %+v", st, res)
	}
	if !strings.Contains(st.Remote, "***@127.0.0.1") {
		t.Errorf("remote = %q, want the URL with its credentials masked", st.Remote)
	}
	shown := fmt.Sprintf("%+v %+v %s", st, res, f.logs.String())
	if strings.Contains(shown, secret) || strings.Contains(shown, "deploy:") {
		t.Errorf("credentials shown:\n%s", shown)
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(dir)), "*", "git-sync", "*.json"))
	for _, p := range files {
		if raw, _ := os.ReadFile(p); bytes.Contains(raw, []byte(secret)) {
			t.Errorf("state file %s holds the credentials", p)
		}
	}
}

func TestStateFilesArePrivate(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	state := filepath.Join(t.TempDir(), "git-sync")
	s, err := gitsync.New(options(dir, state, newClock(), &bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	write(t, dir, "content/globals/site.yaml", "name: x\n")
	s.Enqueue(content.Change{Paths: []string{"content/globals/site.yaml"}, Message: "Updated global site", Editor: alice})
	fi, err := os.Stat(state)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("state folder: %v %v", fi.Mode(), err)
	}
	files, _ := filepath.Glob(filepath.Join(state, "*.json"))
	if len(files) != 1 {
		t.Fatalf("state files = %v, want 1 written before Enqueue returned", files)
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode = %v", fi.Mode())
	}
}

// crashChildEnv makes the test binary a writer that saves one global through the store (git sync
// on, its timers held) and waits to be killed.
const crashChildEnv = "CMS_GITSYNC_CRASH_CHILD"

func TestMain(m *testing.M) {
	if args := os.Getenv(crashChildEnv); args != "" {
		site, state, _ := strings.Cut(args, "|")
		s, err := gitsync.New(options(site, state, newClock(), &bytes.Buffer{})) // its timers never fire
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: site, Watch: fsstore.WatchNone, OnChange: s.Enqueue})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		data := content.NewMap(1)
		data.Set("name", "Written before the crash")
		if _, err := st.As(alice).SaveGlobal("site", data, ""); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		fmt.Println("acknowledged") // the write returned: what a client is told
		time.Sleep(time.Hour)
		return
	}
	code := m.Run()
	if bigRepoDir != "" {
		_ = os.RemoveAll(bigRepoDir)
	}
	os.Exit(code)
}

// A writer killed (SIGKILL) after a write was acknowledged and before its commit: the next
// start commits it.
func TestChangeSurvivesSIGKILLBeforeItsCommit(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	state := filepath.Join(t.TempDir(), "git-sync")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir+"|"+state)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.Contains(string(buf[:n]), "acknowledged") {
		_ = cmd.Process.Kill()
		t.Fatalf("child said %q", buf[:n])
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if got := git(t, dir, "log", "-1", "--format=%s"); got != "initial" {
		t.Fatalf("HEAD before the restart = %q", got)
	}

	clock := newClock()
	s, err := gitsync.New(options(dir, state, clock, &bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	clock.Advance(0)
	if got := git(t, dir, "log", "-1", "--format=%an|%s"); got != "Alice|[CMS] Updated global site" {
		t.Errorf("HEAD after the restart = %q", got)
	}
	if got := git(t, dir, "show", "HEAD:content/globals/site.yaml"); got != "name: Written before the crash" {
		t.Errorf("committed = %q", got)
	}
	if files, _ := filepath.Glob(filepath.Join(state, "*.json")); len(files) != 0 {
		t.Errorf("state left after the work was done: %v", files)
	}
}

func TestUnknownRepository(t *testing.T) {
	t.Parallel()
	f := start(t, newRepo(t), nil)
	_, err := f.s.Retry(context.Background(), strings.Repeat("0", 64))
	if ce, ok := err.(*content.Error); !ok || ce.Code != "UNKNOWN_REPOSITORY" || ce.Kind != content.NotFound {
		t.Errorf("err = %v", err)
	}
	if res, err := f.s.Sync(context.Background(), ""); err != nil || len(res) != 1 || res[0].Committed {
		t.Errorf("sync with nothing queued = %+v, %v", res, err)
	}
}

// A file edited by hand while the service runs is committed as an external change, once; the
// service's own writes keep their editor.
func TestExternalEditIsCommitted(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	write(t, dir, "resources/collections/blog.yaml", "title: Blog\n")
	f := start(t, dir, nil)
	st, err := fsstore.Open(context.Background(), fsstore.Options{Dir: dir, Watch: fsstore.WatchNotify, NoSync: true, OnChange: f.s.Enqueue})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	data := content.NewMap(1)
	data.Set("name", "Through the service")
	if _, err := st.As(alice).SaveGlobal("site", data, ""); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(2 * time.Second)
	if got := git(t, dir, "log", "-1", "--format=%an|%s"); got != "Alice|[CMS] Updated global site" {
		t.Fatalf("HEAD = %q", got)
	}

	write(t, dir, "content/collections/blog/first.md", "---\ntitle: Edited by hand\n---\n")
	deadline := time.Now().Add(time.Minute) // a failure guard only
	for f.s.Status()[0].Status != gitsync.StatusPending {
		if time.Now().After(deadline) {
			t.Fatal("the hand edit was never queued")
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.clock.Advance(2 * time.Second)
	if got := git(t, dir, "log", "-1", "--format=%an|%s", "--name-only"); got != "CMS|[CMS] Updated content from filesystem\n\ncontent/collections/blog/first.md" {
		t.Errorf("HEAD = %q", got)
	}
}

// The index is brought along whatever its version (4: compressed names, decoded instead of
// patched) and extensions (the cache tree git wrote is dropped, not left stale).
func TestIndexVersions(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"2", "3", "4"} {
		t.Run("v"+v, func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t)
			git(t, dir, "update-index", "--index-version", v)
			write(t, dir, "notes.txt", "staged\n")
			git(t, dir, "add", "notes.txt")
			git(t, dir, "write-tree") // a cache-tree extension in the index
			f := start(t, dir, nil)
			f.change(t, "content/collections/blog/first.md", "---\ntitle: Changed\n---\n", "Updated entry blog/first", alice)
			f.change(t, "content/collections/blog/new.md", "new\n", "Created entry blog/new", alice)
			f.clock.Advance(2 * time.Second)
			if got := git(t, dir, "status", "--porcelain"); got != "M  notes.txt" {
				t.Errorf("git status = %q", got)
			}
			// git's own next commit holds exactly what was staged.
			git(t, dir, "commit", "-q", "-m", "notes")
			if got := git(t, dir, "show", "--name-only", "--format=", "HEAD"); got != "notes.txt" {
				t.Errorf("the user's next commit = %q", got)
			}
			if got := git(t, dir, "fsck", "--no-progress", "--no-dangling"); got != "" {
				t.Errorf("fsck: %s", got)
			}
		})
	}
}

// With git.automatic off, changes wait (persisted) for a sync on demand.
func TestManualCommitsOnlyOnSync(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	f := start(t, dir, func(o *gitsync.Options) { o.Manual = true })
	before := commitCount(t, dir)
	f.change(t, "content/globals/site.yaml", "name: x\n", "Updated global site", alice)
	f.clock.Advance(time.Hour)
	if n := commitCount(t, dir); n != before {
		t.Fatalf("%d automatic commits with automatic off", n-before)
	}
	res, err := f.s.Sync(context.Background(), "")
	if err != nil || len(res) != 1 || !res[0].Committed {
		t.Fatalf("sync = %+v, %v", res, err)
	}
	if n := commitCount(t, dir); n != before+1 {
		t.Errorf("%d commits after sync, want 1", n-before)
	}
}

// A detached HEAD is a clear error; the change stays queued until a branch is checked out.
func TestDetachedHeadFailsAndKeepsTheQueue(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	git(t, dir, "checkout", "-q", "--detach")
	f := start(t, dir, nil)
	f.change(t, "content/globals/site.yaml", "name: x\n", "Updated global site", alice)
	f.clock.Advance(2 * time.Second)
	st := f.s.Status()[0]
	if st.Status != gitsync.StatusFailed || !strings.Contains(st.Error, "detached") || st.Counts.Modified != 1 {
		t.Fatalf("status = %+v", st)
	}
	if err := f.s.Problem(); err == nil || !strings.Contains(err.Error(), "detached") {
		t.Errorf("Problem() = %v", err)
	}
	git(t, dir, "checkout", "-q", "main")
	if res, _ := f.s.Retry(context.Background(), st.ID); !res.Committed {
		t.Errorf("retry on a branch = %+v", res)
	}
	if f.s.Problem() != nil {
		t.Errorf("still a problem after the retry: %v", f.s.Problem())
	}
}

// New files that .gitignore (or .git/info/exclude) ignores are left out, as git add would leave
// them; a tracked file is committed whatever the ignore files say.
func TestIgnoredFilesStayOut(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	write(t, dir, ".gitignore", "*.tmp\n")
	write(t, dir, "content/.gitignore", "drafts/\n")
	write(t, dir, ".git/info/exclude", "secret.md\n")
	write(t, dir, "content/keep.tmp", "tracked\n")
	git(t, dir, "add", "-A")
	git(t, dir, "add", "-f", "content/keep.tmp")
	git(t, dir, "commit", "-q", "-m", "ignores")
	f := start(t, dir, nil)
	f.change(t, "content/drafts/a.md", "draft\n", "Created entry drafts/a", alice)
	f.change(t, "content/new.tmp", "tmp\n", "x", alice)
	f.change(t, "content/collections/blog/secret.md", "s\n", "x", alice)
	f.change(t, "content/keep.tmp", "changed\n", "x", alice)
	f.change(t, "content/collections/blog/first.md", "changed\n", "Updated entry blog/first", alice)
	f.clock.Advance(2 * time.Second)
	if got := git(t, dir, "show", "--name-only", "--format=", "HEAD"); got != "content/collections/blog/first.md\ncontent/keep.tmp" {
		t.Errorf("committed = %q", got)
	}
	if got := git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status = %q (ignored files must not be added to the index)", got)
	}
}
