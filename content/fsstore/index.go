package fsstore

// The store's side of the entry index, its snapshot and generation file (internal/index).

import (
	"context"

	"cms/content"
	"cms/content/fsstore/internal/index"
	"cms/content/search"
)

// Files of the snapshot mechanism, relative to the site folder (see internal/index/snapshot.go).
const (
	SnapshotFile   = index.SnapshotFile
	GenerationFile = index.GenerationFile
	// RenamesDir holds the intent records of renames in progress (rename.go).
	RenamesDir = index.RenamesDir
)

// SnapshotDelay is how long a writer waits after a change before rewriting the snapshot, so a
// burst of saves costs one snapshot.
const SnapshotDelay = index.SnapshotDelay

// IndexInfo describes where the entry index came from; health checks and tests read it.
type IndexInfo = index.Info

// IndexInfo reports where the entry index came from (zero without Options.Snapshot).
func (s *Store) IndexInfo() IndexInfo { return s.ix.Info() }

// QueryStats counts list queries by how the index answered them: from its postings and sorted
// orders, or by a scan of the collection (filter values it cannot index, such as null or a list).
type QueryStats = index.QueryStats

// QueryStats reports how Entries queries were answered since the store was opened.
func (s *Store) QueryStats() QueryStats { return s.ix.QueryStats() }

// Refresh picks up what writer processes published, with one stat of the generation file when
// nothing changed. The Lambda runner calls it once per request; it does nothing unless the watch
// mode is WatchGeneration.
func (s *Store) Refresh() { s.ix.Refresh() }

// WriteSnapshot compares every collection with its files (by file stamps, so an edit that a copy
// made in place is found too), writes the index snapshot and announces it with a new
// generation, so running readers reload it. `cms snapshot` runs it after a site folder was
// copied into place.
func (s *Store) WriteSnapshot(ctx context.Context) error {
	const op = "fsstore.WriteSnapshot"
	if !s.opts.Snapshot {
		return content.Invalidf(op, "the store was opened without Options.Snapshot")
	}
	if err := s.writable(op); err != nil {
		return err
	}
	return s.ix.WriteSnapshot(ctx)
}

// ProgressEvery is how many entry files an index build reads between progress reports.
const ProgressEvery = index.ProgressEvery

// WithProgress returns a context under which building the entry index from files (Open without
// a usable snapshot) calls report with the number of entry files read so far, every
// ProgressEvery files; see index.WithProgress.
func WithProgress(ctx context.Context, report func(indexed int)) context.Context {
	return index.WithProgress(ctx, report)
}

// Search runs a full-text search over collection c (see content/search): entries holding every
// word of q.Text, best first, and how many matched. The collection's search index is built from
// its files on the first search and kept up to date by every change after that.
func (s *Store) Search(c string, q search.Query) ([]search.Result, int, error) {
	if _, err := s.Collection(c); err != nil {
		return nil, 0, err
	}
	return s.ix.Search(c, q)
}

// SearchMemory estimates the heap bytes of the full-text indexes built so far.
func (s *Store) SearchMemory() int64 { return s.ix.SearchMemory() }
