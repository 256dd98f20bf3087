// Package fsstore is the content store on a site folder: Markdown entries with YAML front matter,
// YAML definitions, users and roles. It is the only code that touches content files.
//
// All paths are resolved through an [os.Root] opened on the site folder, so no handle or slug can
// escape it. Writes are atomic and serialised per path. Entry metadata is kept in an in-memory
// index so list, filter and sort never touch the disk; changes made by hand while the service runs
// are picked up through file-system notifications (or polling where those are unavailable) on the
// next request, without re-reading every file. That index, its snapshot and the watcher are in
// internal/index, behind the API its package comment describes.
package fsstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cms/content"
	"cms/content/fsstore/internal/index"
	"cms/content/internal/atomicfile"
)

// Watch modes.
const (
	WatchNotify = index.WatchNotify // file-system notifications (default); falls back to polling
	WatchPoll   = index.WatchPoll   // stat-based checks at most once per PollInterval
	WatchNone   = index.WatchNone   // only this process's own writes are seen (tests, read-only replicas)
	// WatchGeneration is the watch mode of Lambda functions: no watcher and no goroutines; the
	// index is loaded on first use (from the snapshot) and Refresh, called once per request, picks
	// up what writer processes published. It requires Options.Snapshot.
	WatchGeneration = index.WatchGeneration
)

// Options configure a Store. Folder options are slash-separated paths relative to Dir.
type Options struct {
	Dir          string // the site folder
	ContentDir   string // default "content"
	ResourcesDir string // default "resources"
	UsersDir     string // default "users"
	AssetsDir    string // default "public/assets"
	ReadOnly     bool   // refuse every write (frontends on a read-only mount)
	Watch        string // WatchNotify, WatchPoll or WatchNone; "" = WatchNotify
	PollInterval time.Duration
	NoSync       bool // skip fsync (benchmarks and tests only; never in production)
	Log          *slog.Logger
	Now          func() time.Time

	// TempMaxAge is the age past which temp files of atomic writes are leftovers that a writable
	// store removes when it opens (sweep.go); 0 means DefaultTempMaxAge. SweepDirs are further
	// site-relative folders to sweep (the sessions folder).
	TempMaxAge time.Duration
	SweepDirs  []string

	// Snapshot keeps the derived index snapshot and generation file under .cms/ (snapshot.go):
	// start from one read instead of parsing every entry, and, with WatchGeneration, see what
	// other processes wrote through Refresh.
	Snapshot bool

	// OnChange, when set, is called after every successful write through the store, once the
	// bytes are durable and before the write returns, with the paths it changed (changes.go);
	// and, when the store watches the folder, with files changed by hand. It must not call
	// back into the store's writes. Git sync persists its queue here.
	OnChange func(content.Change)
	// OnContentChange, if set, hears what changed (an entry, global, navigation, taxonomy,
	// definitions) from every source: writes, hand edits, the generation file (changes.go).
	// Caches purge by it. It must be quick and must not call the store.
	OnContentChange func(Change)
}

// Store reads and writes one site folder. It is safe for concurrent use by one process; several
// writer processes on the same folder are unsupported (spec rule 3). As returns a view of the
// same store whose writes are attributed to an editor.
type Store struct {
	*state
	editor content.Editor
}

// state is everything a Store and its attributed views share.
type state struct {
	opts Options
	root *os.Root
	log  *slog.Logger
	now  func() time.Time

	// ix is the entry index, its snapshot and the watcher (internal/index); its generation
	// grows with every change seen, and the versions below are values of it.
	ix *index.Index

	defsMu    sync.Mutex
	defs      atomic.Pointer[definitions]
	defsEpoch atomic.Uint64 // bumped by every invalidation; a cache is current while it matches

	usersMu    sync.Mutex
	users      atomic.Pointer[userCache]
	usersEpoch atomic.Uint64

	locks [256]sync.Mutex

	dirSync  dirSyncer   // group commit of the folder fsyncs of new entries (and submissions)
	journal  *subJournal // group commit of submissions (forms_journal.go); nil: fsync each
	formDirs struct {    // form folders kept open for submissions (keptFormDir)
		mu sync.RWMutex
		m  map[string]*keptDir
	}

	// assets is the assets folder's root kept open for the read paths (sharedAssetsRoot).
	assets struct {
		mu      sync.RWMutex
		root    *os.Root
		id      fs.FileInfo  // the folder root is, to notice it replaced
		checked atomic.Int64 // when id was last compared with the folder (Unix ns; 0: never)
	}

	problemsMu sync.Mutex
	problems   map[string]string // file -> problem last logged
	navBoth    sync.Map          // navigation file -> hash of the version whose url+entry items were logged

	closed   chan struct{}
	wg       sync.WaitGroup // background sweep
	sweeping atomic.Bool    // sweepAtOpen has not finished (Background)

	recent recentWrites // paths this process wrote lately, so the watcher does not report them again
}

// Open opens the store on opts.Dir, loads definitions and builds the entry index.
func Open(ctx context.Context, opts Options) (*Store, error) {
	const op = "fsstore.Open"
	if opts.ContentDir == "" {
		opts.ContentDir = "content"
	}
	if opts.ResourcesDir == "" {
		opts.ResourcesDir = "resources"
	}
	if opts.UsersDir == "" {
		opts.UsersDir = "users"
	}
	if opts.AssetsDir == "" {
		opts.AssetsDir = "public/assets"
	}
	opts.SweepDirs = slices.Clone(opts.SweepDirs)
	dirs := []*string{&opts.ContentDir, &opts.ResourcesDir, &opts.UsersDir, &opts.AssetsDir}
	for i := range opts.SweepDirs {
		dirs = append(dirs, &opts.SweepDirs[i])
	}
	for _, d := range dirs {
		*d = strings.TrimSuffix(path.Clean(strings.TrimPrefix(*d, "./")), "/")
		if !fs.ValidPath(*d) {
			return nil, content.Invalidf(op, "folder %q must be a relative path inside the site folder", *d)
		}
	}
	if opts.TempMaxAge <= 0 {
		opts.TempMaxAge = DefaultTempMaxAge
	}
	if opts.Watch == "" {
		opts.Watch = WatchNotify
	}
	if opts.Watch == WatchGeneration && !opts.Snapshot {
		return nil, content.Invalidf(op, "watch mode %q needs Options.Snapshot", WatchGeneration)
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	root, err := os.OpenRoot(opts.Dir)
	if err != nil {
		return nil, content.Internalf(op, opts.Dir, fmt.Errorf("open site folder: %w", err))
	}
	s := &Store{state: &state{
		opts:     opts,
		root:     root,
		log:      opts.Log,
		now:      opts.Now,
		problems: make(map[string]string),
		closed:   make(chan struct{}),
	}}
	s.ix = index.New(index.Config{
		Root: root, Dir: opts.Dir,
		ContentDir: opts.ContentDir, ResourcesDir: opts.ResourcesDir, UsersDir: opts.UsersDir,
		ReadOnly: opts.ReadOnly, Watch: opts.Watch, PollInterval: opts.PollInterval,
		NoSync: opts.NoSync, Snapshot: opts.Snapshot, Log: opts.Log, Now: opts.Now,
		Collections:  s.Collections,
		Collection:   s.Collection,
		DefsChanged:  func() { s.defsEpoch.Add(1); s.emit(Change{Kind: ChangeDefinitions}) },
		UsersChanged: func() { s.usersEpoch.Add(1) },
		Problem:      s.problem,
		Resolved:     s.resolved,
		FileChanged:  s.externalChange(),
		Changed:      s.indexChanged,
	})
	if !opts.ReadOnly {
		s.resolveRenames() // before anything reads the entry files
	}
	if err := s.ix.Load(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if !opts.ReadOnly {
		s.journal = s.openJournal() // replays what a crash left before anyone reads submissions
		s.wg.Add(1)
		s.sweeping.Store(true)
		go s.sweepAtOpen() // later, in the background: it lists every folder, which start-up need not wait for
	}
	return s, nil
}

// Background names the work the store has scheduled or is doing in the background, in no
// particular order: "tempSweep" (the removal of temp files interrupted writes left, a few
// seconds after opening), "indexSnapshot" and "indexVerify" (see index.Index.Background).
// Empty once a freshly opened store has settled; a write schedules a snapshot again.
func (s *Store) Background() []string {
	out := s.ix.Background()
	if s.sweeping.Load() {
		out = append(out, "tempSweep")
	}
	return out
}

// Close stops watching and releases the folder.
func (s *Store) Close() error {
	select {
	case <-s.closed:
		return nil
	default:
	}
	close(s.closed)
	s.wg.Wait()
	s.ix.Close()
	s.closeAssetsRoot()
	s.closeFormDirs()
	return s.root.Close()
}

// Dir returns the site folder.
func (s *Store) Dir() string { return s.opts.Dir }

// ReadOnly reports whether writes are refused.
func (s *Store) ReadOnly() bool { return s.opts.ReadOnly }

// Root returns the os.Root of the site folder, for packages that keep their own files in it
// (sessions, hooks). Paths passed to it must be validated by the caller.
func (s *Store) Root() *os.Root { return s.root }

// Generation returns a number that grows whenever any content or definition changes.
func (s *Store) Generation() uint64 { return s.ix.Changed() }

func (s *Store) bump() uint64 { return s.ix.Bump() }

// Paths relative to the site folder.
func (s *Store) contentPath(p ...string) string {
	return path.Join(append([]string{s.opts.ContentDir}, p...)...)
}
func (s *Store) resourcePath(p ...string) string {
	return path.Join(append([]string{s.opts.ResourcesDir}, p...)...)
}

// ContentPath joins p under the content folder, to name files in problems (cms check).
func (s *Store) ContentPath(p ...string) string { return s.contentPath(p...) }

// ResourcePath joins p under the resources folder, to name files in problems (cms check).
func (s *Store) ResourcePath(p ...string) string { return s.resourcePath(p...) }

// UsersDir returns the users folder relative to the site folder.
func (s *Store) UsersDir() string { return s.opts.UsersDir }

// lock serialises writers of one path. Two paths may share a stripe; that only costs waiting.
func (s *Store) lock(p string) func() {
	m := &s.locks[stripe(p)]
	m.Lock()
	return m.Unlock
}

// lock2 locks two paths in a fixed order so concurrent renames cannot deadlock.
func (s *Store) lock2(a, b string) func() {
	i, j := stripe(a), stripe(b)
	if i == j {
		return s.lock(a)
	}
	if i > j {
		i, j = j, i
	}
	s.locks[i].Lock()
	s.locks[j].Lock()
	return func() { s.locks[j].Unlock(); s.locks[i].Unlock() }
}

func stripe(p string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(p))
	return h.Sum32() % 256
}

func (s *Store) writable(op string) error {
	if s.opts.ReadOnly {
		return &content.Error{Kind: content.Forbidden, Op: op, Code: "READ_ONLY", Message: "This deployment is read-only"}
	}
	return nil
}

// writeFile atomically writes a site-relative file (creating folders). Exclusive fails with a
// Conflict error when the file exists.
func (s *Store) writeFile(p string, data []byte, perm fs.FileMode, exclusive bool) error {
	const op = "fsstore.WriteFile"
	if err := s.writable(op); err != nil {
		return err
	}
	err := atomicfile.Write(s.root, p, data, atomicfile.Options{Perm: perm, Exclusive: exclusive, NoSync: s.opts.NoSync})
	if errors.Is(err, fs.ErrExist) {
		return &content.Error{Kind: content.Conflict, Op: op, Path: p, Message: "already exists", Err: err}
	}
	if err != nil {
		return content.Internalf(op, p, err)
	}
	s.ix.NoteFile(p)
	return nil
}

// removeFile deletes a site-relative file durably; a missing file is a NotFound error.
func (s *Store) removeFile(p string) error {
	const op = "fsstore.RemoveFile"
	if err := s.writable(op); err != nil {
		return err
	}
	if err := atomicfile.Remove(s.root, p, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return content.NotFoundf(op, p, "not found")
		}
		return content.Internalf(op, p, err)
	}
	s.ix.NoteFile(p)
	return nil
}

// readFile reads a site-relative file; a missing file is a NotFound error.
func (s *Store) readFile(p string) ([]byte, error) {
	const op = "fsstore.ReadFile"
	b, err := s.root.ReadFile(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, content.NotFoundf(op, p, "not found")
		}
		return nil, content.Internalf(op, p, err)
	}
	return b, nil
}

// readDir lists a site-relative folder sorted by name; a missing folder is empty.
func (s *Store) readDir(p string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(s.root.FS(), p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, content.Internalf("fsstore.ReadDir", p, err)
	}
	return ents, nil
}

// problem logs a broken file once (until its message changes or it is fixed).
func (s *Store) problem(file string, err error) {
	msg := err.Error()
	s.problemsMu.Lock()
	defer s.problemsMu.Unlock()
	if s.problems[file] == msg {
		return
	}
	s.problems[file] = msg
	s.log.Warn("skipping file that does not load", "file", file, "problem", msg)
}

func (s *Store) resolved(file string) {
	s.problemsMu.Lock()
	defer s.problemsMu.Unlock()
	if _, ok := s.problems[file]; ok {
		delete(s.problems, file)
		s.log.Info("file loads again", "file", file)
	}
}

// Problem is a file the store could not load.
type Problem struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

// Problems lists files that currently do not load, sorted by file.
func (s *Store) Problems() []Problem {
	s.definitions() // make sure definitions were read
	s.problemsMu.Lock()
	defer s.problemsMu.Unlock()
	out := make([]Problem, 0, len(s.problems))
	for f, m := range s.problems {
		out = append(out, Problem{File: f, Message: m})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
