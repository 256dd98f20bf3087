package fsstore

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"
	"time"

	"cms/content"
	"cms/content/assetpath"
	"cms/content/frontmatter"
	"cms/content/internal/atomicfile"
)

// assetsRoot opens the assets folder as its own root, so that not even a symbolic link inside
// it can lead elsewhere in the site folder (to users/ or .sessions/). create makes the folder
// when it is missing; otherwise a missing folder is reported as fs.ErrNotExist.
func (s *Store) assetsRoot(create bool) (*os.Root, error) {
	if create {
		if err := s.root.MkdirAll(s.opts.AssetsDir, 0o755); err != nil {
			return nil, err
		}
	}
	return s.root.OpenRoot(s.opts.AssetsDir)
}

// sharedAssetsRoot returns the assets folder's root kept open between calls, for the read paths:
// reopening the folder (a walk of its path) cost as much as the stat and open of serving a file.
// A folder replaced on disk (removed and made again, or another moved into its place) is noticed
// by its identity, checked at most once per assetsRecheck (as the watcher, the store sees changes
// made behind its back shortly after, not at once) and after every asset write through the store.
// The caller calls release when done with the root, and must not call this again before that.
func (s *Store) sharedAssetsRoot() (root *os.Root, release func(), err error) {
	a := &s.assets
	for range 3 {
		a.mu.RLock()
		if a.root != nil && s.now().UnixNano()-a.checked.Load() < int64(assetsRecheck) {
			return a.root, a.mu.RUnlock, nil
		}
		a.mu.RUnlock()
		fi, err := s.root.Stat(s.opts.AssetsDir)
		if err != nil {
			return nil, nil, err
		}
		if err := s.reopenAssetsRoot(fi); err != nil {
			return nil, nil, err
		}
	}
	// Replaced again and again meanwhile: open a root of the caller's own.
	r, err := s.root.OpenRoot(s.opts.AssetsDir)
	if err != nil {
		return nil, nil, err
	}
	return r, func() { r.Close() }, nil
}

// assetsRecheck is how often sharedAssetsRoot checks that its root is still the assets folder.
const assetsRecheck = time.Second

// reopenAssetsRoot opens the assets folder anew unless the kept root is already the folder fi
// describes. The old root is closed: no reader holds it, as readers hold the read lock.
func (s *Store) reopenAssetsRoot(fi fs.FileInfo) error {
	a := &s.assets
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.root != nil && os.SameFile(a.id, fi) {
		a.checked.Store(s.now().UnixNano())
		return nil // still the folder, or another caller reopened it
	}
	r, err := s.root.OpenRoot(s.opts.AssetsDir)
	if err != nil {
		return err
	}
	id, err := r.Stat(".") // what was opened, which may already differ from fi
	if err != nil {
		r.Close()
		return err
	}
	if a.root != nil {
		a.root.Close()
	}
	a.root, a.id = r, id
	a.checked.Store(s.now().UnixNano())
	return nil
}

// closeAssetsRoot releases the kept assets root (Close).
func (s *Store) closeAssetsRoot() {
	a := &s.assets
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.root != nil {
		a.root.Close()
		a.root, a.id = nil, nil
	}
}

func (s *Store) assetPathArg(op, p string, allowRoot bool) (string, error) {
	c, err := assetpath.Clean(p)
	if err != nil {
		return "", &content.Error{Kind: content.Invalid, Op: op, Path: p, Message: "Invalid asset path: " + err.Error()}
	}
	if c == "" && !allowRoot {
		return "", &content.Error{Kind: content.Invalid, Op: op, Message: "Invalid asset path: path is empty"}
	}
	return c, nil
}

func (s *Store) assetLock(p string) string { return "\x00assets/" + p }

func dotOrPath(p string) string {
	if p == "" {
		return "."
	}
	return p
}

func infoOf(p string, fi fs.FileInfo) content.AssetInfo {
	return content.AssetInfo{Path: p, Size: fi.Size(), ModTime: fi.ModTime(), Dir: fi.IsDir()}
}

// notFoundAsset is the error for a missing asset or folder.
func notFoundAsset(op, p string) error {
	return content.NotFoundf(op, p, "Asset %q not found", p)
}

// ListAssets lists one folder of the assets folder (not recursively): its files, sorted by name,
// and the names of its sub-folders, sorted. Metadata sidecars, hidden files, temp files and
// anything that is neither a regular file nor a folder (symbolic links) are left out. A missing
// assets folder lists as empty; a missing sub-folder is a NotFound error.
func (s *Store) ListAssets(dir string) ([]content.AssetInfo, []string, error) {
	const op = "fsstore.ListAssets"
	dir, err := s.assetPathArg(op, dir, true)
	if err != nil {
		return nil, nil, err
	}
	root, release, err := s.sharedAssetsRoot()
	if errors.Is(err, fs.ErrNotExist) {
		if dir == "" {
			return []content.AssetInfo{}, []string{}, nil
		}
		return nil, nil, notFoundAsset(op, dir)
	}
	if err != nil {
		return nil, nil, content.Internalf(op, dir, err)
	}
	defer release()
	ents, err := fs.ReadDir(root.FS(), dotOrPath(dir))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) || isNotDir(err) {
			return nil, nil, notFoundAsset(op, dir)
		}
		return nil, nil, content.Internalf(op, dir, err)
	}
	files, dirs := []content.AssetInfo{}, []string{}
	sidecars := map[string]bool{}
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), assetpath.MetaSuffix); ok && e.Type().IsRegular() {
			sidecars[name] = true
		}
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, assetpath.MetaSuffix) {
			continue
		}
		switch {
		case e.IsDir():
			dirs = append(dirs, name)
		case e.Type().IsRegular():
			fi, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			info := infoOf(path.Join(dir, name), fi)
			info.HasMeta = sidecars[name]
			files = append(files, info)
		}
	}
	sort.Strings(dirs)
	return files, dirs, nil
}

// isNotDir reports a path that runs through a file as if it were a folder.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// StatAsset describes one asset file or folder, or returns a NotFound error.
func (s *Store) StatAsset(p string) (content.AssetInfo, error) {
	const op = "fsstore.StatAsset"
	p, err := s.assetPathArg(op, p, false)
	if err != nil {
		return content.AssetInfo{}, err
	}
	root, release, err := s.sharedAssetsRoot()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return content.AssetInfo{}, notFoundAsset(op, p)
		}
		return content.AssetInfo{}, content.Internalf(op, p, err)
	}
	defer release()
	return statIn(op, root, p)
}

func statIn(op string, root *os.Root, p string) (content.AssetInfo, error) {
	fi, err := root.Lstat(p)
	if err != nil || !(fi.Mode().IsRegular() || fi.IsDir()) {
		if err == nil || errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return content.AssetInfo{}, notFoundAsset(op, p)
		}
		return content.AssetInfo{}, content.Internalf(op, p, err)
	}
	return infoOf(p, fi), nil
}

// OpenAsset opens an asset file for reading, for serving it. Folders, sidecars, hidden files and
// anything but a regular file are a NotFound error. The caller closes the file.
func (s *Store) OpenAsset(p string) (*os.File, content.AssetInfo, error) {
	const op = "fsstore.OpenAsset"
	p, err := s.assetPathArg(op, p, false)
	if err != nil {
		return nil, content.AssetInfo{}, notFoundAsset(op, p)
	}
	root, release, err := s.sharedAssetsRoot()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, content.AssetInfo{}, notFoundAsset(op, p)
		}
		return nil, content.AssetInfo{}, content.Internalf(op, p, err)
	}
	defer release()
	if fi, err := root.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return nil, content.AssetInfo{}, notFoundAsset(op, p)
	}
	f, err := root.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, content.AssetInfo{}, notFoundAsset(op, p)
		}
		return nil, content.AssetInfo{}, content.Internalf(op, p, err)
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, content.AssetInfo{}, notFoundAsset(op, p)
	}
	return f, infoOf(p, fi), nil
}

// SaveAsset writes an asset file from src, atomically, creating its folder. An existing file is
// a Conflict error unless overwrite is set; an existing folder of that name always is.
func (s *Store) SaveAsset(p string, src io.Reader, overwrite bool) (content.AssetInfo, error) {
	const op = "fsstore.SaveAsset"
	root, p, done, err := s.beginAssetWrite(op, p, true)
	if err != nil {
		return content.AssetInfo{}, err
	}
	defer done()
	if fi, err := root.Lstat(p); err == nil && (fi.IsDir() || !overwrite) {
		return content.AssetInfo{}, content.Conflictf(op, "An asset named %q already exists", p)
	}
	err = atomicfile.WriteFrom(root, p, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	}, atomicfile.Options{Exclusive: !overwrite, NoSync: s.opts.NoSync})
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return content.AssetInfo{}, content.Conflictf(op, "An asset named %q already exists", p)
		}
		if isNotDir(err) {
			return content.AssetInfo{}, content.Conflictf(op, "A file is in the way of folder %q", path.Dir(p))
		}
		return content.AssetInfo{}, content.Internalf(op, p, err)
	}
	s.changed("Uploaded asset "+p, s.assetSitePath(p))
	return statIn(op, root, p)
}

// assetSitePath names an asset (a path in the assets folder) relative to the site folder.
func (s *Store) assetSitePath(p string) string { return path.Join(s.opts.AssetsDir, p) }

// AssetMeta reads an asset's metadata sidecar (alt text and the like); no sidecar reads as an
// empty map. A missing asset is a NotFound error.
func (s *Store) AssetMeta(p string) (*content.Map, error) {
	const op = "fsstore.AssetMeta"
	p, err := s.assetPathArg(op, p, false)
	if err != nil {
		return nil, err
	}
	root, release, err := s.sharedAssetsRoot()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, notFoundAsset(op, p)
		}
		return nil, content.Internalf(op, p, err)
	}
	defer release()
	return s.metaIn(op, root, p)
}

func (s *Store) metaIn(op string, root *os.Root, p string) (*content.Map, error) {
	if fi, err := statIn(op, root, p); err != nil {
		return nil, err
	} else if fi.Dir {
		return nil, notFoundAsset(op, p)
	}
	raw, err := root.ReadFile(p + assetpath.MetaSuffix)
	if errors.Is(err, fs.ErrNotExist) {
		return content.NewMap(0), nil
	}
	if err != nil {
		return nil, content.Internalf(op, p, err)
	}
	m, err := frontmatter.ParseYAMLMap(raw, 1)
	if err != nil {
		// A broken sidecar should not hide the asset; it is reported and read as empty.
		s.problem(path.Join(s.opts.AssetsDir, p+assetpath.MetaSuffix), err)
		return content.NewMap(0), nil
	}
	return m, nil
}

// SaveAssetMeta replaces an asset's metadata sidecar; an empty map removes it. A missing asset
// is a NotFound error.
func (s *Store) SaveAssetMeta(p string, meta *content.Map) error {
	const op = "fsstore.SaveAssetMeta"
	root, p, done, err := s.beginAssetWrite(op, p, false)
	if err != nil {
		return err
	}
	defer done()
	if fi, err := statIn(op, root, p); err != nil {
		return err
	} else if fi.Dir {
		return notFoundAsset(op, p)
	}
	side := p + assetpath.MetaSuffix
	if meta.Len() == 0 {
		if err := atomicfile.Remove(root, side, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return content.Internalf(op, side, err)
		}
		s.changed("Updated asset metadata "+p, s.assetSitePath(side))
		return nil
	}
	raw, err := frontmatter.MarshalYAML(meta)
	if err != nil {
		return encodeFailed(op, side, err)
	}
	if err := atomicfile.Write(root, side, raw, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		return content.Internalf(op, side, err)
	}
	s.changed("Updated asset metadata "+p, s.assetSitePath(side))
	return nil
}

// MoveAsset renames an asset file (with its sidecar) or a folder (with everything in it),
// creating the target's folder. A missing source is a NotFound error; an existing target, or a
// folder moved into itself, a Conflict error.
func (s *Store) MoveAsset(from, to string) (content.AssetInfo, error) {
	const op = "fsstore.MoveAsset"
	if err := s.writable(op); err != nil {
		return content.AssetInfo{}, err
	}
	from, err := s.assetPathArg(op, from, false)
	if err != nil {
		return content.AssetInfo{}, err
	}
	to, err = s.assetPathArg(op, to, false)
	if err != nil {
		return content.AssetInfo{}, err
	}
	unlock := s.lock2(s.assetLock(from), s.assetLock(to))
	defer unlock()
	root, err := s.assetsRoot(false)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return content.AssetInfo{}, notFoundAsset(op, from)
		}
		return content.AssetInfo{}, content.Internalf(op, from, err)
	}
	defer root.Close()
	src, err := statIn(op, root, from)
	if err != nil {
		return content.AssetInfo{}, err
	}
	if from == to {
		return src, nil
	}
	if src.Dir && strings.HasPrefix(to+"/", from+"/") {
		return content.AssetInfo{}, content.Conflictf(op, "Cannot move folder %q into itself", from)
	}
	if _, err := root.Lstat(to); err == nil {
		return content.AssetInfo{}, content.Conflictf(op, "An asset named %q already exists", to)
	}
	if err := root.MkdirAll(dotOrPath(path.Dir(to)), 0o755); err != nil {
		if isNotDir(err) || errors.Is(err, fs.ErrExist) {
			return content.AssetInfo{}, content.Conflictf(op, "A file is in the way of folder %q", path.Dir(to))
		}
		return content.AssetInfo{}, content.Internalf(op, to, err)
	}
	if err := root.Rename(from, to); err != nil {
		return content.AssetInfo{}, content.Internalf(op, from, err)
	}
	moved := []string{s.assetSitePath(from), s.assetSitePath(to)}
	if !src.Dir {
		moved = append(moved, s.assetSitePath(from+assetpath.MetaSuffix), s.assetSitePath(to+assetpath.MetaSuffix))
	}
	defer s.changed("Moved asset "+from+" to "+to, moved...) // the file moved, whatever follows
	if !src.Dir {
		if err := root.Rename(from+assetpath.MetaSuffix, to+assetpath.MetaSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return content.AssetInfo{}, content.Internalf(op, from+assetpath.MetaSuffix, err)
		}
	}
	if !s.opts.NoSync {
		_ = atomicfile.SyncDir(root, dotOrPath(path.Dir(from)))
		_ = atomicfile.SyncDir(root, dotOrPath(path.Dir(to)))
	}
	return statIn(op, root, to)
}

// DeleteAsset removes an asset file with its sidecar, or an empty folder. A missing asset is a
// NotFound error; a folder that still holds anything (hidden files included) a Conflict error.
func (s *Store) DeleteAsset(p string) error {
	const op = "fsstore.DeleteAsset"
	root, p, done, err := s.beginAssetWrite(op, p, false)
	if err != nil {
		return err
	}
	defer done()
	fi, err := statIn(op, root, p)
	if err != nil {
		return err
	}
	if fi.Dir {
		ents, err := fs.ReadDir(root.FS(), p)
		if err != nil {
			return content.Internalf(op, p, err)
		}
		if len(ents) > 0 {
			return content.Conflictf(op, "Folder %q is not empty", p)
		}
	}
	if err := atomicfile.Remove(root, p, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return notFoundAsset(op, p)
		}
		return content.Internalf(op, p, err)
	}
	if fi.Dir {
		s.changed("Deleted asset folder "+p, s.assetSitePath(p))
	} else {
		defer s.changed("Deleted asset "+p, s.assetSitePath(p), s.assetSitePath(p+assetpath.MetaSuffix))
		if err := atomicfile.Remove(root, p+assetpath.MetaSuffix, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return content.Internalf(op, p+assetpath.MetaSuffix, err)
		}
	}
	return nil
}

// CreateAssetFolder creates a folder (and its parents) in the assets folder and reports whether
// it was new; an existing folder is fine. A file in the way is a Conflict error.
func (s *Store) CreateAssetFolder(p string) (bool, error) {
	const op = "fsstore.CreateAssetFolder"
	root, p, done, err := s.beginAssetWrite(op, p, true)
	if err != nil {
		return false, err
	}
	defer done()
	if fi, err := root.Lstat(p); err == nil {
		if fi.IsDir() {
			return false, nil
		}
		return false, content.Conflictf(op, "A file named %q already exists", p)
	}
	if err := root.MkdirAll(p, 0o755); err != nil {
		if isNotDir(err) || errors.Is(err, fs.ErrExist) {
			return false, content.Conflictf(op, "A file is in the way of folder %q", p)
		}
		return false, content.Internalf(op, p, err)
	}
	return true, nil
}

// beginAssetWrite is the prologue of every asset write: the store must be writable and p a valid
// asset path; it then locks p and opens the assets folder (creating it when create is set; when
// not, a missing folder means the asset is missing). The caller must call done.
func (s *Store) beginAssetWrite(op, p string, create bool) (root *os.Root, clean string, done func(), err error) {
	if err := s.writable(op); err != nil {
		return nil, "", nil, err
	}
	clean, err = s.assetPathArg(op, p, false)
	if err != nil {
		return nil, "", nil, err
	}
	unlock := s.lock(s.assetLock(clean))
	s.assets.checked.Store(0) // a write may have made the folder: reads check their root anew
	root, err = s.assetsRoot(create)
	if err != nil {
		unlock()
		if !create && errors.Is(err, fs.ErrNotExist) {
			return nil, "", nil, notFoundAsset(op, clean)
		}
		return nil, "", nil, content.Internalf(op, clean, err)
	}
	return root, clean, func() { root.Close(); unlock() }, nil
}
