// Package gitsync commits every change written through the service to the Git repository that
// holds it, and optionally pushes: one serialised, observable job per repository that never
// loses a change and never reports success falsely (docs/git.md).
//
// Changes arrive through Enqueue (fsstore's Options.OnChange). Each is persisted under the state
// folder before Enqueue returns, so before the write is acknowledged; a debounce per repository
// coalesces bursts into one commit, built from HEAD's tree plus exactly the queued paths, so the
// user's index and every unrelated staged or modified file stay as they are. A rejected push keeps
// the commit and is retried with backoff and on demand; a crash loses nothing, as New resumes
// what the state folder holds.
package gitsync

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"

	"cms/content"
)

// Options configure a Syncer. Paths in Tracked and Never are relative to SiteDir.
type Options struct {
	SiteDir   string // the site folder
	StatePath string // the state folder (persistent, writable, private)
	Tracked   []Tracked
	// Never lists folders never committed whatever Tracked says (sessions, .cms, storage).
	Never            []string
	Debounce         time.Duration // default 2 s
	Manual           bool          // commit only on Sync (git.automatic: false); pushes still retry
	Push             bool
	Remote           string // default "origin"
	Branch           string // the remote branch pushed to; "" = the checked-out branch's name
	UseAuthenticated bool   // author = the first editor of a batch, else Bot
	Bot              content.Editor
	CommitPrefix     string
	Timeout          time.Duration // of one push; default 30 s
	Clock            Clock
	Log              *slog.Logger
	NoSync           bool // skip fsyncs of the state files (tests and benchmarks only)
	// Instance names this process among several writers of one site folder (one Lambda
	// function per writer group): each keeps its own queue files. "" = the only writer.
	Instance string
}

// Statuses of a repository.
const (
	StatusClean   = "clean"   // nothing queued, nothing to push
	StatusPending = "pending" // changes wait for the debounce
	StatusSyncing = "syncing" // a commit or push is running
	StatusPushed  = "pushed"  // the last commit is on the remote
	StatusFailed  = "failed"  // the last commit or push failed; see Error
)

// Syncer runs git sync for one site. It is safe for concurrent use.
type Syncer struct {
	opts   Options
	filter filter
	states *stateDir
	log    *slog.Logger

	mu     sync.Mutex
	repos  map[string]*repo  // by id
	roots  map[string]string // folder -> root of the repository holding it ("" = none)
	closed bool
	wg     sync.WaitGroup // timer callbacks and syncs in flight
}

// enter registers a sync in flight, unless the Syncer is closed.
func (s *Syncer) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

// New starts git sync: it finds the repositories of the tracked roots and resumes the work the
// state folder holds (committing and pushing it at once).
func New(opts Options) (*Syncer, error) {
	if opts.Debounce <= 0 {
		opts.Debounce = 2 * time.Second
	}
	if opts.Remote == "" {
		opts.Remote = "origin"
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Bot.Name == "" || opts.Bot.Email == "" {
		return nil, content.Invalidf("gitsync.New", "git.author needs a name and an email")
	}
	site, err := filepath.Abs(opts.SiteDir)
	if err != nil {
		return nil, err
	}
	if site, err = filepath.EvalSymlinks(site); err != nil {
		return nil, fmt.Errorf("site folder: %w", err)
	}
	opts.SiteDir = site
	never := slices.Clone(opts.Never)
	if st, err := filepath.Abs(opts.StatePath); err == nil {
		if rel, err := filepath.Rel(site, st); err == nil && filepath.IsLocal(rel) {
			never = append(never, filepath.ToSlash(rel))
		}
	}
	states, err := openStateDir(opts.StatePath, opts.Instance, opts.NoSync)
	if err != nil {
		return nil, err
	}
	s := &Syncer{
		opts: opts, states: states, log: opts.Log,
		filter: filter{tracked: opts.Tracked, never: never},
		repos:  map[string]*repo{}, roots: map[string]string{},
	}
	for _, t := range opts.Tracked {
		if r, _ := s.repoFor(t.Root + "/-"); r == nil { // a name inside the root: the root may be a repository
			s.log.Warn("git sync: tracked folder is in no Git repository; its changes are not committed", "folder", t.Root)
		}
	}
	saved, errs := states.load()
	for _, err := range errs {
		s.log.Warn("git sync: state file skipped", "err", err)
	}
	for id, st := range saved {
		r := s.repos[id]
		if r == nil {
			if _, err := openRepo(st.Repository); err != nil {
				s.log.Warn("git sync: pending work of a repository that is gone; kept", "repository", st.Repository, "err", mask(err.Error()))
				continue
			}
			r = s.addRepo(st.Repository)
		}
		r.restore(st)
	}
	return s, nil
}

// Close stops the timers and waits for a commit or push in progress. Queued work stays in the
// state folder; the next New resumes it.
func (s *Syncer) Close() error {
	s.mu.Lock()
	s.closed = true
	repos := s.repoList()
	s.mu.Unlock()
	for _, r := range repos {
		r.mu.Lock()
		r.stopTimers()
		r.mu.Unlock()
	}
	s.wg.Wait()
	return s.states.close()
}

func (s *Syncer) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// repoList returns the repositories sorted by root; s.mu is held.
func (s *Syncer) repoList() []*repo {
	out := make([]*repo, 0, len(s.repos))
	for _, r := range s.repos {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *repo) int { return cmp.Compare(a.root, b.root) })
	return out
}

// Enqueue queues a change's tracked paths in their repositories and persists the queue before
// it returns. It is fsstore's Options.OnChange.
func (s *Syncer) Enqueue(c content.Change) {
	byRepo := map[*repo][]string{}
	var order []*repo
	for _, p := range c.Paths {
		if !s.filter.match(p) {
			continue
		}
		r, rel := s.repoFor(p)
		if r == nil {
			continue
		}
		if _, ok := byRepo[r]; !ok {
			order = append(order, r)
		}
		byRepo[r] = append(byRepo[r], rel)
	}
	for _, r := range order {
		if err := r.enqueue(byRepo[r], c.Message, c.Editor); err != nil {
			s.log.Error("git sync: cannot persist the queue; the change is committed only if the service keeps running", "repository", r.label, "err", err)
		}
	}
}

// repoFor returns the repository holding site-relative path p and p relative to its root.
func (s *Syncer) repoFor(p string) (*repo, string) {
	abs := filepath.Join(s.opts.SiteDir, filepath.FromSlash(p))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ""
	}
	root := s.rootOf(filepath.Dir(abs))
	if root == "" {
		return nil, ""
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, ""
	}
	r := s.repos[repoID(root)]
	if r == nil {
		r = s.addRepo(root)
	}
	return r, filepath.ToSlash(rel)
}

// rootOf finds the root of the repository holding folder dir (which may no longer exist), by
// looking for .git upwards; results are cached per folder. s.mu is held.
func (s *Syncer) rootOf(dir string) string {
	if root, ok := s.roots[dir]; ok {
		return root
	}
	root := ""
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		root = dir
	} else if parent := filepath.Dir(dir); parent != dir {
		root = s.rootOf(parent)
	}
	if _, err := os.Stat(dir); err == nil {
		s.roots[dir] = root // a missing folder may come back inside another repository
	}
	return root
}

// addRepo registers the repository at root; s.mu is held, or New is running.
func (s *Syncer) addRepo(root string) *repo {
	r := &repo{s: s, id: repoID(root), root: root, label: filepath.Base(root), paths: map[string]uint64{}, status: StatusClean}
	if root == s.opts.SiteDir {
		r.label = "Site"
	}
	s.repos[r.id] = r
	return r
}

func (s *Syncer) repo(id string) (*repo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repos[id]
	if r == nil {
		return nil, &content.Error{Kind: content.NotFound, Code: "UNKNOWN_REPOSITORY", Op: "gitsync", Message: "No repository with that id"}
	}
	return r, nil
}

// Counts are the queued paths of a repository by kind of change.
type Counts struct {
	Added    int `json:"added"`
	Modified int `json:"modified"`
	Deleted  int `json:"deleted"`
}

// CommitInfo describes the last commit git sync made in a repository.
type CommitInfo struct {
	Hash    string    `json:"hash"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// RepoStatus is one repository in Status.
type RepoStatus struct {
	ID          string      `json:"id"`
	Label       string      `json:"label"`
	Branch      string      `json:"branch"`
	Remote      string      `json:"remote"` // URL, credentials masked; "" when push is off
	Status      string      `json:"status"`
	Counts      Counts      `json:"counts"`
	PushPending bool        `json:"pushPending"`
	Error       string      `json:"error"` // the last error, masked; "" after a success
	LastCommit  *CommitInfo `json:"lastCommit"`
	CanSync     bool        `json:"canSync"`
	CanRetry    bool        `json:"canRetry"`
}

// Status describes every repository git sync knows, sorted by root folder.
func (s *Syncer) Status() []RepoStatus {
	s.mu.Lock()
	repos := s.repoList()
	s.mu.Unlock()
	out := make([]RepoStatus, 0, len(repos))
	for _, r := range repos {
		out = append(out, r.statusOf())
	}
	return out
}

// Problem returns the (masked) error of the first repository whose last commit or push failed,
// or nil: the readiness check reports it as degraded.
func (s *Syncer) Problem() error {
	s.mu.Lock()
	repos := s.repoList()
	s.mu.Unlock()
	for _, r := range repos {
		r.mu.Lock()
		failed, msg := r.status == StatusFailed, r.lastErr
		r.mu.Unlock()
		if failed {
			return fmt.Errorf("%s: %s", r.label, msg)
		}
	}
	return nil
}

// Result is the outcome of syncing one repository.
type Result struct {
	Repository  string `json:"repository"`
	Committed   bool   `json:"committed"`
	Commit      string `json:"commit,omitempty"`
	Pushed      bool   `json:"pushed"`
	PendingPush bool   `json:"pendingPush"`
	PathCount   int    `json:"pathCount"`
	Error       string `json:"error,omitempty"` // masked
}

// Sync commits what is queued now, without waiting for the debounce, and pushes what is
// pending: in the repository id, or in all when id is "". A failure is in the Result (and the
// repository's status), not the error, which is only for an unknown id.
func (s *Syncer) Sync(ctx context.Context, id string) ([]Result, error) {
	var repos []*repo
	if id != "" {
		r, err := s.repo(id)
		if err != nil {
			return nil, err
		}
		repos = []*repo{r}
	} else {
		s.mu.Lock()
		repos = s.repoList()
		s.mu.Unlock()
	}
	out := make([]Result, 0, len(repos))
	for _, r := range repos {
		out = append(out, r.sync(ctx))
	}
	return out, nil
}

// Retry runs the failed or pending work of repository id now.
func (s *Syncer) Retry(ctx context.Context, id string) (Result, error) {
	r, err := s.repo(id)
	if err != nil {
		return Result{}, err
	}
	return r.sync(ctx), nil
}

// repo is one repository's queue and status.
type repo struct {
	s               *Syncer
	id, root, label string

	mu          sync.Mutex
	paths       map[string]uint64 // queued path -> sequence number of its latest change
	seq         uint64
	message     string
	authors     []author
	pushPending bool
	status      string
	lastErr     string
	lastCommit  *CommitInfo
	since       time.Time // when the oldest queued change came
	failures    int
	stopWait    func() bool // the debounce or retry timer
	run         sync.Mutex  // one commit and push at a time
	g           *gitRepo    // opened under run
}

type author struct {
	content.Editor
	seq uint64 // the latest change of theirs in the queue
}

// maxWaitFactor bounds the debounce: a steady stream of changes is committed at least every
// maxWaitFactor debounce periods.
const maxWaitFactor = 10

func (r *repo) enqueue(paths []string, msg string, ed content.Editor) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.s.opts.Clock.Now()
	if len(r.paths) == 0 {
		r.since = now
	}
	dirty := false
	for _, p := range paths {
		if _, ok := r.paths[p]; !ok {
			dirty = true
		}
		r.seq++
		r.paths[p] = r.seq
	}
	if ed.Email != "" {
		i := slices.IndexFunc(r.authors, func(a author) bool { return strings.EqualFold(a.Email, ed.Email) })
		if i < 0 {
			r.authors = append(r.authors, author{Editor: ed, seq: r.seq})
			dirty = true
		} else {
			r.authors[i].seq = r.seq
		}
	}
	r.message = msg
	if r.status != StatusSyncing {
		r.status = StatusPending
	}
	var err error
	if dirty {
		err = r.persistLocked()
	}
	wait := r.s.opts.Debounce
	if limit := r.since.Add(maxWaitFactor * r.s.opts.Debounce); now.Add(wait).After(limit) {
		wait = max(0, limit.Sub(now))
	}
	if !r.s.opts.Manual {
		r.scheduleLocked(wait)
	}
	return err
}

// restore takes over persisted work (New).
func (r *repo) restore(st *state) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range st.Paths {
		r.seq++
		r.paths[p] = r.seq
	}
	for _, a := range st.Authors {
		r.authors = append(r.authors, author{Editor: a, seq: r.seq})
	}
	r.message, r.lastErr = st.Message, st.LastError
	r.pushPending = st.PushPending && r.s.opts.Push // push switched off since: nothing to retry
	r.status = StatusPending
	r.since = r.s.opts.Clock.Now()
	if !r.s.opts.Manual || r.pushPending {
		r.scheduleLocked(0)
	}
}

func (r *repo) persistLocked() error {
	st := &state{Repository: r.root, Message: r.message, PushPending: r.pushPending, LastError: r.lastErr,
		Paths: make([]string, 0, len(r.paths)), Authors: make([]content.Editor, 0, len(r.authors))}
	for p := range r.paths {
		st.Paths = append(st.Paths, p)
	}
	slices.Sort(st.Paths)
	for _, a := range r.authors {
		st.Authors = append(st.Authors, a.Editor)
	}
	return r.s.states.save(r.id, st)
}

func (r *repo) stopTimers() {
	if r.stopWait != nil {
		r.stopWait()
		r.stopWait = nil
	}
}

// scheduleLocked (re)starts the timer that syncs the repository after wait.
func (r *repo) scheduleLocked(wait time.Duration) {
	r.stopTimers()
	r.s.mu.Lock()
	closed := r.s.closed
	if !closed {
		r.s.wg.Add(1)
	}
	r.s.mu.Unlock()
	if closed {
		return
	}
	var once sync.Once
	release := func() { once.Do(r.s.wg.Done) }
	stop := r.s.opts.Clock.AfterFunc(wait, func() {
		defer release()
		if r.s.isClosed() {
			return
		}
		defer func() {
			// A repository go-git cannot read (a corrupt object) must not take the server down.
			if v := recover(); v != nil {
				r.s.log.Error("git sync: unexpected failure", "repository", r.label, "panic", mask(fmt.Sprint(v)))
				r.failed(Result{Repository: r.id}, fmt.Errorf("unexpected failure: %v", v))
			}
		}()
		r.sync(context.Background())
	})
	r.stopWait = func() bool {
		if stop() {
			release()
			return true
		}
		return false
	}
}

// sync commits the queue and pushes; it is the only code that runs git for a repository.
func (r *repo) sync(ctx context.Context) Result {
	res := Result{Repository: r.id}
	if !r.s.enter() {
		res.Error = "git sync is shut down"
		return res
	}
	defer r.s.wg.Done()
	r.run.Lock()
	defer r.run.Unlock()
	r.mu.Lock()
	r.stopTimers()
	paths := make([]string, 0, len(r.paths))
	for p := range r.paths {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	upto, msg := r.seq, r.message
	authors := make([]content.Editor, 0, len(r.authors))
	for _, a := range r.authors {
		authors = append(authors, a.Editor)
	}
	if len(paths) > 0 || r.pushPending {
		r.status = StatusSyncing
	}
	r.mu.Unlock()
	res.PathCount = len(paths)

	if r.g == nil {
		g, err := openRepo(r.root)
		if err != nil {
			return r.failed(res, err)
		}
		r.g = g
	}
	branch, err := r.g.branch()
	if err != nil {
		return r.failed(res, err)
	}
	committed := false
	if len(paths) > 0 {
		req := r.request(paths, msg, authors)
		h, err := r.g.commit(req)
		if err != nil && !errors.Is(err, errIndexLocked) {
			return r.failed(res, err)
		}
		if err != nil { // the commit is made; only the index waits
			r.s.log.Warn("git sync: index left as it is", "repository", r.label, "err", err)
		}
		committed = !h.IsZero()
		res.Committed = committed
		if committed {
			res.Commit = h.String()
		}
		r.mu.Lock()
		for _, p := range paths {
			if r.paths[p] <= upto {
				delete(r.paths, p)
			}
		}
		r.authors = slices.DeleteFunc(r.authors, func(a author) bool { return a.seq <= upto })
		if committed {
			subject, _, _ := strings.Cut(req.message, "\n")
			r.lastCommit = &CommitInfo{Hash: h.String(), Message: subject, At: r.s.opts.Clock.Now()}
			r.pushPending = r.pushPending || r.s.opts.Push
		}
		err = r.persistLocked()
		r.mu.Unlock()
		if err != nil {
			return r.failed(res, fmt.Errorf("save the queue: %w", err))
		}
		if committed {
			r.s.log.Info("git sync: committed", "repository", r.label, "commit", h.String(), "paths", len(paths))
		}
	}
	r.mu.Lock()
	pending := r.pushPending
	r.mu.Unlock()
	pushed := false
	if pending && r.s.opts.Push {
		pctx, cancel := context.WithTimeout(ctx, r.s.opts.Timeout)
		err := r.g.push(pctx, r.s.opts.Remote, branch, r.s.opts.Branch)
		cancel()
		if err != nil {
			res.PendingPush = true
			return r.failed(res, fmt.Errorf("push to %s: %w", r.s.opts.Remote, err))
		}
		pushed = true
		res.Pushed = true
		r.s.log.Info("git sync: pushed", "repository", r.label, "remote", r.s.opts.Remote)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures, r.lastErr = 0, ""
	if pushed {
		r.pushPending = false
	}
	if err := r.persistLocked(); err != nil {
		res.Error = mask(err.Error())
	}
	switch {
	case len(r.paths) > 0:
		r.status = StatusPending // changes came while this ran; their timer is running
	case pushed:
		r.status = StatusPushed
	case r.status == StatusPushed: // there was nothing to do
	default:
		r.status = StatusClean
	}
	return res
}

// failed records err (masked) as the repository's state and schedules a retry with backoff.
func (r *repo) failed(res Result, err error) Result {
	msg := mask(err.Error())
	if errors.Is(err, fs.ErrPermission) {
		msg = "permission denied: " + msg
	}
	res.Error = msg
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.lastErr = StatusFailed, msg
	r.failures++
	if perr := r.persistLocked(); perr != nil {
		r.s.log.Error("git sync: cannot persist the queue", "repository", r.label, "err", mask(perr.Error()))
	}
	backoff := min(5*time.Second<<min(r.failures-1, 10), 10*time.Minute)
	r.s.log.Warn("git sync failed; will retry", "repository", r.label, "err", msg, "retryIn", backoff.String())
	r.scheduleLocked(backoff)
	return res
}

// request builds the commit of the queued paths: the author is the first editor when
// UseAuthenticated, else the bot; every other editor is a Co-authored-by trailer.
func (r *repo) request(paths []string, msg string, editors []content.Editor) commitReq {
	o := r.s.opts
	now := o.Clock.Now()
	bot := object.Signature{Name: o.Bot.Name, Email: o.Bot.Email, When: now}
	author, others := bot, editors
	if o.UseAuthenticated && len(editors) > 0 {
		author = object.Signature{Name: editors[0].Name, Email: editors[0].Email, When: now}
		others = editors[1:]
	}
	if msg == "" {
		msg = "Updated content"
	}
	message := strings.TrimSpace(o.CommitPrefix + " " + msg)
	if len(others) > 0 {
		var b strings.Builder
		b.WriteString(message + "\n\n")
		for _, e := range others {
			fmt.Fprintf(&b, "Co-authored-by: %s <%s>\n", oneLine(e.Name), oneLine(e.Email))
		}
		message = b.String()
	} else {
		message += "\n"
	}
	keep := func(p string) bool { // p is repository-relative; the filter's paths site-relative
		rel, err := filepath.Rel(o.SiteDir, filepath.Join(r.root, filepath.FromSlash(p)))
		return err == nil && filepath.IsLocal(rel) && r.s.filter.match(filepath.ToSlash(rel))
	}
	return commitReq{paths: paths, keep: keep, message: message, author: author, committer: bot}
}

// oneLine keeps a name or address on one line of a commit message.
func oneLine(s string) string {
	return strings.Map(func(c rune) rune {
		if c == '\n' || c == '\r' || c == '<' || c == '>' {
			return ' '
		}
		return c
	}, s)
}

func (r *repo) statusOf() RepoStatus {
	r.mu.Lock()
	st := RepoStatus{ID: r.id, Label: r.label, Status: r.status, PushPending: r.pushPending, Error: r.lastErr, LastCommit: r.lastCommit}
	paths := make([]string, 0, len(r.paths))
	for p := range r.paths {
		paths = append(paths, p)
	}
	r.mu.Unlock()
	st.CanSync = true
	st.CanRetry = st.Status == StatusFailed || st.PushPending
	g, err := openRepo(r.root)
	if err != nil {
		return st
	}
	if b, err := g.branch(); err == nil {
		st.Branch = b.Short()
	}
	if r.s.opts.Push {
		st.Remote = g.remoteURL(r.s.opts.Remote)
	}
	var tree *object.Tree
	if ref, err := g.r.Head(); err == nil {
		if c, err := g.r.CommitObject(ref.Hash()); err == nil {
			tree, _ = c.Tree()
		}
	}
	for _, p := range paths {
		inHead := false
		if tree != nil {
			_, err := tree.FindEntry(p)
			inHead = err == nil
		}
		_, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p)))
		switch {
		case err != nil && inHead:
			st.Counts.Deleted++
		case err != nil:
		case inHead:
			st.Counts.Modified++
		default:
			st.Counts.Added++
		}
	}
	return st
}
