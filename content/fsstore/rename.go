package fsstore

// Crash-consistent slug renames.
//
// Renaming an entry creates its file under the new slug and removes the old file: two steps, and a
// process killed between them left both files, both served. So a rename first writes an intent
// record, .cms/renames/{collection}.{from}.json (handles hold no dots), naming both slugs with the
// SHA-256 of the old file and of the new content, and removes it once the old file is gone.
//
// A store that can write resolves what a killed process left before it indexes anything: when the
// new file is exactly the content the rename wrote, the rename is finished (the old file is
// removed, but only if it still holds exactly the old content); otherwise it never happened and
// the old file stays. Files whose content is not what the record names are never removed, so a
// record that outlived its rename cannot delete an entry created later under either slug.
//
// A store that cannot write (a frontend on a read-only mount) hides the old file of a rename whose
// new file is complete, so it serves the entry under one slug, the new one, as a writer will once
// it resolves the record. It re-reads the records whenever it applies file changes or rescans.
// The record format and that read side are in internal/index (renames.go).

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"cms/content"
	"cms/content/fsstore/internal/index"
	"cms/content/internal/atomicfile"
)

// renameEntryFile moves the entry c/from, whose file has hash oldHash, to c/to with content raw.
// The caller holds the locks of both paths.
func (s *Store) renameEntryFile(op, c, from, to, oldHash string, raw []byte) error {
	oldPath, newPath := s.entryPath(c, from), s.entryPath(c, to)
	conflict := func() error {
		return content.Conflictf(op, "Entry with slug %q already exists in collection %q", to, c)
	}
	if _, err := s.root.Lstat(newPath); err == nil {
		return conflict()
	}
	sum := sha256.Sum256(raw)
	ip := index.RenameIntentPath(c, from)
	rec, err := json.Marshal(index.RenameIntent{V: 1, Collection: c, From: from, To: to, OldHash: oldHash, NewHash: hex.EncodeToString(sum[:])})
	if err != nil {
		return content.Internalf(op, ip, err)
	}
	sync := atomicfile.Options{NoSync: s.opts.NoSync}
	if err := atomicfile.Write(s.root, ip, rec, sync); err != nil {
		return content.Internalf(op, ip, fmt.Errorf("write rename record: %w", err))
	}
	// From here on a crash is resolved at the next start.
	if err := atomicfile.Write(s.root, newPath, raw, atomicfile.Options{Exclusive: true, NoSync: s.opts.NoSync}); err != nil {
		s.dropRenameIntent(ip)
		if errors.Is(err, fs.ErrExist) {
			return conflict()
		}
		return content.Internalf(op, newPath, err)
	}
	// Not there any more: another writer process resolved this record meanwhile (it saw the new
	// file complete), which is this rename finished.
	if err := atomicfile.Remove(s.root, oldPath, sync); err != nil && !errors.Is(err, fs.ErrNotExist) {
		_ = atomicfile.Remove(s.root, newPath, sync)
		s.dropRenameIntent(ip)
		return content.Internalf(op, oldPath, err)
	}
	s.dropRenameIntent(ip)
	return nil
}

func (s *Store) dropRenameIntent(ip string) {
	err := atomicfile.Remove(s.root, ip, atomicfile.Options{NoSync: s.opts.NoSync})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// Harmless: the record names contents, so resolving it later removes nothing else.
		s.log.Warn("cannot remove a rename record; it is resolved at the next start", "file", ip, "err", err)
	}
}

// resolveRenames finishes or undoes the renames a killed process left half done. Writable
// stores call it when they open, before indexing.
func (s *Store) resolveRenames() {
	recs, files, problems := index.RenameIntents(s.root, s.log)
	sync := atomicfile.Options{NoSync: s.opts.NoSync}
	for p, err := range problems {
		// Nothing can be decided from it; both files, if there are two, stay for a person to sort.
		s.log.Warn("removing an unreadable rename record; no entry file was touched", "file", p, "err", err)
		_ = atomicfile.Remove(s.root, p, sync)
	}
	for i, in := range recs {
		oldPath := s.entryPath(in.Collection, in.From)
		newComplete, oldUnchanged := in.Done(s.root, s.opts.ContentDir)
		from, to := in.Collection+"/"+in.From, in.Collection+"/"+in.To
		switch {
		case newComplete && oldUnchanged:
			if err := atomicfile.Remove(s.root, oldPath, sync); err != nil && !errors.Is(err, fs.ErrNotExist) {
				s.log.Error("cannot finish an interrupted rename; both files are kept", "from", from, "to", to, "err", err)
				continue // keep the record: the next start tries again, and read-only stores hide the old file
			}
			s.log.Info("finished an interrupted rename", "from", from, "to", to)
		case newComplete:
			if _, err := s.root.Lstat(oldPath); err == nil {
				s.log.Warn("an interrupted rename finished, but the old file changed since; both files are kept", "from", from, "to", to)
			} else {
				s.log.Info("an interrupted rename had finished", "from", from, "to", to)
			}
		default:
			// The new file is missing or is not what the rename wrote (an entry that already had
			// that slug): the rename did not happen.
			s.log.Info("undid an interrupted rename; the entry keeps its old slug", "from", from, "to", to)
		}
		s.dropRenameIntent(files[i])
	}
}
