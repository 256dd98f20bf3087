package index

// Index snapshot and generation file (docs/architecture.md, section 3).
//
// Over EFS every file read costs about a quarter of a millisecond, so a process must not parse
// every entry file when it starts. With Options.Snapshot a store keeps two derived files under
// .cms/ (both may be deleted at any time; they are rebuilt), and a third for the full-text
// indexes (searchsnap.go):
//
//   - index.snapshot: every collection's indexed entries (metadata without bodies) with the file
//     stamps they were read at, in a compact binary form with a checksum and the generation it
//     reflects (snapshot_codec.go). A process starts from it with one read.
//   - generation: a small JSON document rewritten (temp file + rename) after every change made
//     through a writable store: a growing generation number, the generation of the newest
//     snapshot, the generations at which definitions and users last changed, and the entry
//     changes made since that snapshot. A reader checks it with one stat per request (Refresh)
//     and, when it changed, re-reads only the entries it lists; when changes it has not seen were
//     folded into a newer snapshot, it loads that snapshot.
//
// Writers rewrite the snapshot at most SnapshotDelay after a change, at once when the change list
// grows past maxChanges, after any rebuild, and on Close. Several writer processes (one Lambda
// function per writer group) may share a folder: updates of the generation file are serialised
// with an advisory file lock, which works on EFS (NFSv4 locks).
//
// A snapshot is never trusted blindly: a bad checksum, an unknown format, or a generation older
// than the generation file names makes the store rebuild from the files and log why. A collection
// folder whose modification time matches neither the snapshot nor the writer's last change was
// changed by other means (a copy, a hand edit) and is rescanned by file stamps. Edits made in
// place while no process watches (which leave the folder's time alone) are caught by the
// background check a watching store runs after starting from a snapshot.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cms/content"
	"cms/content/entryfile"
	"cms/content/frontmatter"
	"cms/content/internal/atomicfile"
	"cms/content/query"
)

// Files of the snapshot mechanism, relative to the site folder.
const (
	SnapshotFile   = ".cms/index.snapshot"
	GenerationFile = ".cms/generation"
	generationLock = ".cms/generation.lock"
)

// WatchGeneration is the watch mode of Lambda functions: no watcher and no goroutines; the index
// is loaded on first use (from the snapshot) and Refresh, called once per request, picks up what
// writer processes published. It requires Config.Snapshot.
const WatchGeneration = "generation"

// SnapshotDelay is how long a writer waits after a change before rewriting the snapshot, so a
// burst of saves costs one snapshot.
const SnapshotDelay = time.Second

// maxChanges bounds the entry changes listed in the generation file; past it the writer rewrites
// the snapshot at once and starts a new list.
const maxChanges = 1024

// genDoc is the content of the generation file.
type genDoc struct {
	V          int              `json:"v"`
	Generation uint64           `json:"generation"`
	Snapshot   uint64           `json:"snapshot"` // generation the snapshot file reflects
	Defs       uint64           `json:"defs"`     // generation of the last definitions change
	Users      uint64           `json:"users"`    // generation of the last users change
	Dirs       map[string]int64 `json:"dirs,omitempty"`
	Changes    []genChange      `json:"changes,omitempty"` // entry changes after Snapshot
}

// genChange is one changed entry: collection C, slug S ("" = the whole collection).
type genChange struct {
	G uint64 `json:"g"`
	C string `json:"c"`
	S string `json:"s,omitempty"`
}

// Info describes where the entry index came from; health checks and tests read it.
type Info struct {
	Loaded             bool     `json:"loaded"`       // the index has been built
	FromSnapshot       bool     `json:"fromSnapshot"` // it started from the snapshot file
	SnapshotGeneration uint64   `json:"snapshotGeneration"`
	Generation         uint64   `json:"generation"`          // persisted generation it reflects
	Rebuilt            []string `json:"rebuilt,omitempty"`   // collections read from their files
	Rescanned          []string `json:"rescanned,omitempty"` // snapshot collections checked by file stamps
	Reloads            int      `json:"reloads"`             // snapshot reloads after start
}

// snapState is the snapshot bookkeeping of an index with Config.Snapshot.
type snapState struct {
	mu      sync.Mutex  // serialises loading, refreshing, publishing and snapshot writes
	loaded  atomic.Bool // read without mu by index(), so it never waits once loaded
	closed  bool
	applied uint64      // persisted generation whose entry changes the index reflects
	defs    uint64      // last definitions generation seen
	users   uint64      // last users generation seen
	seen    fs.FileInfo // generation file last processed; nil when there was none
	info    Info
	warned  string // last generation-file problem logged
	// heard is the generation up to which Config.Changed was told of other processes' changes;
	// heardSet is false until a generation file was read.
	heard    uint64
	heardSet bool

	dirty atomic.Bool // the index changed since the last snapshot write
	// unpublished is set when the index took changes no generation file lists (a rebuild or
	// rescan from the files, or a file watcher): the next snapshot then gets a new generation,
	// so readers reload it instead of assuming it only folds changes they applied.
	unpublished atomic.Bool
	pendingDefs atomic.Bool // a definitions change waits to be published (PublishDefs)
	timerMu     sync.Mutex
	timer       *time.Timer
	flushing    atomic.Bool // flushSnapshot runs (Background)
}

func (s *Index) snapWriter() bool { return s.snap != nil && !s.opts.ReadOnly }

// Info reports where the entry index came from (zero without Config.Snapshot).
func (s *Index) Info() Info {
	if s.snap == nil {
		return Info{}
	}
	s.snap.mu.Lock()
	defer s.snap.mu.Unlock()
	in := s.snap.info
	in.Loaded = s.snap.loaded.Load()
	in.Generation = s.snap.applied
	in.Rebuilt = slices.Clone(in.Rebuilt)
	in.Rescanned = slices.Clone(in.Rescanned)
	return in
}

// ensureIndex loads the whole entry index once: from the snapshot where it is valid, from the
// files otherwise.
func (s *Index) ensureIndex(ctx context.Context) error {
	s.snap.mu.Lock()
	defer s.unlockSnap()
	if s.snap.loaded.Load() || s.snap.closed {
		return nil
	}
	return s.loadLocked(ctx, true)
}

// readGen reads the generation file. A missing file gives a zero document and a nil FileInfo.
func (s *Index) readGen() (genDoc, fs.FileInfo, error) {
	var g genDoc
	f, err := s.root.Open(GenerationFile)
	if errors.Is(err, fs.ErrNotExist) {
		return g, nil, nil
	}
	if err != nil {
		return g, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return g, nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(f, 4<<20))
	if err != nil {
		return g, st, err
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		return genDoc{}, st, fmt.Errorf("%s: %w", GenerationFile, err)
	}
	if g.V != 1 {
		return genDoc{}, st, fmt.Errorf("%s: unknown version %d", GenerationFile, g.V)
	}
	return g, st, nil
}

// warnGen logs a generation-file problem once until it changes.
func (s *Index) warnGen(err error) {
	if msg := err.Error(); msg != s.snap.warned {
		s.snap.warned = msg
		s.log.Warn("generation file cannot be used; reloading everything it covers", "file", GenerationFile, "err", err)
	}
}

// dirMtime returns the modification time of a collection folder (0 when it is missing).
func (s *Index) dirMtime(c string) int64 {
	st, err := s.root.Stat(s.contentPath("collections", c))
	if err != nil {
		return 0
	}
	return st.ModTime().UnixNano()
}

func orderSignature(c *content.Collection) string { return fmt.Sprint(query.DefaultOrder(c)) }

// loadLocked builds the index: snapshot collections that still match their folders, changes the
// generation file lists since the snapshot, and every other collection from its files. A writer
// then rewrites the snapshot if any of it came from files: at once when write is set (the caller
// does not hold the generation lock), else after SnapshotDelay.
func (s *Index) loadLocked(ctx context.Context, write bool) error {
	const op = "fsstore.loadIndex"
	start := time.Now()
	s.snap.loaded.Store(false) // index() callers wait for the (re)load instead of building alone
	g, gi, gerr := s.readGen()
	if gerr != nil {
		s.warnGen(gerr)
	}
	var (
		colls    []snapColl
		snapGen  uint64
		fromSnap bool
	)
	raw, err := s.root.ReadFile(SnapshotFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.log.Info("no index snapshot yet; reading every entry file", "file", SnapshotFile)
	case err != nil:
		s.log.Warn("index snapshot cannot be read; reading every entry file", "file", SnapshotFile, "err", err)
	default:
		snapGen, colls, err = decodeSnapshot(raw)
		switch {
		case errors.Is(err, errOtherFormat):
			s.log.Info("index snapshot is from another version; rebuilding it from the files", "file", SnapshotFile, "err", err)
		case err != nil:
			s.log.Warn("index snapshot ignored; rebuilding it from the files", "file", SnapshotFile, "err", err)
		case gerr == nil && snapGen < g.Snapshot:
			s.log.Warn("index snapshot is older than the generation file says; rebuilding it from the files",
				"file", SnapshotFile, "snapshot_generation", snapGen, "expected", g.Snapshot)
		default:
			fromSnap = true
		}
	}
	info := Info{FromSnapshot: fromSnap, SnapshotGeneration: snapGen, Reloads: s.snap.info.Reloads}
	fresh := make(map[string]*collIndex)
	if fromSnap {
		for _, sc := range colls {
			coll, err := s.collection(sc.handle)
			if err != nil {
				continue // no longer defined
			}
			ix := &collIndex{handle: sc.handle, entries: make(map[string]*indexed, len(sc.items)), counts: &s.orders}
			for _, it := range sc.items {
				ix.entries[it.e.Slug] = it
			}
			if sc.order == orderSignature(coll) && len(ix.entries) == len(sc.items) {
				ix.sorted = make([]*content.Entry, len(sc.items))
				for i, it := range sc.items {
					ix.sorted[i] = it.e
				}
				ix.sortedKey = orderKey(query.DefaultOrder(coll))
				for _, o := range sc.orders {
					if ix.snapOrders == nil {
						ix.snapOrders = make(map[string][]uint32, len(sc.orders))
					}
					ix.snapOrders[o.key] = o.pos
				}
			}
			ix.version = s.bump()
			fresh[sc.handle] = ix
			if cur := s.dirMtime(sc.handle); cur != sc.dirMtime && (g.Dirs == nil || cur != g.Dirs[sc.handle]) {
				info.Rescanned = append(info.Rescanned, sc.handle)
			}
		}
	}
	s.collMu.Lock()
	s.colls = fresh
	s.collMu.Unlock()
	applied := max(g.Generation, snapGen)
	if fromSnap {
		s.applyChanges(g.Changes, snapGen)
		for _, c := range info.Rescanned {
			s.rescan(c)
		}
	}
	for _, c := range s.collections() {
		if _, ok := fresh[c.Handle]; ok {
			continue
		}
		if _, err := s.buildIndex(ctx, c.Handle); err != nil {
			return err
		}
		info.Rebuilt = append(info.Rebuilt, c.Handle)
	}
	if err := ctx.Err(); err != nil {
		return content.Internalf(op, SnapshotFile, err)
	}
	s.snap.loaded.Store(true)
	s.snap.applied = applied
	s.snap.defs, s.snap.users = g.Defs, g.Users
	s.snap.seen = gi
	s.snap.info = info
	n := 0
	for _, ix := range s.colls {
		n += len(ix.entries)
	}
	s.log.Info("entry index loaded", "entries", n, "from_snapshot", fromSnap, "rebuilt", info.Rebuilt,
		"rescanned", info.Rescanned, "generation", applied, "duration", time.Since(start))
	if fromSnap && (s.opts.Watch == WatchNotify || s.opts.Watch == WatchPoll) {
		s.verifyInBackground(colls)
	}
	if !fromSnap || len(info.Rebuilt) > 0 || len(info.Rescanned) > 0 {
		s.snap.unpublished.Store(true)
	}
	if s.snapWriter() && (!fromSnap || len(info.Rebuilt) > 0 || len(info.Rescanned) > 0) {
		// A long-running (watching) server writes it after SnapshotDelay, off the start-up path:
		// encoding it in default order costs about as much as a fifth of reading the files.
		if !write || s.opts.Watch == WatchNotify || s.opts.Watch == WatchPoll {
			s.snapshotChanged()
		} else if err := s.writeSnapshotLocked(); err != nil {
			s.log.Warn("index snapshot not written", "err", err)
		}
	}
	return nil
}

// Background names the work the index has scheduled or is doing in the background:
// "indexSnapshot" (a snapshot write, which also writes the full-text index snapshot, building
// it first) and "indexVerify" (the check of a loaded snapshot against the files). A benchmark
// waits until it is empty before it measures; an operator sees why a fresh process is busy.
func (s *Index) Background() []string {
	var out []string
	if s.snap != nil {
		s.snap.timerMu.Lock()
		scheduled := s.snap.timer != nil
		s.snap.timerMu.Unlock()
		if scheduled || s.snap.flushing.Load() {
			out = append(out, "indexSnapshot")
		}
	}
	if s.verifying.Load() {
		out = append(out, "indexVerify")
	}
	return out
}

// verifyDelay is how long after loading the snapshot the background check starts: it stats
// every entry file (about a third of a second of CPU at 100,000 entries), which would otherwise
// compete with the rest of start-up for the CPUs.
const verifyDelay = time.Second

// verifyInBackground compares every snapshot collection with its folder by file stamps, so edits
// made while no process watched are picked up shortly after start. Only watching stores do this:
// on Lambda a goroutine may be frozen between requests.
func (s *Index) verifyInBackground(colls []snapColl) {
	handles := make([]string, len(colls))
	for i, c := range colls {
		handles[i] = c.handle
	}
	s.wg.Add(1)
	s.verifying.Store(true)
	go func() {
		defer s.wg.Done()
		defer s.verifying.Store(false)
		t := time.NewTimer(verifyDelay)
		defer t.Stop()
		select {
		case <-s.closed:
			return
		case <-t.C:
		}
		for _, c := range handles {
			select {
			case <-s.closed:
				return
			default:
			}
			s.rescan(c)
		}
	}()
}

// applyChanges re-reads the entries listed with a generation above after.
func (s *Index) applyChanges(changes []genChange, after uint64) {
	for _, ch := range changes {
		if ch.G <= after || !content.ValidHandle(ch.C) {
			continue
		}
		s.collMu.RLock()
		ix := s.colls[ch.C]
		s.collMu.RUnlock()
		switch {
		case ix == nil:
		case ch.S == "":
			s.rescan(ch.C)
		case content.ValidHandle(ch.S):
			s.reindex(ix, ch.S)
		}
	}
}

// Refresh picks up what writer processes published, with one stat of the generation file when
// nothing changed. The Lambda runner calls it once per request; it does nothing unless the watch
// mode is WatchGeneration.
func (s *Index) Refresh() {
	if s.snap == nil || s.opts.Watch != WatchGeneration {
		return
	}
	st, err := s.root.Stat(GenerationFile)
	if err != nil {
		st = nil
	}
	s.snap.mu.Lock()
	defer s.unlockSnap()
	if st == nil {
		s.snap.heardSet = true // no file yet: the first one written is news
	}
	if s.snap.closed || sameStamp(st, s.snap.seen) {
		return
	}
	g, gi, err := s.readGen()
	if err != nil {
		s.warnGen(err)
		// Nothing it says can be trusted: reload definitions, users and the index.
		s.snap.seen = gi
		s.opts.DefsChanged()
		s.opts.UsersChanged()
		if s.snap.loaded.Load() {
			s.snap.info.Reloads++
			if err := s.loadLocked(context.Background(), false); err != nil {
				s.log.Error("index reload failed", "err", err)
			}
			s.changed(Change{All: true}) // a reload does not say which entries changed
		}
		s.bump()
		return
	}
	s.applyGenLocked(g, gi != nil)
	s.snap.seen = gi
}

// tellGenLocked tells Config.Changed what another process published since it last told it,
// whether or not the index is loaded (a store may serve entries without it): the listed entry
// changes, and Change.All for what the file does not name. The first generation file seen
// only sets the mark: what happened before this process started is not news to it.
func (s *Index) tellGenLocked(g genDoc) {
	switch {
	case !s.snap.heardSet:
		s.snap.heardSet = true
	case g.Generation == s.snap.heard:
		return
	case g.Generation < s.snap.heard || g.Snapshot > s.snap.heard || unlisted(g.Changes, s.snap.heard, g.Generation):
		// A reset counter, changes folded into a snapshot, or changes the list does not name.
		s.changed(Change{All: true})
	default:
		for _, ch := range g.Changes {
			if ch.G > s.snap.heard && ch.G <= g.Generation {
				s.changed(Change{Collection: ch.C, Slug: ch.S})
			}
		}
	}
	s.snap.heard = g.Generation
}

// unlisted reports whether the generations after applied up to gen include one that lists no
// entry change: every publish takes one generation, so fewer listed generations than steps
// means changes of other kinds.
func unlisted(changes []genChange, applied, gen uint64) bool {
	listed := map[uint64]bool{}
	for _, ch := range changes {
		if ch.G > applied && ch.G <= gen {
			listed[ch.G] = true
		}
	}
	return gen > applied && uint64(len(listed)) < gen-applied
}

// applyGenLocked brings the store up to a generation document another process wrote; exists is
// false when there was no generation file (nothing to apply).
func (s *Index) applyGenLocked(g genDoc, exists bool) {
	if !exists {
		return
	}
	s.tellGenLocked(g)
	if g.Defs != s.snap.defs {
		s.snap.defs = g.Defs
		s.opts.DefsChanged()
	}
	if g.Users != s.snap.users {
		s.snap.users = g.Users
		s.opts.UsersChanged()
	}
	if s.snap.loaded.Load() && g.Generation != s.snap.applied {
		if g.Generation < s.snap.applied || g.Snapshot > s.snap.applied {
			// The counter was reset, or changes we have not seen were folded into a newer
			// snapshot: start again from that snapshot.
			s.snap.info.Reloads++
			if err := s.loadLocked(context.Background(), false); err != nil {
				s.log.Error("index reload failed", "err", err)
			}
			s.bump()
			return
		}
		s.applyChanges(g.Changes, s.snap.applied)
		s.snap.applied = g.Generation
	}
	s.bump()
}

// sameStamp reports whether two stats describe the same version of the generation file. Every
// write renames a new file into place, so the inode changes even when the time does not.
func sameStamp(a, b fs.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}

// lockGeneration takes the cross-process lock of the generation file.
func (s *Index) lockGeneration() (unlock func(), err error) {
	if err := s.root.MkdirAll(path.Dir(generationLock), 0o755); err != nil {
		return nil, err
	}
	f, err := s.root.OpenFile(generationLock, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = unlockFile(f); f.Close() }, nil
}

// change is what one write through the store changed, for the generation file.
type change struct {
	coll  string
	slugs []string
	defs  bool
	users bool
}

// publish records a change made by this process in the generation file, first applying what
// other writers published since this process last looked.
func (s *Index) publish(ch change) {
	if !s.snapWriter() {
		return
	}
	s.snap.mu.Lock()
	defer s.unlockSnap()
	if s.snap.closed {
		return
	}
	if err := s.publishLocked(ch); err != nil {
		// Readers then see this change only with the next snapshot; the write itself succeeded.
		s.log.Warn("generation file not updated", "file", GenerationFile, "err", err)
	}
}

func (s *Index) publishLocked(ch change) error {
	unlock, err := s.lockGeneration()
	if err != nil {
		return err
	}
	g, gi, err := s.readGen()
	if err != nil {
		s.warnGen(err)
		g, gi = genDoc{Generation: s.snap.applied}, nil
	}
	s.applyGenLocked(g, gi != nil)
	g.V = 1
	g.Generation = max(g.Generation, s.snap.applied) + 1
	for _, slug := range ch.slugs {
		g.Changes = append(g.Changes, genChange{G: g.Generation, C: ch.coll, S: slug})
	}
	if ch.coll != "" {
		if g.Dirs == nil {
			g.Dirs = map[string]int64{}
		}
		g.Dirs[ch.coll] = s.dirMtime(ch.coll)
	}
	if ch.defs {
		g.Defs = g.Generation
	}
	if ch.users {
		g.Users = g.Generation
	}
	err = s.writeGenLocked(g)
	unlock()
	if err != nil {
		return err
	}
	if len(g.Changes) > maxChanges && s.snap.loaded.Load() {
		return s.writeSnapshotLocked()
	}
	return nil
}

// writeGenLocked writes the generation file and records it as seen (this process is up to date).
func (s *Index) writeGenLocked(g genDoc) error {
	raw, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(s.root, GenerationFile, raw, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		return err
	}
	st, err := s.root.Stat(GenerationFile)
	if err != nil {
		return err
	}
	s.snap.seen = st
	s.snap.applied = g.Generation
	s.snap.heard, s.snap.heardSet = g.Generation, true // its own changes were told as they were made
	s.snap.defs, s.snap.users = g.Defs, g.Users
	return nil
}

// PublishDefs publishes a definitions change. It is reached from the file watcher and from
// definitions() polling, which may run while this goroutine already holds snap.mu (loading the
// index reads definitions), so it never waits for the lock: when the lock is busy the change is
// left pending for the holder, which publishes it before releasing (unlockSnap).
func (s *Index) PublishDefs() {
	if !s.snapWriter() {
		return
	}
	s.snap.pendingDefs.Store(true)
	if s.snap.mu.TryLock() {
		s.unlockSnap()
	}
}

// unlockSnap releases snap.mu after publishing a pending definitions change.
func (s *Index) unlockSnap() {
	for {
		if s.snap.pendingDefs.Swap(false) && !s.snap.closed {
			if err := s.publishLocked(change{defs: true}); err != nil {
				s.log.Warn("generation file not updated", "file", GenerationFile, "err", err)
			}
		}
		s.snap.mu.Unlock()
		// A change flagged after the check above would otherwise wait for the next holder.
		if !s.snap.pendingDefs.Load() || !s.snap.mu.TryLock() {
			return
		}
	}
}

// publishEntries records changed entries of one collection.
func (s *Index) publishEntries(c string, slugs ...string) { s.publish(change{coll: c, slugs: slugs}) }

// NoteFile publishes a write made through WriteFile or RemoveFile that other processes may
// cache: definitions, users, or content documents (which only bump the generation).
func (s *Index) NoteFile(p string) {
	if !s.snapWriter() {
		return
	}
	switch {
	case under(p, s.opts.ResourcesDir):
		s.publish(change{defs: true})
	case under(p, s.opts.UsersDir):
		s.publish(change{users: true})
	case under(p, s.contentPath("forms")), under(p, s.contentPath("collections")):
		// Submissions are append-only and uncached; entries publish through their own methods.
	case under(p, s.opts.ContentDir):
		s.publish(change{})
	}
}

// snapshotChanged marks the index as changed since the last snapshot and schedules a rewrite.
// It may be called with index locks held, so it takes only timerMu.
func (s *Index) snapshotChanged() {
	if !s.snapWriter() {
		return
	}
	s.snap.dirty.Store(true)
	if s.opts.Watch == WatchNotify || s.opts.Watch == WatchPoll {
		// A watching store also takes changes from its watcher, which nothing publishes.
		s.snap.unpublished.Store(true)
	}
	s.snap.timerMu.Lock()
	defer s.snap.timerMu.Unlock()
	if s.snap.timer == nil {
		s.snap.timer = time.AfterFunc(SnapshotDelay, s.flushSnapshot)
	}
}

// flushSnapshot is the delayed snapshot rewrite.
func (s *Index) flushSnapshot() {
	s.snap.flushing.Store(true) // before the timer is cleared: Background sees one or the other
	defer s.snap.flushing.Store(false)
	s.snap.timerMu.Lock()
	s.snap.timer = nil
	s.snap.timerMu.Unlock()
	s.snap.mu.Lock()
	defer s.unlockSnap()
	if s.snap.closed || !s.snap.loaded.Load() || !s.snap.dirty.Load() {
		return
	}
	if err := s.writeSnapshotLocked(); err != nil {
		s.log.Warn("index snapshot not written", "err", err)
	}
}

// WriteSnapshot compares every collection with its files (by file stamps, so an edit that a copy
// made in place is found too), writes the index snapshot and announces it with a new
// generation, so running readers reload it. `cms snapshot` runs it after a site folder was
// copied into place. The store refuses it when read-only.
func (s *Index) WriteSnapshot(ctx context.Context) error {
	const op = "fsstore.WriteSnapshot"
	if s.snap == nil {
		return content.Invalidf(op, "the store was opened without Options.Snapshot")
	}
	s.snap.mu.Lock()
	defer s.unlockSnap()
	read := map[string]bool{} // collections this call just read from their files
	if !s.snap.loaded.Load() {
		if err := s.loadLocked(ctx, false); err != nil {
			return err
		}
		for _, c := range s.snap.info.Rebuilt {
			read[c] = true
		}
	}
	for _, c := range s.collections() {
		if !read[c.Handle] {
			s.rescan(c.Handle)
		}
	}
	s.snap.unpublished.Store(true)
	s.searchSnap.changes.Store(searchRewriteAfter) // a copied folder: rewrite the full-text snapshot too
	if err := s.writeSnapshotLocked(); err != nil {
		return content.Internalf(op, SnapshotFile, err)
	}
	return nil
}

// writeSnapshotLocked writes the snapshot and a generation file that points at it. It holds the
// generation lock throughout, so no other writer publishes a change the snapshot would claim.
func (s *Index) writeSnapshotLocked() error {
	unlock, err := s.lockGeneration()
	if err != nil {
		return err
	}
	defer unlock()
	g, gi, err := s.readGen()
	if err != nil {
		s.warnGen(err)
		g, gi = genDoc{Generation: s.snap.applied}, nil
	}
	s.applyGenLocked(g, gi != nil)
	gen := max(g.Generation, s.snap.applied)
	bumped := s.snap.unpublished.Swap(false)
	if bumped {
		gen++ // readers cannot get here by applying listed changes: make them reload
	}
	s.snap.dirty.Store(false)
	unsaved := s.orders.unsaved.Swap(false) // before the orders are read: one sorted meanwhile sets it again
	failed := func(err error) error {
		s.snap.dirty.Store(true)
		if unsaved {
			s.orders.unsaved.Store(true)
		}
		if bumped {
			s.snap.unpublished.Store(true)
		}
		return err
	}
	var colls []snapColl
	for _, c := range s.collections() {
		ix, err := s.index(c.Handle)
		if err != nil {
			return failed(err)
		}
		// The folder time is read before the entries: a change in between then looks like a
		// hand edit at the next start (a rescan), never the other way round.
		sc := snapColl{handle: c.Handle, dirMtime: s.dirMtime(c.Handle), order: orderSignature(c)}
		order := ix.defaultOrder(c)
		ix.mu.RLock()
		sc.items = make([]*indexed, 0, len(ix.entries))
		for _, e := range order {
			if it := ix.entries[e.Slug]; it != nil && it.e == e {
				sc.items = append(sc.items, it)
			}
		}
		if len(sc.items) != len(ix.entries) {
			// The index changed since order was computed: store it unsorted; readers sort.
			sc.order = ""
			sc.items = sc.items[:0]
			for _, it := range ix.entries {
				sc.items = append(sc.items, it)
			}
			slices.SortFunc(sc.items, func(a, b *indexed) int { return strings.Compare(a.e.Slug, b.e.Slug) })
		} else {
			sc.orders = ix.snapshotOrders(sc.items, orderKey(query.DefaultOrder(c)))
		}
		ix.mu.RUnlock()
		colls = append(colls, sc)
	}
	raw, err := encodeSnapshot(gen, colls)
	if err != nil {
		return failed(err)
	}
	if err := atomicfile.Write(s.root, SnapshotFile, raw, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		return failed(err)
	}
	if err := s.writeSearchSnapshot(gen); err != nil {
		s.log.Warn("full-text index snapshot not written; readers rebuild it from the files", "file", SearchSnapshotFile, "err", err)
	}
	// Changes up to gen are in the snapshot; the new generation tells readers to look.
	next := genDoc{V: 1, Generation: gen + 1, Snapshot: gen, Defs: g.Defs, Users: g.Users}
	if err := s.writeGenLocked(next); err != nil {
		return failed(err)
	}
	return nil
}

// closeSnapshot writes a pending snapshot and stops the timer; Close calls it.
func (s *Index) closeSnapshot() {
	if s.snap == nil {
		return
	}
	s.snap.timerMu.Lock()
	if s.snap.timer != nil {
		s.snap.timer.Stop()
		s.snap.timer = nil
	}
	s.snap.timerMu.Unlock()
	s.snap.mu.Lock()
	defer s.snap.mu.Unlock()
	if s.snapWriter() && s.snap.loaded.Load() && (s.snap.dirty.Load() || s.orders.unsaved.Load()) {
		if err := s.writeSnapshotLocked(); err != nil {
			s.log.Warn("index snapshot not written at close", "err", err)
		}
	}
	s.snap.closed = true
}

// decode sets e.Data from the snapshot bytes the first time it is needed. Entries are shared, so
// this is the one write to an entry after it joined the index; sync.Once orders it before every
// read that follows a hand-out.
func (it *indexed) decode() { it.decodeShared(nil) }

// decodeShared is decode sharing repeated strings through shared (may be nil).
func (it *indexed) decodeShared(shared *frontmatter.Interner) {
	if it.raw == "" {
		return
	}
	it.once.Do(func() {
		m, err := decodeData(it.raw, shared)
		if err != nil {
			// The checksum matched, so only a writer bug gets here; show the entry without
			// custom fields rather than fail every request that lists it.
			m = content.NewMap(0)
		}
		it.e.Data = m
		it.decoded.Store(true)
	})
}

// ensureData decodes the data of entries about to be handed out.
func (ix *collIndex) ensureData(es []*content.Entry) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, e := range es {
		if it := ix.entries[e.Slug]; it != nil && it.e == e {
			it.decode()
		}
	}
}

// ensureAllData decodes the data of every entry of the collection (before a filter or sort).
func (ix *collIndex) ensureAllData() {
	if ix.allDecoded.Load() {
		return // every entry since has been parsed from its file, never from the snapshot
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	shared := entryfile.NewInterner()
	for _, it := range ix.entries {
		it.decodeShared(shared)
	}
	ix.allDecoded.Store(true)
}
