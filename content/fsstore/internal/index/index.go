// Package index is fsstore's entry index: the in-memory metadata of every collection's entries
// (without bodies), the equality postings and the query over them, the index snapshot and
// generation file under .cms/, the file watcher, and what a read-only store hides of an
// interrupted rename.
//
// The seam. The store owns the site folder, writes, path locks, definitions, users and the
// problems list; the index owns what is derived from the entry files and how it learns of
// changes. The store calls:
//
//   - New, then Load at start-up (from the snapshot where valid, else from the files; lazily on
//     first use in WatchGeneration mode), and Close;
//   - Get, Query and Version to read; Ensure before a write and Written after it, so the write is
//     indexed and published in the generation file;
//   - Changed (the generation that grows with every change seen, after applying pending
//     notifications), Bump for its own changes, Poll before it trusts a cached definitions or
//     users read, Refresh once per request in WatchGeneration mode;
//   - PublishDefs, PublishUsers and NoteFile for changes other processes must see;
//   - Info and WriteSnapshot.
//
// The index calls back through Config: the store's collection definitions, its problems list,
// and DefsChanged / UsersChanged when the watcher or another process changed those files.
package index

import (
	"context"
	"log/slog"
	"os"
	"path"
	"sync"
	"sync/atomic"
	"time"

	"cms/content"
)

// Watch modes (WatchGeneration is in snapshot.go).
const (
	WatchNotify = "notify" // file-system notifications (default); falls back to polling
	WatchPoll   = "poll"   // stat-based checks at most once per PollInterval
	WatchNone   = "none"   // only this process's own writes are seen (tests, read-only replicas)
)

// Config is what the index needs from its store. Folders are cleaned, site-relative paths.
type Config struct {
	Root         *os.Root // the site folder; the store owns and closes it
	Dir          string   // its path, for file notifications
	ContentDir   string
	ResourcesDir string
	UsersDir     string
	ReadOnly     bool
	Watch        string
	PollInterval time.Duration
	NoSync       bool
	Snapshot     bool
	Log          *slog.Logger
	Now          func() time.Time

	Collections func() []*content.Collection
	Collection  func(handle string) (*content.Collection, error)
	// DefsChanged and UsersChanged invalidate the store's caches of those files; the index
	// publishes the change where that is its job.
	DefsChanged  func()
	UsersChanged func()
	// Problem records a file that does not load; Resolved, one that loads again.
	Problem  func(file string, err error)
	Resolved func(file string)
	// FileChanged, when set, hears of every file (or folder) under the content, resources and
	// users folders that a notification names, temp files included (the store filters); with
	// it the whole content folder is watched, not only the collections. Polling does not call it.
	FileChanged func(file string)
	// Changed, if set, hears of every entry the index re-read differently, whatever told it
	// (this store's writes, the watcher, the generation file), of content documents the watcher
	// saw change, and of changes it cannot name (Change.All). It runs on the goroutine that
	// applied the change, possibly under the index's locks: it must be quick and must not call
	// the store.
	Changed func(Change)
}

// Change is what Config.Changed hears: an entry (Collection, Slug), a content document other
// than an entry (File, site-relative), or All.
type Change struct {
	Collection, Slug string
	File             string
	All              bool
}

func (s *Index) changed(ch Change) {
	if s.opts.Changed != nil {
		s.opts.Changed(ch)
	}
}

// Index is the entry index of one store.
type Index struct {
	opts Config
	root *os.Root
	log  *slog.Logger
	now  func() time.Time

	gen atomic.Uint64 // bumped on every change seen; versions below are values of gen

	collMu sync.RWMutex
	colls  map[string]*collIndex

	pendMu  sync.Mutex
	pending map[string]map[string]bool // collection -> slug ("" = whole folder)
	pendN   atomic.Int64

	bufs sync.Pool // *[]byte read buffers for indexing entry files

	stats  struct{ indexed, scanned, ranged atomic.Uint64 } // queries by plan (QueryStats)
	orders orderCounts                                      // the orders queries needed (QueryStats)

	snap *snapState // nil without Config.Snapshot

	searchSnap searchSnapState // the full-text index snapshot (searchsnap.go)

	renames renameState // interrupted renames a read-only store hides (renames.go)

	verifying atomic.Bool // verifyInBackground has not finished (Background)

	watcher *watcher
	closed  chan struct{}
	wg      sync.WaitGroup
}

// New returns an index that has read nothing yet.
func New(cfg Config) *Index {
	s := &Index{
		opts:    cfg,
		root:    cfg.Root,
		log:     cfg.Log,
		now:     cfg.Now,
		colls:   make(map[string]*collIndex),
		pending: make(map[string]map[string]bool),
		closed:  make(chan struct{}),
	}
	s.gen.Store(1)
	if cfg.Snapshot {
		s.snap = &snapState{}
	}
	return s
}

// Load starts watching and builds the index, except in WatchGeneration mode (Lambda), which
// loads it on first use: functions that never list entries (auth, health, ...) then never read it.
func (s *Index) Load(ctx context.Context) error {
	if s.opts.Watch != WatchNone && s.opts.Watch != WatchGeneration {
		s.startWatching()
	}
	if s.opts.Watch != WatchGeneration {
		return s.loadAllIndexes(ctx)
	}
	return nil
}

// Close stops watching, waits for background work and writes a pending snapshot.
func (s *Index) Close() {
	close(s.closed)
	if s.watcher != nil {
		s.watcher.close()
	}
	s.wg.Wait()
	s.closeSnapshot()
}

// Changed applies pending notifications (and, when polling, looks for changes) and returns a
// number that grows whenever anything the store serves changed.
func (s *Index) Changed() uint64 {
	s.applyPending()
	s.checkPoll()
	return s.gen.Load()
}

// Bump records a change the store saw itself (definitions reloaded) and returns its generation.
func (s *Index) Bump() uint64 { return s.bump() }

func (s *Index) bump() uint64 { return s.gen.Add(1) }

// Poll, in polling mode, looks for changed files at most once per PollInterval.
func (s *Index) Poll() { s.checkPoll() }

// Ensure builds the index of collection c if it is not built yet. Writers call it before writing:
// building it after the write would take the write for a hand edit.
func (s *Index) Ensure(c string) error {
	_, err := s.index(c)
	return err
}

// Written re-reads entries of c that the store just wrote, renamed or removed, and publishes the
// change to other processes.
func (s *Index) Written(c, slug string) error {
	ix, err := s.index(c)
	if err != nil {
		return err
	}
	s.reindex(ix, slug)
	s.publishEntries(c, slug)
	return nil
}

// PublishUsers publishes a change of the users folder made through the store.
func (s *Index) PublishUsers() { s.publish(change{users: true}) }

func (s *Index) collections() []*content.Collection { return s.opts.Collections() }

func (s *Index) collection(h string) (*content.Collection, error) { return s.opts.Collection(h) }

func (s *Index) problem(file string, err error) { s.opts.Problem(file, err) }

func (s *Index) resolved(file string) { s.opts.Resolved(file) }

// invalidateDefinitions is a definitions change seen on disk: the store reloads, others are told.
func (s *Index) invalidateDefinitions() {
	s.opts.DefsChanged()
	s.PublishDefs()
}

func (s *Index) contentPath(p ...string) string {
	return path.Join(append([]string{s.opts.ContentDir}, p...)...)
}
