package index

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cms/content"
	"cms/content/entryfile"
	"cms/content/frontmatter"
	"cms/content/internal/atomicfile"
	"cms/content/query"
	"cms/content/search"
)

// collIndex is the in-memory metadata of one collection's entries. Entries in it never carry
// their body and are never mutated: a change replaces the pointer.
type collIndex struct {
	mu      sync.RWMutex
	handle  string
	entries map[string]*indexed
	version uint64
	sorted  []*content.Entry // default order cache, nil when stale
	// sortedKey is the orderKey of the keys sorted is in: the collection's default order when
	// it was sorted (or the snapshot written).
	sortedKey string
	// snapOrders are the snapshot's other orders (snapOrder), by orderKey: positions in sorted,
	// which a query needing one of them takes instead of sorting (seedOrder). Set with sorted
	// at a start from the snapshot; nil once the collection changed.
	snapOrders map[string][]uint32
	counts     *orderCounts  // the index's; nil in tests
	d          *derived      // ids, postings and sorted orders for queries; nil until first needed
	search     *search.Index // full-text index; nil until first needed (ensureSearch)
	// searchMu serialises building search (outside mu).
	searchMu sync.Mutex
	// allDecoded is set once every snapshot-loaded entry has its custom fields decoded.
	allDecoded atomic.Bool
}

type indexed struct {
	e    *content.Entry
	size int64
	// mtime is the file's modification time; a re-read that finds the same content updates it
	// in place (stamp checks read it without the collection's lock).
	mtime atomic.Int64
	// racy is set while the file's stamp cannot vouch for its content: it was read within
	// racyWindow of its modification time, so a later write in the same clock tick (file
	// times come from a coarse clock: milliseconds on ext4, seconds or two on other file
	// systems) could leave the same size and time. Stamp checks re-read such files.
	racy atomic.Bool
	// raw is the encoded Data of an entry loaded from the index snapshot, decoded into e.Data
	// once, before e is first handed out or filtered on (ensureData); "" for entries read from
	// their files, whose Data is always set.
	raw     string
	once    sync.Once
	decoded atomic.Bool // e.Data is set from raw (read without the once)
}

// field returns the entry's value of the custom field name, without decoding its other custom
// fields while they are still encoded: building a posting list reads one field of every entry.
func (it *indexed) field(name string) (any, bool) {
	if it.raw == "" || it.decoded.Load() {
		return it.e.Field(name)
	}
	return dataField(it.raw, name)
}

func (s *Index) entryPath(c, slug string) string {
	return s.contentPath("collections", c, slug+".md")
}

func (s *Index) loadAllIndexes(ctx context.Context) error {
	if s.snap != nil {
		return s.ensureIndex(ctx)
	}
	for _, c := range s.collections() {
		if _, err := s.buildIndex(ctx, c.Handle); err != nil {
			return err
		}
	}
	return nil
}

func (s *Index) index(c string) (*collIndex, error) {
	s.collMu.RLock()
	ix := s.colls[c]
	s.collMu.RUnlock()
	if ix != nil {
		return ix, nil
	}
	if s.snap != nil && !s.snap.loaded.Load() {
		// Load everything from the snapshot once rather than this folder from its files.
		if err := s.ensureIndex(context.Background()); err != nil {
			return nil, err
		}
		s.collMu.RLock()
		ix = s.colls[c]
		s.collMu.RUnlock()
		if ix != nil {
			return ix, nil
		}
	}
	return s.buildIndex(context.Background(), c)
}

// buildIndex scans a collection folder with a pool of readers (start-up time is dominated by
// file reads and YAML parsing, both of which parallelise).
func (s *Index) buildIndex(ctx context.Context, c string) (*collIndex, error) {
	const op = "fsstore.buildIndex"
	dir := s.contentPath("collections", c)
	// Names only: listing a folder opened in a root stats every file (os.File.ReadDir), and
	// reading each file stats it anyway.
	names, err := s.readNames(dir)
	if err != nil {
		return nil, content.Internalf(op, dir, err)
	}
	// Open the folder once: opening each file through the site root walks (and checks) every
	// path component again, which cost about a fifth of start-up time.
	var rd *dirReader
	if len(names) > 0 {
		if rd, err = newDirReader(s.root, dir); err != nil {
			return nil, content.Internalf(op, dir, err)
		}
		defer rd.close()
	}
	ix := &collIndex{handle: c, entries: make(map[string]*indexed, len(names)), counts: &s.orders}
	work := make(chan string, 256)
	prog := progressFrom(ctx)
	var mu sync.Mutex
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0)*2, 16)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			shared := entryfile.NewInterner() // one per reader: it takes no lock
			for slug := range work {
				it, err := s.readIndexedIn(rd, shared, c, slug)
				prog.read()
				if err != nil {
					continue
				}
				mu.Lock()
				ix.entries[slug] = it
				mu.Unlock()
			}
		}()
	}
	for _, name := range names {
		if ctx.Err() != nil {
			break
		}
		if !strings.HasSuffix(name, ".md") {
			if atomicfile.IsTemp(name) {
				s.log.Warn("leftover temp file from an interrupted write", "file", path.Join(dir, name))
			}
			continue
		}
		if !content.ValidHandle(strings.TrimSuffix(name, ".md")) {
			s.problem(path.Join(dir, name), errors.New("file name is not a valid slug"))
			continue
		}
		work <- strings.TrimSuffix(name, ".md")
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, content.Internalf(op, dir, err)
	}
	ix.version = s.bump()
	s.collMu.Lock()
	if old := s.colls[c]; old != nil {
		// Someone built it meanwhile; keep the newer one.
		s.collMu.Unlock()
		return old, nil
	}
	s.colls[c] = ix
	s.collMu.Unlock()
	s.snapshotChanged()
	return ix, nil
}

// readIndexed reads and parses one entry file for the index (body dropped).
func (s *Index) readIndexed(c, slug string) (*indexed, error) {
	return s.readIndexedIn(nil, nil, c, slug)
}

// readIndexedIn is readIndexed with the collection folder already open (dir may be nil) and
// values repeated across entries shared through shared (may be nil).
func (s *Index) readIndexedIn(dir *dirReader, shared *frontmatter.Interner, c, slug string) (*indexed, error) {
	p := s.entryPath(c, slug)
	// Read into a reused buffer: the index keeps no part of the file, and fresh buffers for
	// 100,000 files were most of the garbage of a cold start.
	bp, _ := s.bufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer s.bufs.Put(bp)
	var (
		raw         []byte
		size, mtime int64
		err         error
	)
	// Before the read: a write in a clock tick that ended before this instant was read. The
	// real clock, not Config.Now: file times come from it.
	start := time.Now().UnixNano()
	if dir != nil {
		raw, size, mtime, err = dir.read(slug+".md", bp)
	} else {
		raw, size, mtime, err = readVia(s.root, p, bp)
	}
	if err != nil {
		return nil, err
	}
	// The record and the entry in one allocation: fewer objects for every collection to mark.
	x := new(struct {
		it   indexed
		meta entryfile.Meta
	})
	if err := entryfile.ParseMetaInto(&x.meta, shared, c, slug, raw); err != nil {
		s.problem(p, err)
		return nil, err
	}
	e := &x.meta.Entry
	if s.renamedAway(c, slug, e.Version) {
		return nil, errRenamedAway
	}
	s.resolved(p)
	it := &x.it
	it.e, it.size = e, size
	it.mtime.Store(mtime)
	it.racy.Store(mtime > start-int64(racyWindow))
	return it, nil
}

// racyWindow is how close to its modification time a file must have been read for its stamp
// not to be trusted (see indexed.racy): beyond the coarsest file time resolution in use (FAT's
// two seconds) and small clock differences with a network file system.
const racyWindow = 3 * time.Second

// trusts reports whether it, indexed from a file, still describes a file of this size and
// modification time without reading it again.
func (it *indexed) trusts(size, mtime int64) bool {
	return it.mtime.Load() == mtime && it.size == size && !it.racy.Load()
}

var (
	errNotFile = errors.New("not a regular file")
	errShrunk  = errors.New("file shrank while it was read")
)

// readVia reads the regular file name under root into *buf (see dirReader.read).
func readVia(root *os.Root, name string, buf *[]byte) (raw []byte, size, mtime int64, err error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, 0, errNotFile // a folder named like an entry file
	}
	raw = grow(buf, st.Size())
	if _, err := readFull(f, raw); err != nil {
		return nil, 0, 0, err
	}
	return raw, st.Size(), st.ModTime().UnixNano(), nil
}

// stampVia returns the size and modification time of the regular file name under root,
// following links; ok is false when it is missing or not a regular file.
func stampVia(root *os.Root, name string) (size, mtime int64, ok bool) {
	st, err := root.Stat(name)
	if err != nil || !st.Mode().IsRegular() {
		return 0, 0, false
	}
	return st.Size(), st.ModTime().UnixNano(), true
}

// grow returns (*buf)[:n], reallocating it when it is too small.
func grow(buf *[]byte, n int64) []byte {
	if int64(cap(*buf)) < n {
		*buf = make([]byte, n, max(n, 8<<10))
	}
	return (*buf)[:n]
}

// readNames lists the names in a site-relative folder, in no particular order; a missing
// folder is empty.
func (s *Index) readNames(dir string) ([]string, error) {
	f, err := s.root.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

func readFull(f fs.File, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			if errors.Is(err, errIOEOF) && n == len(buf) {
				return n, nil
			}
			return n, err
		}
	}
	return n, nil
}

// reindex re-reads one entry (after a notification) or drops it when gone.
func (s *Index) reindex(ix *collIndex, slug string) {
	p := s.entryPath(ix.handle, slug)
	st, statErr := s.root.Stat(p)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	cur := ix.entries[slug]
	if statErr != nil {
		if cur != nil {
			ix.set(s, slug, nil)
		}
		s.resolved(p)
		return
	}
	if cur != nil && cur.trusts(st.Size(), st.ModTime().UnixNano()) {
		return
	}
	it, err := s.readIndexed(ix.handle, slug)
	if err != nil {
		if cur != nil {
			ix.set(s, slug, nil)
		}
		return
	}
	if cur != nil && it.size == cur.size && it.e.Version == cur.e.Version {
		// The same content (a racy stamp re-read, a touched file, a snapshot that recorded no
		// time): the entry and its version stay; only the stamp is brought up to date.
		if m := it.mtime.Load(); cur.mtime.Swap(m) != m || cur.racy.Swap(it.racy.Load()) != it.racy.Load() {
			s.snapshotChanged()
		}
		return
	}
	ix.set(s, slug, it)
}

// set replaces (it != nil), adds or removes (it == nil) entry slug, keeping what queries
// derived from the entries up to date. It must be called with ix.mu held for writing.
func (ix *collIndex) set(s *Index, slug string, it *indexed) {
	ix.adoptSnapOrders()
	old := ix.entries[slug]
	if it == nil {
		delete(ix.entries, slug)
	} else {
		ix.entries[slug] = it
	}
	if ix.d != nil {
		ix.d.update(slug, old, it)
	}
	ix.searchUpdate(s, slug, it)
	ix.changed(s)
	s.changed(Change{Collection: ix.handle, Slug: slug})
}

// changed must be called with ix.mu held for writing.
func (ix *collIndex) changed(s *Index) {
	ix.version = s.bump()
	ix.sorted, ix.snapOrders = nil, nil
	s.snapshotChanged()
}

// rescan compares a collection folder with the index (stat only) and re-reads what differs.
// It lists names only and stats each entry file relative to the open folder: listing a folder
// opened in a root stats every file through os.File and sorts the names, which made the
// background check after a start from the snapshot cost more CPU than the start itself.
func (s *Index) rescan(c string) {
	s.collMu.RLock()
	ix := s.colls[c]
	s.collMu.RUnlock()
	if ix == nil {
		return
	}
	s.refreshRenames()
	dir := s.contentPath("collections", c)
	names, err := s.readNames(dir)
	if err != nil {
		return
	}
	seen := make(map[string]bool, len(names))
	if len(names) > 0 {
		rd, err := newDirReader(s.root, dir)
		if err != nil {
			return
		}
		defer rd.close()
		for _, name := range names {
			slug, ok := strings.CutSuffix(name, ".md")
			if !ok || !content.ValidHandle(slug) {
				continue
			}
			size, mtime, ok := rd.stamp(name)
			if !ok {
				continue // a folder named like an entry file, or gone since the listing
			}
			ix.mu.RLock()
			cur := ix.entries[slug]
			ix.mu.RUnlock()
			if cur != nil && s.renamedAway(c, slug, cur.e.Version) {
				continue // not seen: dropped below
			}
			seen[slug] = true
			if cur == nil || !cur.trusts(size, mtime) {
				s.reindex(ix, slug)
			}
		}
	}
	ix.mu.Lock()
	for slug := range ix.entries {
		if !seen[slug] {
			ix.set(s, slug, nil)
		}
	}
	ix.mu.Unlock()
}

// Version is the generation at which an entry of collection c last changed (0 before c is
// indexed). The store combines it with its definitions' generation for response caches.
func (s *Index) Version(c string) uint64 {
	s.applyPending()
	s.collMu.RLock()
	ix := s.colls[c]
	s.collMu.RUnlock()
	if ix == nil {
		return 0
	}
	ix.mu.RLock()
	v := ix.version
	ix.mu.RUnlock()
	return v
}

// Query returns the entries of collection coll matching q (without bodies) and the number that
// matched before paging. The returned entries are shared and must not be modified.
func (s *Index) Query(coll *content.Collection, q query.Query) ([]*content.Entry, int, error) {
	s.applyPending()
	ix, err := s.index(coll.Handle)
	if err != nil {
		return nil, 0, err
	}
	out, total, scanned := ix.query(coll, q)
	switch {
	case scanned:
		s.stats.scanned.Add(1)
	case hasRange(q.Filter):
		s.stats.ranged.Add(1)
		s.stats.indexed.Add(1)
	default:
		s.stats.indexed.Add(1)
	}
	return out, total, nil
}

func (ix *collIndex) defaultOrder(c *content.Collection) []*content.Entry {
	ix.mu.RLock()
	sorted := ix.sorted
	ix.mu.RUnlock()
	if sorted != nil {
		return sorted
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.sorted != nil {
		return ix.sorted
	}
	keys := query.DefaultOrder(c)
	all := make([]*content.Entry, 0, len(ix.entries))
	if d := ix.d; d != nil && d.orders[orderKey(keys)] != nil && d.n == len(ix.entries) {
		// Queries keep this order up to date: copy it rather than sort again.
		for _, id := range d.orders[orderKey(keys)].ids {
			it := d.slots[id]
			it.decode()
			all = append(all, it.e)
		}
		ix.sorted, ix.sortedKey = all, orderKey(keys)
		return all
	}
	for _, it := range ix.entries {
		it.decode() // the order of a sortable collection is a custom field
		all = append(all, it.e)
	}
	query.Sort(all, keys)
	ix.sorted, ix.sortedKey = all, orderKey(keys)
	return all
}

// Get returns the indexed entry c/slug without its body, or a NotFound error. The caller has
// checked that c is defined and slug is a valid handle.
func (s *Index) Get(c, slug string) (*content.Entry, error) {
	const op = "fsstore.EntryMeta"
	s.applyPending()
	ix, err := s.index(c)
	if err != nil {
		return nil, err
	}
	ix.mu.RLock()
	it := ix.entries[slug]
	ix.mu.RUnlock()
	if it == nil {
		return nil, content.NotFoundf(op, slug, "Entry %q not found", c+"/"+slug)
	}
	it.decode()
	return it.e, nil
}

var errIOEOF = io.EOF
