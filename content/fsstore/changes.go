package fsstore

import (
	"path"
	"strings"
	"sync"
	"time"

	"cms/content"
	"cms/content/fsstore/internal/index"
)

// recentWindow is how long after a write of its own the store ignores the watcher's news of the
// same path: the notification is the store's own write, already reported with its editor.
const recentWindow = 5 * time.Second

// As returns a view of the store whose writes report ed as their editor (Options.OnChange). The
// view shares everything else with s; it costs one small allocation.
func (s *Store) As(ed content.Editor) *Store {
	return &Store{state: s.state, editor: ed}
}

// changed reports a successful write: the one place writes reach Options.OnChange. Callers call
// it once the write is durable, before they return.
func (s *Store) changed(msg string, paths ...string) {
	if s.opts.OnChange == nil {
		return
	}
	s.recent.note(s.now(), paths)
	s.opts.OnChange(content.Change{Paths: paths, Message: msg, Editor: s.editor})
}

// externalChange returns the index's FileChanged callback: a file the watcher saw change that
// this process did not just write is reported as an external change.
func (s *Store) externalChange() func(string) {
	if s.opts.OnChange == nil || s.opts.ReadOnly {
		return nil
	}
	return func(p string) {
		if strings.HasPrefix(path.Base(p), ".") {
			return // temp files of atomic writes
		}
		// The notification of a write of our own may come before the write reports itself:
		// waiting for the path's lock waits until it has (writes report under their lock).
		unlock := s.lock(s.writeLockOf(p))
		unlock()
		if s.recent.seen(s.now(), p) {
			return
		}
		s.opts.OnChange(content.Change{Paths: []string{p}, Message: content.ExternalChangeMessage, External: true})
	}
}

// writeLockOf returns the lock key under which the store writes site-relative file p.
func (s *Store) writeLockOf(p string) string {
	switch {
	case strings.HasPrefix(p, s.opts.UsersDir+"/"):
		return usersLock
	case strings.HasPrefix(p, s.resourcePath("roles")+"/"):
		return rolesLock
	case strings.HasPrefix(p, s.resourcePath("hooks")+"/") && strings.HasSuffix(p, hookModuleExt):
		return strings.TrimSuffix(p, hookModuleExt) + hookMetaExt
	}
	return p
}

// recentWrites remembers when this process last wrote each path, for recentWindow.
type recentWrites struct {
	mu    sync.Mutex
	at    map[string]time.Time
	prune time.Time
}

func (r *recentWrites) note(now time.Time, paths []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.at == nil {
		r.at = make(map[string]time.Time)
	}
	if now.Sub(r.prune) > recentWindow {
		for p, t := range r.at {
			if now.Sub(t) > recentWindow {
				delete(r.at, p)
			}
		}
		r.prune = now
	}
	for _, p := range paths {
		r.at[p] = now
	}
}

// seen reports whether p, a folder holding it, or a file in folder p (which a write created)
// was written within recentWindow.
func (r *recentWrites) seen(now time.Time, p string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for q := p; q != "." && q != "/" && q != ""; q = path.Dir(q) {
		if t, ok := r.at[q]; ok && now.Sub(t) <= recentWindow {
			return true
		}
	}
	for q, t := range r.at {
		if strings.HasPrefix(q, p+"/") && now.Sub(t) <= recentWindow {
			return true
		}
	}
	return false
}

// ChangeKind names what a Change changed.
type ChangeKind string

// Change kinds.
const (
	ChangeEntry       ChangeKind = "entry"       // Collection, Name = slug ("" = any entry of it)
	ChangeGlobal      ChangeKind = "global"      // Name = handle
	ChangeNavigation  ChangeKind = "navigation"  // Name = handle
	ChangeTaxonomy    ChangeKind = "taxonomy"    // Collection = taxonomy, Name = term
	ChangeDefinitions ChangeKind = "definitions" // anything under resources/ (blueprints, templates)
	ChangeAll         ChangeKind = "all"         // something changed that cannot be named
)

// Change is one content change, as Options.OnContentChange hears it. The sources are this store's
// writes, the file watcher's hand edits and, in WatchGeneration mode, other processes' writes
// read from the generation file (where globals and navigation are not named: ChangeAll).
type Change struct {
	Kind       ChangeKind
	Collection string
	Name       string
}

func (s *Store) emit(ch Change) {
	if s.opts.OnContentChange != nil {
		s.opts.OnContentChange(ch)
	}
}

// indexChanged turns what the index saw into a Change.
func (s *Store) indexChanged(ch index.Change) {
	switch {
	case ch.All:
		s.emit(Change{Kind: ChangeAll})
	case ch.File != "":
		s.noteChange(ch.File)
	default:
		s.emit(Change{Kind: ChangeEntry, Collection: ch.Collection, Name: ch.Slug})
	}
}

// noteChange reports a written or removed content document by its site-relative path:
// content/globals/<h>.yaml, content/navigation/<h>.yaml, content/taxonomies/<t>/<term>.yaml.
// Other documents are not reported. The write is also published in the generation file, so
// other processes hear of it (as ChangeAll: the file does not name documents).
func (s *Store) noteChange(p string) {
	rel, ok := strings.CutPrefix(p, s.opts.ContentDir+"/")
	if !ok {
		return
	}
	parts := strings.Split(rel, "/")
	stem := func(name string) string {
		return strings.TrimSuffix(strings.TrimSuffix(name, ".yaml"), ".yml")
	}
	var ch Change
	switch {
	case len(parts) == 2 && parts[0] == "globals":
		ch = Change{Kind: ChangeGlobal, Name: stem(parts[1])}
	case len(parts) == 2 && parts[0] == "navigation":
		ch = Change{Kind: ChangeNavigation, Name: stem(parts[1])}
	case len(parts) == 3 && parts[0] == "taxonomies":
		ch = Change{Kind: ChangeTaxonomy, Collection: parts[1], Name: stem(parts[2])}
	case len(parts) == 2 && parts[0] == "taxonomies":
		ch = Change{Kind: ChangeTaxonomy, Collection: parts[1]}
	default:
		return
	}
	s.ix.NoteFile(p)
	s.emit(ch)
}
