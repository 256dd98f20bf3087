package fsstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"cms/content"
	"cms/content/entryfile"
	"cms/content/internal/atomicfile"
	"cms/content/query"
)

// collIndex is the in-memory metadata of one collection's entries. Entries in it never carry
// their body and are never mutated: a change replaces the pointer.
type collIndex struct {
	mu      sync.RWMutex
	handle  string
	entries map[string]*indexed
	version uint64
	sorted  []*content.Entry // default order cache, nil when stale
	post    postings         // equality index per filtered field, nil when stale
	// allDecoded is set once every snapshot-loaded entry has its custom fields decoded.
	allDecoded atomic.Bool
}

type indexed struct {
	e     *content.Entry
	mtime int64
	size  int64
	// raw is the encoded Data of an entry loaded from the index snapshot, decoded into e.Data
	// once, before e is first handed out or filtered on (ensureData); "" for entries read from
	// their files, whose Data is always set.
	raw  string
	once sync.Once
}

func (s *Store) entryPath(c, slug string) string {
	return s.contentPath("collections", c, slug+".md")
}

func (s *Store) loadAllIndexes(ctx context.Context) error {
	if s.snap != nil {
		return s.ensureIndex(ctx)
	}
	for _, c := range s.Collections() {
		if _, err := s.buildIndex(ctx, c.Handle); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) index(c string) (*collIndex, error) {
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
func (s *Store) buildIndex(ctx context.Context, c string) (*collIndex, error) {
	const op = "fsstore.buildIndex"
	dir := s.contentPath("collections", c)
	ents, err := s.readDir(dir)
	if err != nil {
		return nil, err
	}
	ix := &collIndex{handle: c, entries: make(map[string]*indexed, len(ents))}
	// Open the folder once: opening each file through the site root walks (and checks) every
	// path component again, which cost about a fifth of start-up time.
	var dirRoot *os.Root
	if len(ents) > 0 {
		if dirRoot, err = s.root.OpenRoot(dir); err != nil {
			return nil, content.Internalf(op, dir, err)
		}
		defer dirRoot.Close()
	}
	names := make(chan fs.DirEntry, 256)
	prog := progressFrom(ctx)
	var mu sync.Mutex
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0)*2, 16)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for de := range names {
				slug := strings.TrimSuffix(de.Name(), ".md")
				it, err := s.readIndexedIn(dirRoot, c, slug)
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
	for _, de := range ents {
		if ctx.Err() != nil {
			break
		}
		name := de.Name()
		if de.IsDir() || !strings.HasSuffix(name, ".md") {
			if atomicfile.IsTemp(name) {
				s.log.Warn("leftover temp file from an interrupted write", "file", path.Join(dir, name))
			}
			continue
		}
		if !content.ValidHandle(strings.TrimSuffix(name, ".md")) {
			s.problem(path.Join(dir, name), errors.New("file name is not a valid slug"))
			continue
		}
		names <- de
	}
	close(names)
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
func (s *Store) readIndexed(c, slug string) (*indexed, error) {
	return s.readIndexedIn(nil, c, slug)
}

// readIndexedIn is readIndexed with the collection folder already open (dir may be nil).
func (s *Store) readIndexedIn(dir *os.Root, c, slug string) (*indexed, error) {
	p := s.entryPath(c, slug)
	var f *os.File
	var err error
	if dir != nil {
		f, err = dir.Open(slug + ".md")
	} else {
		f, err = s.root.Open(p)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	// Read into a reused buffer: the index keeps no part of the file, and fresh buffers for
	// 100,000 files were most of the garbage of a cold start.
	bp, _ := s.bufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer s.bufs.Put(bp)
	if int64(cap(*bp)) < st.Size() {
		*bp = make([]byte, st.Size(), max(st.Size(), 8<<10))
	}
	raw := (*bp)[:st.Size()]
	if _, err := readFull(f, raw); err != nil {
		return nil, err
	}
	e, err := entryfile.ParseMeta(c, slug, raw)
	if err != nil {
		s.problem(p, err)
		return nil, err
	}
	if s.renamedAway(c, slug, e.Hash) {
		return nil, errRenamedAway
	}
	s.resolved(p)
	return &indexed{e: e, mtime: st.ModTime().UnixNano(), size: st.Size()}, nil
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
func (s *Store) reindex(ix *collIndex, slug string) {
	p := s.entryPath(ix.handle, slug)
	st, statErr := s.root.Stat(p)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	cur := ix.entries[slug]
	if statErr != nil {
		if cur != nil {
			delete(ix.entries, slug)
			ix.changed(s)
		}
		s.resolved(p)
		return
	}
	if cur != nil && cur.mtime == st.ModTime().UnixNano() && cur.size == st.Size() {
		return
	}
	it, err := s.readIndexed(ix.handle, slug)
	if err != nil {
		if cur != nil {
			delete(ix.entries, slug)
			ix.changed(s)
		}
		return
	}
	ix.entries[slug] = it
	ix.changed(s)
}

// changed must be called with ix.mu held for writing.
func (ix *collIndex) changed(s *Store) {
	ix.version = s.bump()
	ix.sorted = nil
	ix.post = nil
	s.snapshotChanged()
}

// rescan compares a collection folder with the index (stat only) and re-reads what differs.
func (s *Store) rescan(c string) {
	s.collMu.RLock()
	ix := s.colls[c]
	s.collMu.RUnlock()
	if ix == nil {
		return
	}
	s.refreshRenames()
	dir := s.contentPath("collections", c)
	ents, err := s.readDir(dir)
	if err != nil {
		return
	}
	seen := make(map[string]bool, len(ents))
	for _, de := range ents {
		name := de.Name()
		if de.IsDir() || !strings.HasSuffix(name, ".md") {
			continue
		}
		slug := strings.TrimSuffix(name, ".md")
		if !content.ValidHandle(slug) {
			continue
		}
		ix.mu.RLock()
		cur := ix.entries[slug]
		ix.mu.RUnlock()
		if cur != nil && s.renamedAway(c, slug, cur.e.Hash) {
			continue // not seen: dropped below
		}
		seen[slug] = true
		info, err := de.Info()
		if err != nil {
			continue
		}
		if cur == nil || cur.mtime != info.ModTime().UnixNano() || cur.size != info.Size() {
			s.reindex(ix, slug)
		}
	}
	ix.mu.Lock()
	for slug := range ix.entries {
		if !seen[slug] {
			delete(ix.entries, slug)
			ix.changed(s)
		}
	}
	ix.mu.Unlock()
}

// CollectionVersion changes whenever an entry of c or any definition changes; response caches
// key on it.
func (s *Store) CollectionVersion(c string) uint64 {
	d := s.definitions()
	s.applyPending()
	s.collMu.RLock()
	ix := s.colls[c]
	s.collMu.RUnlock()
	if ix == nil {
		return d.gen
	}
	ix.mu.RLock()
	v := ix.version
	ix.mu.RUnlock()
	return max(v, d.gen)
}

// Entries returns the entries of a collection matching q (without bodies) and the number that
// matched before paging. The returned entries are shared and must not be modified.
func (s *Store) Entries(c string, q query.Query) ([]*content.Entry, int, error) {
	coll, err := s.Collection(c)
	if err != nil {
		return nil, 0, err
	}
	s.applyPending()
	ix, err := s.index(c)
	if err != nil {
		return nil, 0, err
	}
	keys := q.Sort
	if len(q.Filter) > 0 || len(keys) > 0 {
		ix.ensureAllData() // filters and sort keys read custom fields
	}
	cands, narrowed := ix.candidates(q.Filter)
	if len(keys) == 0 && !narrowed {
		ordered := ix.defaultOrder(coll)
		out := make([]*content.Entry, 0, min(len(ordered), max(q.Limit, 16)))
		total := 0
		for _, e := range ordered {
			if (q.Status != "" && e.Status != q.Status) || !query.Match(e, q.Filter) {
				continue
			}
			total++
			if total > q.Offset && (q.Limit == 0 || len(out) < q.Limit) {
				out = append(out, e)
			}
		}
		ix.ensureData(out)
		return out, total, nil
	}
	if len(keys) == 0 {
		keys = query.DefaultOrder(coll)
	} else {
		keys = append(append([]query.SortKey{}, keys...), query.SortKey{Field: "slug"})
	}
	var matched []*content.Entry
	keep := func(e *content.Entry) {
		if (q.Status == "" || e.Status == q.Status) && query.Match(e, q.Filter) {
			matched = append(matched, e)
		}
	}
	ix.mu.RLock()
	if narrowed {
		matched = make([]*content.Entry, 0, len(cands))
		for _, e := range cands {
			keep(e)
		}
	} else {
		matched = make([]*content.Entry, 0, len(ix.entries))
		for _, it := range ix.entries {
			keep(it.e)
		}
	}
	ix.mu.RUnlock()
	total := len(matched)
	return query.TopK(matched, keys, q.Offset, q.Limit), total, nil
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
	all := make([]*content.Entry, 0, len(ix.entries))
	for _, it := range ix.entries {
		it.decode() // the order of a sortable collection is a custom field
		all = append(all, it.e)
	}
	query.Sort(all, query.DefaultOrder(c))
	ix.sorted = all
	return all
}

// EntryMeta returns an indexed entry without its body, or a NotFound error.
func (s *Store) EntryMeta(c, slug string) (*content.Entry, error) {
	const op = "fsstore.EntryMeta"
	if _, err := s.Collection(c); err != nil {
		return nil, err
	}
	if !content.ValidHandle(slug) {
		return nil, content.NotFoundf(op, slug, "Entry %q not found", c+"/"+slug)
	}
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

// Entry reads one entry with its body and content hash from disk, or returns a NotFound error.
func (s *Store) Entry(c, slug string) (*content.Entry, error) {
	const op = "fsstore.Entry"
	if _, err := s.Collection(c); err != nil {
		return nil, err
	}
	if !content.ValidHandle(slug) {
		return nil, content.NotFoundf(op, slug, "Entry %q not found", c+"/"+slug)
	}
	p := s.entryPath(c, slug)
	raw, err := s.root.ReadFile(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, content.NotFoundf(op, p, "Entry %q not found", c+"/"+slug)
		}
		return nil, content.Internalf(op, p, err)
	}
	e, err := entryfile.Parse(c, slug, raw)
	if err != nil {
		return nil, &content.Error{Kind: content.Internal, Op: op, Path: p, Err: err}
	}
	return e, nil
}

func (s *Store) nowISO() string { return s.now().UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// CreateEntry writes a new entry. Status defaults to the collection's defaultStatus, createdAt and
// updatedAt to now. A duplicate slug is a Conflict error.
func (s *Store) CreateEntry(e *content.Entry) (*content.Entry, error) {
	const op = "fsstore.CreateEntry"
	if err := s.writable(op); err != nil {
		return nil, err
	}
	coll, err := s.Collection(e.Collection)
	if err != nil {
		return nil, err
	}
	// Load the index before writing: loading after it would take this write for a hand edit.
	if _, err := s.index(e.Collection); err != nil {
		return nil, err
	}
	if !content.ValidHandle(e.Slug) {
		return nil, content.InvalidFields(op, "Invalid entry slug", map[string][]string{"slug": {"Invalid entry slug: use letters, digits, '-' and '_'"}})
	}
	n := *e
	n.Data = e.Data.Clone()
	if n.Status == "" {
		n.Status = coll.DefaultStatus
	}
	now := s.nowISO()
	if n.CreatedAt == "" {
		n.CreatedAt = now
	}
	n.UpdatedAt = now
	if n.Title == "" {
		n.Title = n.Slug
	}
	raw, err := entryfile.Format(&n)
	if err != nil {
		return nil, encodeFailed(op, e.Slug, err)
	}
	p := s.entryPath(n.Collection, n.Slug)
	unlock := s.lock(p)
	defer unlock()
	if err := atomicfile.Write(s.root, p, raw, atomicfile.Options{Exclusive: true, NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, content.Conflictf(op, "Entry with slug %q already exists in collection %q", n.Slug, n.Collection)
		}
		return nil, content.Internalf(op, p, err)
	}
	return s.afterWrite(&n, raw)
}

func (s *Store) afterWrite(e *content.Entry, raw []byte) (*content.Entry, error) {
	sum := sha256.Sum256(raw)
	e.Hash = hex.EncodeToString(sum[:])
	ix, err := s.index(e.Collection)
	if err != nil {
		return nil, err
	}
	s.reindex(ix, e.Slug)
	s.publishEntries(e.Collection, e.Slug)
	return e, nil
}

// UpdateEntry rewrites an entry when its file still has hash wantHash (optimistic concurrency).
// next is the complete new entry; a different next.Slug renames the file. A stale hash is a
// Conflict error whose Details carry both hashes.
func (s *Store) UpdateEntry(c, slug, wantHash string, next *content.Entry) (*content.Entry, error) {
	const op = "fsstore.UpdateEntry"
	if err := s.writable(op); err != nil {
		return nil, err
	}
	if _, err := s.Collection(c); err != nil {
		return nil, err
	}
	if _, err := s.index(c); err != nil { // before writing, as in CreateEntry
		return nil, err
	}
	if !content.ValidHandle(slug) {
		return nil, content.NotFoundf(op, slug, "Entry %q not found", c+"/"+slug)
	}
	if next.Slug == "" {
		next.Slug = slug
	}
	if !content.ValidHandle(next.Slug) {
		return nil, content.InvalidFields(op, "Invalid entry slug", map[string][]string{"slug": {"Invalid entry slug: use letters, digits, '-' and '_'"}})
	}
	oldPath, newPath := s.entryPath(c, slug), s.entryPath(c, next.Slug)
	unlock := s.lock2(oldPath, newPath)
	defer unlock()
	cur, err := s.Entry(c, slug)
	if err != nil {
		return nil, err
	}
	if cur.Hash != wantHash {
		return nil, &content.Error{Kind: content.Conflict, Op: op, Path: oldPath,
			Message: fmt.Sprintf("Content has been modified since it was loaded (submitted: %s, current: %s)", wantHash, cur.Hash),
			Details: ConflictDetails{SubmittedHash: wantHash, CurrentHash: cur.Hash}}
	}
	n := *next
	n.Collection = c
	n.CreatedAt = cur.CreatedAt
	n.UpdatedAt = s.nowISO()
	if n.Status == "" {
		n.Status = cur.Status
	}
	raw, err := entryfile.Format(&n)
	if err != nil {
		return nil, encodeFailed(op, oldPath, err)
	}
	if next.Slug == slug {
		if err := atomicfile.Write(s.root, oldPath, raw, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
			return nil, content.Internalf(op, oldPath, err)
		}
		return s.afterWrite(&n, raw)
	}
	if err := s.renameEntryFile(op, c, slug, next.Slug, cur.Hash, raw); err != nil {
		return nil, err
	}
	ix, err := s.index(c)
	if err == nil {
		s.reindex(ix, slug)
		s.publishEntries(c, slug)
	}
	return s.afterWrite(&n, raw)
}

// ConflictDetails are the facts of a stale-hash conflict.
type ConflictDetails struct {
	SubmittedHash string `json:"submittedHash"`
	CurrentHash   string `json:"currentHash"`
}

// DeleteEntry removes an entry file, or returns a NotFound error.
func (s *Store) DeleteEntry(c, slug string) error {
	const op = "fsstore.DeleteEntry"
	if err := s.writable(op); err != nil {
		return err
	}
	if _, err := s.Collection(c); err != nil {
		return err
	}
	if _, err := s.index(c); err != nil { // before writing, as in CreateEntry
		return err
	}
	if !content.ValidHandle(slug) {
		return content.NotFoundf(op, slug, "Entry %q not found", c+"/"+slug)
	}
	p := s.entryPath(c, slug)
	unlock := s.lock(p)
	defer unlock()
	if err := atomicfile.Remove(s.root, p, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return content.NotFoundf(op, p, "Entry %q not found", c+"/"+slug)
		}
		return content.Internalf(op, p, err)
	}
	if ix, err := s.index(c); err == nil {
		s.reindex(ix, slug)
		s.publishEntries(c, slug)
	}
	return nil
}

var errIOEOF = io.EOF
