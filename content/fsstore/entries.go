package fsstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"cms/content"
	"cms/content/entryfile"
	"cms/content/internal/atomicfile"
	"cms/content/query"
)

func (s *Store) entryPath(c, slug string) string {
	return s.contentPath("collections", c, slug+".md")
}

// CollectionVersion changes whenever an entry of c or any definition changes; response caches
// key on it.
func (s *Store) CollectionVersion(c string) uint64 {
	d := s.definitions()
	return max(s.ix.Version(c), d.gen)
}

// Entries returns the entries of a collection matching q (without bodies) and the number that
// matched before paging. The returned entries are shared and must not be modified.
func (s *Store) Entries(c string, q query.Query) ([]*content.Entry, int, error) {
	coll, err := s.Collection(c)
	if err != nil {
		return nil, 0, err
	}
	return s.ix.Query(coll, q)
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
	return s.ix.Get(c, slug)
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
	if err := s.ix.Ensure(e.Collection); err != nil {
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
	// As a submission's file: exclusive, atomic, fsync'd, and concurrent creates in a collection
	// share the fsync of its folder (group commit).
	if err := s.writeNewFile(path.Dir(p), path.Base(p), raw, !s.opts.NoSync); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, content.Conflictf(op, "Entry with slug %q already exists in collection %q", n.Slug, n.Collection)
		}
		return nil, content.Internalf(op, p, err)
	}
	s.changed("Created entry "+n.Collection+"/"+n.Slug, p)
	return s.afterWrite(&n, raw)
}

func (s *Store) afterWrite(e *content.Entry, raw []byte) (*content.Entry, error) {
	sum := sha256.Sum256(raw)
	e.Hash, e.Version = hex.EncodeToString(sum[:]), content.VersionOf(raw)
	if err := s.ix.Written(e.Collection, e.Slug); err != nil {
		return nil, err
	}
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
	if err := s.ix.Ensure(c); err != nil { // before writing, as in CreateEntry
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
		s.changed("Updated entry "+c+"/"+slug, oldPath)
		return s.afterWrite(&n, raw)
	}
	if err := s.renameEntryFile(op, c, slug, next.Slug, cur.Hash, raw); err != nil {
		return nil, err
	}
	s.changed("Renamed entry "+c+"/"+slug+" to "+c+"/"+next.Slug, oldPath, newPath)
	_ = s.ix.Written(c, slug) // the old slug: as in afterWrite, an index error is reported below
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
	if err := s.ix.Ensure(c); err != nil { // before writing, as in CreateEntry
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
	s.changed("Deleted entry "+c+"/"+slug, p)
	_ = s.ix.Written(c, slug) // the file is gone; an index that cannot load has nothing to drop
	return nil
}
