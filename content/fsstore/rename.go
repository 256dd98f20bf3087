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

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// RenamesDir holds the intent records of renames in progress, relative to the site folder.
const RenamesDir = ".cms/renames"

// errRenamedAway stands for an entry file a read-only store hides: an interrupted rename moved it.
var errRenamedAway = errors.New("entry was renamed; its old file is left over from an interrupted rename")

// renameIntent is the record of one rename.
type renameIntent struct {
	V          int    `json:"v"`
	Collection string `json:"collection"`
	From       string `json:"from"`
	To         string `json:"to"`
	OldHash    string `json:"oldHash"` // SHA-256 of the file under From when the rename started
	NewHash    string `json:"newHash"` // SHA-256 of the file written under To
}

func renameIntentPath(c, from string) string { return path.Join(RenamesDir, c+"."+from+".json") }

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
	ip := renameIntentPath(c, from)
	rec, err := json.Marshal(renameIntent{V: 1, Collection: c, From: from, To: to, OldHash: oldHash, NewHash: hex.EncodeToString(sum[:])})
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

// renameIntents reads the records of unfinished renames, in name order. A record that cannot be
// read or names an impossible rename is returned as a problem with its file.
func (s *Store) renameIntents() (recs []renameIntent, files []string, problems map[string]error) {
	ents, err := fs.ReadDir(s.root.FS(), RenamesDir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("cannot read the records of unfinished renames", "folder", RenamesDir, "err", err)
		}
		return nil, nil, nil
	}
	for _, de := range ents {
		name := de.Name()
		if de.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue // temp files of the atomic writes are swept at start-up
		}
		p := path.Join(RenamesDir, name)
		var in renameIntent
		raw, err := s.root.ReadFile(p)
		if err == nil {
			err = json.Unmarshal(raw, &in)
		}
		if err == nil && (in.V != 1 || !content.ValidHandle(in.Collection) || !content.ValidHandle(in.From) ||
			!content.ValidHandle(in.To) || in.From == in.To || p != renameIntentPath(in.Collection, in.From)) {
			err = errors.New("not a rename record of this version")
		}
		if err != nil {
			if problems == nil {
				problems = map[string]error{}
			}
			problems[p] = err
			continue
		}
		recs, files = append(recs, in), append(files, p)
	}
	return recs, files, problems
}

// renameDone reports whether the new file of a rename holds exactly what the rename wrote, and
// whether the old file still holds exactly what it held when the rename started.
func (s *Store) renameDone(in renameIntent) (newComplete, oldUnchanged bool) {
	return s.fileHash(s.entryPath(in.Collection, in.To)) == in.NewHash,
		s.fileHash(s.entryPath(in.Collection, in.From)) == in.OldHash
}

// fileHash is the hex SHA-256 of a site-relative file, or "" when it cannot be read.
func (s *Store) fileHash(p string) string {
	raw, err := s.root.ReadFile(p)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// resolveRenames finishes or undoes the renames a killed process left half done. Writable
// stores call it when they open, before indexing.
func (s *Store) resolveRenames() {
	recs, files, problems := s.renameIntents()
	sync := atomicfile.Options{NoSync: s.opts.NoSync}
	for p, err := range problems {
		// Nothing can be decided from it; both files, if there are two, stay for a person to sort.
		s.log.Warn("removing an unreadable rename record; no entry file was touched", "file", p, "err", err)
		_ = atomicfile.Remove(s.root, p, sync)
	}
	for i, in := range recs {
		oldPath := s.entryPath(in.Collection, in.From)
		newComplete, oldUnchanged := s.renameDone(in)
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

// renameView is what a read-only store hides: "collection/slug" -> hash of the old file of an
// interrupted rename whose new file is complete.
type renameView struct {
	hide map[string]string
}

// renameState holds the renameView of a read-only store, loaded on first use.
type renameState struct {
	once sync.Once
	view atomic.Pointer[renameView]
}

func (s *Store) readRenameView() *renameView {
	v := &renameView{}
	recs, _, _ := s.renameIntents()
	for _, in := range recs {
		if newComplete, _ := s.renameDone(in); newComplete {
			if v.hide == nil {
				v.hide = map[string]string{}
			}
			v.hide[in.Collection+"/"+in.From] = in.OldHash
		}
	}
	return v
}

// renamedAway reports whether the entry c/slug, whose file has hash hash, is the left-over old
// file of an interrupted rename that a read-only store must not serve. Writable stores resolved
// every record when they opened and never hide anything.
func (s *Store) renamedAway(c, slug, hash string) bool {
	if !s.opts.ReadOnly {
		return false
	}
	s.renames.once.Do(func() {
		if s.renames.view.Load() == nil {
			s.renames.view.CompareAndSwap(nil, s.readRenameView())
		}
	})
	v := s.renames.view.Load()
	if v == nil {
		return false
	}
	old, ok := v.hide[c+"/"+slug]
	return ok && old == hash
}

// refreshRenames re-reads the rename records of a read-only store and drops from the index the
// old entries of renames that completed since the last read. It runs before file changes are
// applied, so the new file of a rename is not shown beside its old one.
func (s *Store) refreshRenames() {
	if !s.opts.ReadOnly {
		return
	}
	v := s.readRenameView()
	prev := s.renames.view.Swap(v)
	for key, hash := range v.hide {
		if prev != nil && prev.hide[key] == hash {
			continue
		}
		c, slug, _ := strings.Cut(key, "/")
		s.collMu.RLock()
		ix := s.colls[c]
		s.collMu.RUnlock()
		if ix == nil {
			continue // indexed later, through readIndexedIn, which hides it
		}
		ix.mu.Lock()
		// Its file did not change, so a re-index would keep it: drop it by its content.
		if cur := ix.entries[slug]; cur != nil && cur.e.Hash == hash {
			delete(ix.entries, slug)
			ix.changed(s)
		}
		ix.mu.Unlock()
	}
}
