package index

// The read side of crash-consistent slug renames (the writer side, and the format's description,
// are in fsstore's rename.go): the intent records, and what a read-only store hides.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"cms/content"
)

// RenamesDir holds the intent records of renames in progress, relative to the site folder.
const RenamesDir = ".cms/renames"

// errRenamedAway stands for an entry file a read-only store hides: an interrupted rename moved it.
var errRenamedAway = errors.New("entry was renamed; its old file is left over from an interrupted rename")

// RenameIntent is the record of one rename.
type RenameIntent struct {
	V          int    `json:"v"`
	Collection string `json:"collection"`
	From       string `json:"from"`
	To         string `json:"to"`
	OldHash    string `json:"oldHash"` // SHA-256 of the file under From when the rename started
	NewHash    string `json:"newHash"` // SHA-256 of the file written under To
}

// RenameIntentPath is the site-relative file of the record of renaming c/from.
func RenameIntentPath(c, from string) string { return path.Join(RenamesDir, c+"."+from+".json") }

// RenameIntents reads the records of unfinished renames, in name order. A record that cannot be
// read or names an impossible rename is returned as a problem with its file.
func RenameIntents(root *os.Root, log *slog.Logger) (recs []RenameIntent, files []string, problems map[string]error) {
	ents, err := fs.ReadDir(root.FS(), RenamesDir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			log.Warn("cannot read the records of unfinished renames", "folder", RenamesDir, "err", err)
		}
		return nil, nil, nil
	}
	for _, de := range ents {
		name := de.Name()
		if de.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue // temp files of the atomic writes are swept at start-up
		}
		p := path.Join(RenamesDir, name)
		var in RenameIntent
		raw, err := root.ReadFile(p)
		if err == nil {
			err = json.Unmarshal(raw, &in)
		}
		if err == nil && (in.V != 1 || !content.ValidHandle(in.Collection) || !content.ValidHandle(in.From) ||
			!content.ValidHandle(in.To) || in.From == in.To || p != RenameIntentPath(in.Collection, in.From)) {
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

// Done reports whether the new file of the rename holds exactly what the rename wrote, and
// whether the old file still holds exactly what it held when the rename started. contentDir is
// the site-relative content folder.
func (in RenameIntent) Done(root *os.Root, contentDir string) (newComplete, oldUnchanged bool) {
	_, newHash := in.read(root, contentDir, in.To)
	_, oldHash := in.read(root, contentDir, in.From)
	return newHash == in.NewHash, oldHash == in.OldHash
}

// leftover reports whether the rename's new file holds exactly what the rename wrote and its old
// file still exactly what it held when the rename started: a left-over that a read-only store
// hides, which it knows by the returned Version of the old file (the index keeps no SHA-256).
func (in RenameIntent) leftover(root *os.Root, contentDir string) (version string, ok bool) {
	if _, h := in.read(root, contentDir, in.To); h != in.NewHash {
		return "", false
	}
	raw, h := in.read(root, contentDir, in.From)
	if h != in.OldHash {
		return "", false
	}
	return content.VersionOf(raw), true
}

// read returns the entry file of slug in the rename's collection and its hex SHA-256, or "" for
// a file that cannot be read. contentDir is the site-relative content folder.
func (in RenameIntent) read(root *os.Root, contentDir, slug string) ([]byte, string) {
	raw, err := root.ReadFile(path.Join(contentDir, "collections", in.Collection, slug+".md"))
	if err != nil {
		return nil, ""
	}
	sum := sha256.Sum256(raw)
	return raw, hex.EncodeToString(sum[:])
}

// renameView is what a read-only store hides: "collection/slug" -> the Version of the old file
// of an interrupted rename whose new file is complete.
type renameView struct {
	hide map[string]string
}

// renameState holds the renameView of a read-only store, loaded on first use.
type renameState struct {
	once sync.Once
	view atomic.Pointer[renameView]
}

func (s *Index) readRenameView() *renameView {
	v := &renameView{}
	recs, _, _ := RenameIntents(s.root, s.log)
	for _, in := range recs {
		if version, ok := in.leftover(s.root, s.opts.ContentDir); ok {
			if v.hide == nil {
				v.hide = map[string]string{}
			}
			v.hide[in.Collection+"/"+in.From] = version
		}
	}
	return v
}

// renamedAway reports whether the entry c/slug, whose file has Version version, is the left-over old
// file of an interrupted rename that a read-only store must not serve. Writable stores resolved
// every record when they opened and never hide anything.
func (s *Index) renamedAway(c, slug, version string) bool {
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
	return ok && old == version
}

// refreshRenames re-reads the rename records of a read-only store and drops from the index the
// old entries of renames that completed since the last read. It runs before file changes are
// applied, so the new file of a rename is not shown beside its old one.
func (s *Index) refreshRenames() {
	if !s.opts.ReadOnly {
		return
	}
	v := s.readRenameView()
	prev := s.renames.view.Swap(v)
	for key, version := range v.hide {
		if prev != nil && prev.hide[key] == version {
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
		if cur := ix.entries[slug]; cur != nil && cur.e.Version == version {
			ix.set(s, slug, nil)
		}
		ix.mu.Unlock()
	}
}
