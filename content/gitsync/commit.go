package gitsync

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"cms/content/internal/atomicfile"
)

// gitRepo is one repository, opened with go-git: pure Go, so it works where no git binary exists
// (the Lambda writer). It never scans the work tree: a commit is HEAD's tree with the queued
// paths replaced, so it costs the same at 100,000 files as at 100.
type gitRepo struct {
	root   string // the work tree's root folder
	gitDir string // where HEAD and the index are (.git, or a worktree's folder inside it)
	r      *git.Repository
	trees  treeCache
}

// treeCache keeps the entries of the last large trees written, so the next commit of the same
// folder need not read back and decode what it just wrote. Used under the repository's run lock.
type treeCache struct {
	m     map[plumbing.Hash][]object.TreeEntry
	order []plumbing.Hash
}

const (
	cachedTreeMin = 512 // entries; smaller trees are cheap to read
	cachedTrees   = 8
)

func (c *treeCache) get(h plumbing.Hash) ([]object.TreeEntry, bool) {
	e, ok := c.m[h]
	return e, ok
}

func (c *treeCache) put(h plumbing.Hash, entries []object.TreeEntry) {
	if len(entries) < cachedTreeMin {
		return
	}
	if c.m == nil {
		c.m = map[plumbing.Hash][]object.TreeEntry{}
	}
	if _, ok := c.m[h]; ok {
		return
	}
	if len(c.order) == cachedTrees {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[h] = entries
	c.order = append(c.order, h)
}

func openRepo(root string) (*gitRepo, error) {
	r, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
	if err != nil {
		return nil, fmt.Errorf("open repository: %w", err)
	}
	st, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return nil, errors.New("open repository: not a repository on disk")
	}
	return &gitRepo{root: root, gitDir: st.Filesystem().Root(), r: r}, nil
}

// errDetached is the error of a repository whose HEAD names no branch.
var errDetached = errors.New("HEAD is detached: check out a branch for git sync to commit to")

// branch returns the checked-out branch.
func (g *gitRepo) branch() (plumbing.ReferenceName, error) {
	head, err := g.r.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	if head.Type() != plumbing.SymbolicReference || !head.Target().IsBranch() {
		return "", errDetached
	}
	return head.Target(), nil
}

// change is one path of a commit: a blob to set, or a path (a file or a folder) to delete.
type change struct {
	path string // repository-relative
	del  bool
	hash plumbing.Hash
	mode filemode.FileMode
	info fs.FileInfo
}

// commitReq is what to commit.
type commitReq struct {
	paths     []string          // repository-relative
	keep      func(string) bool // whether a file found in a queued folder is committed
	message   string
	author    object.Signature
	committer object.Signature
}

// commit writes a commit of HEAD's tree with req.paths as they are on disk now, moves the branch
// to it (only if the branch has not moved meanwhile; else it starts again on the new tip) and
// brings those paths' index entries along. It returns the zero hash when the paths are already
// committed as they are.
func (g *gitRepo) commit(req commitReq) (plumbing.Hash, error) {
	branch, err := g.branch()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	changes, err := g.changes(req.paths, req.keep)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	for attempt := 0; ; attempt++ {
		tip, err := g.r.Storer.Reference(branch)
		if err != nil && !errors.Is(err, plumbing.ErrReferenceNotFound) {
			return plumbing.ZeroHash, fmt.Errorf("read %s: %w", branch, err)
		}
		var base plumbing.Hash
		var parents []plumbing.Hash
		if tip != nil {
			c, err := object.GetCommit(g.r.Storer, tip.Hash())
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("read commit %s: %w", tip.Hash(), err)
			}
			base, parents = c.TreeHash, []plumbing.Hash{c.Hash}
		}
		old := map[string]plumbing.Hash{}
		ig := newIgnores(g.root, g.gitDir)
		tree, _, err := g.apply(base, "", changes, old, ig)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if tree == base && tip != nil {
			return plumbing.ZeroHash, nil
		}
		if tree.IsZero() {
			if tree, err = g.store(&object.Tree{}); err != nil {
				return plumbing.ZeroHash, err
			}
		}
		h, err := g.store(&object.Commit{Author: req.author, Committer: req.committer, Message: req.message, TreeHash: tree, ParentHashes: parents})
		if err != nil {
			return plumbing.ZeroHash, err
		}
		err = g.r.Storer.CheckAndSetReference(plumbing.NewHashReference(branch, h), tip)
		if errors.Is(err, storage.ErrReferenceHasChanged) && attempt < 5 {
			continue // someone committed meanwhile: build on their commit
		}
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("update %s: %w", branch, err)
		}
		return h, g.updateIndex(slices.DeleteFunc(changes, func(c change) bool { return ig.skipped[c.path] }), old)
	}
}

type encoder interface {
	Encode(plumbing.EncodedObject) error
}

func (g *gitRepo) store(o encoder) (plumbing.Hash, error) {
	obj := g.r.Storer.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return g.r.Storer.SetEncodedObject(obj)
}

// changes reads the queued paths from disk: each file becomes a blob, a missing path a deletion,
// a folder the files in it that keep accepts.
func (g *gitRepo) changes(paths []string, keep func(string) bool) ([]change, error) {
	var out []change
	for _, p := range paths {
		abs := filepath.Join(g.root, filepath.FromSlash(p))
		fi, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist) || (err != nil && isNotDir(err)):
			out = append(out, change{path: p, del: true})
		case err != nil:
			return nil, err
		case fi.IsDir():
			err := filepath.WalkDir(abs, func(f string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if d.IsDir() {
					if d.Name() == ".git" {
						return fs.SkipDir
					}
					return nil
				}
				rel, err := filepath.Rel(g.root, f)
				if err != nil {
					return err
				}
				rel = filepath.ToSlash(rel)
				if atomicfile.IsTemp(d.Name()) || (keep != nil && !keep(rel)) {
					return nil
				}
				info, err := d.Info()
				if err != nil {
					return err
				}
				c, err := g.blob(rel, f, info)
				if err == nil && c != nil {
					out = append(out, *c)
				}
				return err
			})
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		default:
			c, err := g.blob(p, abs, fi)
			if err != nil {
				return nil, err
			}
			if c != nil {
				out = append(out, *c)
			}
		}
	}
	return out, nil
}

func isNotDir(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "not a directory")
}

// blob stores one file (a regular file or a symbolic link) as a blob; other kinds are skipped.
func (g *gitRepo) blob(rel, abs string, fi fs.FileInfo) (*change, error) {
	obj := g.r.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	mode := filemode.Regular
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(abs)
		if err != nil {
			return nil, err
		}
		mode = filemode.Symlink
		obj.SetSize(int64(len(target)))
		w, err := obj.Writer()
		if err != nil {
			return nil, err
		}
		if _, err := io.WriteString(w, target); err != nil {
			return nil, err
		}
		_ = w.Close()
	case fi.Mode().IsRegular():
		if fi.Mode()&0o111 != 0 {
			mode = filemode.Executable
		}
		f, err := os.Open(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return &change{path: rel, del: true}, nil // removed since it was listed
		}
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err = f.Stat(); err != nil {
			return nil, err
		}
		obj.SetSize(fi.Size())
		w, err := obj.Writer()
		if err != nil {
			return nil, err
		}
		if _, err := io.Copy(w, f); err != nil {
			return nil, err
		}
		_ = w.Close()
	default:
		return nil, nil
	}
	h, err := g.r.Storer.SetEncodedObject(obj)
	if err != nil {
		return nil, err
	}
	return &change{path: rel, hash: h, mode: mode, info: fi}, nil
}

// treeKey is the name a tree entry sorts by: git sorts a folder as if its name ended in '/'.
func treeKey(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}

// find returns the index of the entry called name in entries (sorted by treeKey), or -1.
func find(entries []object.TreeEntry, name string) int {
	for _, k := range [2]string{name, name + "/"} {
		i := sort.Search(len(entries), func(i int) bool { return treeKey(entries[i]) >= k })
		if i < len(entries) && entries[i].Name == name {
			return i
		}
	}
	return -1
}

// put places e in entries, keeping them sorted.
func put(entries []object.TreeEntry, e object.TreeEntry) []object.TreeEntry {
	k := treeKey(e)
	i := sort.Search(len(entries), func(i int) bool { return treeKey(entries[i]) >= k })
	return slices.Insert(entries, i, e)
}

// apply returns the tree that is base with changes (paths relative to it) applied, and whether
// it holds anything; only the trees on the changed paths are read and written. old receives the
// blob each changed file had before (for the index).
func (g *gitRepo) apply(base plumbing.Hash, prefix string, changes []change, old map[string]plumbing.Hash, ig *ignores) (plumbing.Hash, bool, error) {
	var entries []object.TreeEntry
	if cached, ok := g.trees.get(base); ok {
		entries = slices.Clone(cached)
	} else if !base.IsZero() {
		t, err := object.GetTree(g.r.Storer, base)
		if err != nil {
			return plumbing.ZeroHash, false, fmt.Errorf("read tree %s: %w", base, err)
		}
		entries = slices.Clone(t.Entries)
	}
	sub := map[string][]change{}
	var names []string
	changed := false
	for _, c := range changes {
		rel := strings.TrimPrefix(c.path, prefix)
		if name, _, ok := strings.Cut(rel, "/"); ok {
			if _, seen := sub[name]; !seen {
				names = append(names, name)
			}
			sub[name] = append(sub[name], c)
			continue
		}
		i := find(entries, rel)
		if i >= 0 {
			if entries[i].Mode != filemode.Dir {
				old[c.path] = entries[i].Hash
			}
			if !c.del && entries[i].Mode == c.mode && entries[i].Hash == c.hash {
				continue
			}
			entries = slices.Delete(entries, i, i+1)
			changed = true
		}
		if !c.del {
			if i < 0 && ig.ignored(c.path) {
				ig.skipped[c.path] = true // untracked and ignored: git add would refuse it too
				continue
			}
			entries = put(entries, object.TreeEntry{Name: rel, Mode: c.mode, Hash: c.hash})
			changed = true
		}
	}
	for _, name := range names {
		var childBase plumbing.Hash
		i := find(entries, name)
		if i >= 0 && entries[i].Mode == filemode.Dir {
			childBase = entries[i].Hash
		}
		h, nonEmpty, err := g.apply(childBase, prefix+name+"/", sub[name], old, ig)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if h == childBase && i >= 0 {
			continue
		}
		if i >= 0 {
			entries = slices.Delete(entries, i, i+1)
			changed = true
		}
		if nonEmpty {
			entries = put(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
			changed = true
		}
	}
	if !changed {
		return base, len(entries) > 0, nil
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, false, nil
	}
	h, err := g.storeTree(&object.Tree{Entries: entries})
	if err == nil {
		g.trees.put(h, entries)
	}
	return h, true, err
}

// errIndexLocked is returned while another git holds the index lock.
var errIndexLocked = errors.New("the repository's index is locked by another git process (index.lock exists); will retry")

// updateIndex brings the index entries of the committed paths to the commit, so `git status`
// shows them clean, under git's own lock (index.lock). Every other entry is left as it is, and
// so is an entry the user staged differently from what HEAD had (their staged change stays).
// Like git, it does not fsync the index: it is rebuilt from HEAD and the files if lost.
func (g *gitRepo) updateIndex(changes []change, old map[string]plumbing.Hash) error {
	edits := make([]indexEdit, 0, len(changes))
	for _, c := range changes {
		was, inHead := old[c.path]
		edits = append(edits, indexEdit{c: c, was: was, inHead: inHead})
	}
	name := filepath.Join(g.gitDir, "index")
	lock, err := os.OpenFile(name+".lock", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return errIndexLocked
	}
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			_ = lock.Close()
			_ = os.Remove(name + ".lock")
		}
	}()
	raw, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	out, err := patchIndex(raw, edits, g.root)
	if errors.Is(err, errIndexFormat) {
		out, err = decodeAndUpdateIndex(raw, edits, g.root)
	}
	if err != nil {
		return err
	}
	if _, err := lock.Write(out); err != nil {
		return err
	}
	if err := lock.Close(); err != nil {
		return err
	}
	done = true
	if err := os.Rename(name+".lock", name); err != nil {
		_ = os.Remove(name + ".lock")
		return err
	}
	return nil
}

// decodeAndUpdateIndex is updateIndex's way for an index patchIndex does not edit (version 4,
// or none yet): decode it with go-git, edit, encode.
func decodeAndUpdateIndex(raw []byte, edits []indexEdit, root string) ([]byte, error) {
	idx := &index.Index{Version: 2}
	if raw != nil {
		if err := index.NewDecoder(bytes.NewReader(raw)).Decode(idx); err != nil {
			return nil, fmt.Errorf("read the index (left as it is): %w", err)
		}
	}
	if idx.Version > index.EncodeVersionSupported {
		return nil, fmt.Errorf("index version %d: left as it is", idx.Version)
	}
	byName := make(map[string]*index.Entry, len(idx.Entries))
	for _, e := range idx.Entries {
		byName[e.Name] = e
	}
	drop := map[*index.Entry]bool{}
	for _, ed := range edits {
		c := ed.c
		e := byName[c.path]
		if c.del {
			if e != nil && ed.inHead && e.Hash == ed.was {
				drop[e] = true
			}
			for n, e := range byName { // a removed folder
				if strings.HasPrefix(n, c.path+"/") {
					if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(n))); errors.Is(err, fs.ErrNotExist) {
						drop[e] = true
					}
				}
			}
			continue
		}
		switch {
		case e == nil && !ed.inHead:
			e = &index.Entry{Name: c.path}
			idx.Entries = append(idx.Entries, e)
			byName[c.path] = e
		case e == nil || !ed.inHead || e.Hash != ed.was || e.Stage != 0 || e.SkipWorktree || e.IntentToAdd:
			continue // (go-git calls stage 0 nothing; its Merged is 1) the user's staged change stays
		}
		e.Hash, e.Mode = c.hash, c.mode
		if c.info != nil {
			e.Size, e.ModifiedAt = uint32(c.info.Size()), c.info.ModTime()
		}
	}
	if len(drop) > 0 {
		idx.Entries = slices.DeleteFunc(idx.Entries, func(e *index.Entry) bool { return drop[e] })
	}
	idx.Cache = nil // the cached trees are stale now; git rebuilds them
	idx.ResolveUndo = nil
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
