package index

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fsnotify/fsnotify"
)

// watcher turns file-system notifications into pending work that the next request applies. It
// never re-reads files itself: requests pay for exactly what changed.
type watcher struct {
	w *fsnotify.Watcher

	// poll state, used when notifications are unavailable or WatchPoll is chosen
	polling  bool
	pollMu   sync.Mutex
	lastPoll atomic.Int64
	sigs     map[string][32]byte
}

func (w *watcher) close() {
	if w.w != nil {
		_ = w.w.Close()
	}
}

func (s *Index) startWatching() {
	s.watcher = &watcher{sigs: map[string][32]byte{}}
	if s.opts.Watch == WatchPoll {
		s.watcher.polling = true
		s.primePoll()
		return
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		s.log.Warn("file notifications unavailable; polling for changes instead", "err", err, "interval", s.opts.PollInterval)
		s.watcher.polling = true
		s.primePoll()
		return
	}
	s.watcher.w = fw
	dirs := []string{s.opts.ResourcesDir, s.contentPath("collections"), s.opts.UsersDir,
		s.contentPath("globals"), s.contentPath("navigation"), s.contentPath("taxonomies")}
	if s.opts.FileChanged != nil {
		dirs[1] = s.opts.ContentDir // every content folder: git sync commits hand edits of any file
		dirs = dirs[:3]
	}
	for _, dir := range dirs {
		s.watchTree(dir)
	}
	s.wg.Add(1)
	go s.watchLoop()
}

// watchTree adds a notification watch on dir and every folder below it, except below a
// collection folder: only its entry files count (onEvent), and listing a folder of 100,000
// entries (a stat each, through the root) cost a third of a cold start.
func (s *Index) watchTree(dir string) {
	colls := s.contentPath("collections")
	_ = fs.WalkDir(s.root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // missing folders are watched once they appear, via their parent
		}
		if !d.IsDir() {
			return nil
		}
		if err := s.watcher.w.Add(filepath.Join(s.opts.Dir, filepath.FromSlash(p))); err != nil {
			s.log.Warn("cannot watch folder; changes made there by hand need a restart", "folder", p, "err", err)
		}
		if path.Dir(p) == colls {
			return fs.SkipDir
		}
		return nil
	})
	// Watch the nearest existing parent too, so a folder created later is noticed.
	parent := path.Dir(dir)
	for parent != "." && parent != "/" {
		if _, err := s.root.Stat(parent); err == nil {
			_ = s.watcher.w.Add(filepath.Join(s.opts.Dir, filepath.FromSlash(parent)))
			break
		}
		parent = path.Dir(parent)
	}
	if parent == "." {
		_ = s.watcher.w.Add(s.opts.Dir)
	}
}

func (s *Index) watchLoop() {
	defer s.wg.Done()
	for {
		select {
		case <-s.closed:
			return
		case ev, ok := <-s.watcher.w.Events:
			if !ok {
				return
			}
			s.onEvent(ev)
		case err, ok := <-s.watcher.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				s.log.Warn("file notification queue overflowed; rescanning everything")
				s.markAllDirty()
				continue
			}
			s.log.Warn("file notification error", "err", err)
		}
	}
}

func (s *Index) onEvent(ev fsnotify.Event) {
	rel, err := filepath.Rel(s.opts.Dir, ev.Name)
	if err != nil {
		return
	}
	rel = filepath.ToSlash(rel)
	if ev.Has(fsnotify.Create) {
		if st, err := s.root.Stat(rel); err == nil && st.IsDir() {
			s.watchTree(rel)
		}
	}
	base := path.Base(rel)
	if s.opts.FileChanged != nil && (under(rel, s.opts.ContentDir) || under(rel, s.opts.ResourcesDir) || under(rel, s.opts.UsersDir)) {
		s.opts.FileChanged(rel)
	}
	switch {
	case under(rel, s.opts.ResourcesDir) || s.opts.ResourcesDir == rel:
		if strings.HasPrefix(base, ".") {
			return // temp files of atomic writes
		}
		s.invalidateDefinitions()
	case under(rel, s.opts.UsersDir) || s.opts.UsersDir == rel:
		if !strings.HasPrefix(base, ".") {
			s.opts.UsersChanged()
		}
	case under(rel, s.contentPath("collections")):
		parts := strings.Split(strings.TrimPrefix(rel, s.contentPath("collections")+"/"), "/")
		switch {
		case len(parts) == 1:
			s.addPending(parts[0], "")
		case len(parts) == 2 && strings.HasSuffix(parts[1], ".md") && !strings.HasPrefix(parts[1], "."):
			s.addPending(parts[0], strings.TrimSuffix(parts[1], ".md"))
		}
	case rel == s.contentPath("collections") || rel == s.opts.ContentDir:
		s.markAllDirty()
	case under(rel, s.opts.ContentDir) && !strings.HasPrefix(base, "."):
		s.changed(Change{File: rel}) // a global, navigation or term edited by hand
	}
}

func under(p, dir string) bool { return strings.HasPrefix(p, dir+"/") }

func (s *Index) addPending(c, slug string) {
	s.pendMu.Lock()
	m := s.pending[c]
	if m == nil {
		m = map[string]bool{}
		s.pending[c] = m
	}
	if !m[slug] {
		m[slug] = true
		s.pendN.Add(1)
	}
	s.pendMu.Unlock()
}

func (s *Index) markAllDirty() {
	s.invalidateDefinitions()
	s.opts.UsersChanged()
	s.collMu.RLock()
	for c := range s.colls {
		s.addPending(c, "")
	}
	s.collMu.RUnlock()
}

// applyPending applies queued notifications: it is called at the start of each read.
func (s *Index) applyPending() {
	if s.pendN.Load() == 0 {
		return
	}
	s.pendMu.Lock()
	work := s.pending
	s.pending = make(map[string]map[string]bool)
	s.pendN.Store(0)
	s.pendMu.Unlock()
	s.refreshRenames()
	for c, slugs := range work {
		s.collMu.RLock()
		ix := s.colls[c]
		s.collMu.RUnlock()
		if ix == nil {
			continue // built lazily, from the folder as it is then
		}
		if slugs[""] {
			s.rescan(c)
			continue
		}
		for slug := range slugs {
			s.reindex(ix, slug)
		}
	}
}

// primePoll records the current signatures so the first poll only reports real changes.
func (s *Index) primePoll() {
	s.watcher.lastPoll.Store(s.now().UnixNano())
	for _, dir := range []string{s.opts.ResourcesDir, s.opts.UsersDir} {
		s.watcher.sigs[dir] = s.treeSignature(dir)
	}
}

// checkPoll, in polling mode, looks for changes at most once per PollInterval.
func (s *Index) checkPoll() {
	w := s.watcher
	if w == nil || !w.polling {
		return
	}
	now := s.now().UnixNano()
	if now-w.lastPoll.Load() < int64(s.opts.PollInterval) {
		return
	}
	if !w.pollMu.TryLock() {
		return // another request is polling
	}
	defer w.pollMu.Unlock()
	w.lastPoll.Store(now)
	if sig := s.treeSignature(s.opts.ResourcesDir); sig != w.sigs[s.opts.ResourcesDir] {
		w.sigs[s.opts.ResourcesDir] = sig
		s.invalidateDefinitions()
	}
	if sig := s.treeSignature(s.opts.UsersDir); sig != w.sigs[s.opts.UsersDir] {
		w.sigs[s.opts.UsersDir] = sig
		s.opts.UsersChanged()
	}
	s.collMu.RLock()
	colls := make([]string, 0, len(s.colls))
	for c := range s.colls {
		colls = append(colls, c)
	}
	s.collMu.RUnlock()
	for _, c := range colls {
		s.rescan(c)
	}
}

// treeSignature hashes names, sizes and modification times of every file under dir.
func (s *Index) treeSignature(dir string) [32]byte {
	h := sha256.New()
	_ = fs.WalkDir(s.root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		var b [16]byte
		binary.LittleEndian.PutUint64(b[:8], uint64(info.Size()))
		binary.LittleEndian.PutUint64(b[8:], uint64(info.ModTime().UnixNano()))
		h.Write([]byte(p))
		h.Write(b[:])
		return nil
	})
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
