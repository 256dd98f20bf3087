package redirects

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cms/content"
	"cms/content/internal/atomicfile"
)

// Options configure a Store.
type Options struct {
	// Dir is the folder of the redirect files (content/seo/redirects in the site folder).
	Dir string
	// Sites are the configured sites: a redirect names one, and relative destinations are
	// rebased onto its URL.
	Sites []content.Site
	// AllowedOrigins are seo.allowedRedirectOrigins.
	AllowedOrigins []string
	// CheckEvery is how often Lookup looks for changed files, in the background: 0 means every
	// second; a negative value checks synchronously on every call (tests).
	CheckEvery time.Duration
	Now        func() time.Time
	Log        *slog.Logger
	NoSync     bool // skip fsyncs (tests)
	// LockFile, if set, is locked (flock) around every write, because two processes write
	// redirects: the SEO API and the entries group (automatic 301s). It belongs outside the
	// content folder (.cms/), so it never reaches Git.
	LockFile string
}

// Store reads and writes the redirect files. Lookups read an immutable snapshot; writes are
// serialised by a mutex and checked against the files as they are on disk.
type Store struct {
	o     Options
	snap  atomic.Pointer[snapshot]
	next  atomic.Int64 // unix nanoseconds of the next due check
	busy  atomic.Bool  // a background check runs
	mu    sync.Mutex   // writes, and loads
	lmu   sync.Mutex
	noted map[string]bool // problems logged, bounded
}

type stamp struct {
	size int64
	mod  time.Time
}

// snapshot is the state of the folder at one time. It is never modified.
type snapshot struct {
	stamps   map[string]stamp    // file name → stamp
	files    map[string]Redirect // file name → parsed, checked redirect
	all      []Redirect          // the valid redirects, by id
	bySite   map[string]map[string]target
	problems []string
}

// target is what a matched source answers: an absolute location built once.
type target struct {
	base     string // absolute URL without the fragment
	fragment string // "#..." or ""
	hasQuery bool
	status   int
}

// Open reads the folder (a missing folder holds no redirects).
func Open(o Options) (*Store, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.CheckEvery == 0 {
		o.CheckEvery = time.Second
	}
	s := &Store{o: o, noted: map[string]bool{}}
	s.snap.Store(&snapshot{})
	if _, err := s.Refresh(); err != nil {
		return nil, err
	}
	return s, nil
}

// Lookup answers a public request for path (as sent, percent-encoded) on site: the absolute
// location and status of the enabled redirect whose source is that path. The request's query
// string (rawQuery, without "?") is carried over unless the destination has its own.
func (s *Store) Lookup(site, path, rawQuery string) (location string, status int, ok bool) {
	s.maybeCheck()
	m := s.snap.Load().bySite[site]
	if len(m) == 0 {
		return "", 0, false
	}
	t, ok := m[path]
	if !ok {
		if isNormal(path) {
			return "", 0, false
		}
		np, err := NormalizePath(path)
		if err != nil || np == path {
			return "", 0, false
		}
		if t, ok = m[np]; !ok {
			return "", 0, false
		}
	}
	location = t.base
	if rawQuery != "" && !t.hasQuery {
		location += "?" + rawQuery
	}
	return location + t.fragment, t.status, true
}

// maybeCheck starts a check of the folder when one is due.
func (s *Store) maybeCheck() {
	if s.o.CheckEvery < 0 {
		_, _ = s.Refresh()
		return
	}
	now := s.o.Now().UnixNano()
	if now < s.next.Load() || !s.busy.CompareAndSwap(false, true) {
		return
	}
	s.next.Store(now + int64(s.o.CheckEvery))
	go func() {
		defer s.busy.Store(false)
		_, _ = s.Refresh()
	}()
}

// Refresh re-reads the files that changed since the last look, and reports whether any did.
func (s *Store) Refresh() (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refreshLocked()
}

func (s *Store) refreshLocked() (bool, error) {
	old := s.snap.Load()
	ents, err := os.ReadDir(s.o.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, content.Internalf("redirects.Refresh", s.o.Dir, err)
	}
	stamps := make(map[string]stamp, len(ents))
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, ".yaml") || strings.HasPrefix(n, ".") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		stamps[n] = stamp{info.Size(), info.ModTime()}
	}
	if len(stamps) == len(old.stamps) && func() bool {
		for n, st := range stamps {
			if o, ok := old.stamps[n]; !ok || o != st {
				return false
			}
		}
		return true
	}() {
		return false, nil
	}
	next := &snapshot{stamps: stamps, files: make(map[string]Redirect, len(stamps))}
	for n, st := range stamps {
		if r, ok := old.files[n]; ok && old.stamps[n] == st {
			next.files[n] = r
			continue
		}
		r, err := s.readFile(n)
		if err != nil {
			next.problems = append(next.problems, fmt.Sprintf("%s: %v", filepath.Join(s.o.Dir, n), err))
			continue
		}
		next.files[n] = r
	}
	s.index(next)
	s.snap.Store(next)
	for _, p := range next.problems {
		s.note(p)
	}
	return true, nil
}

// readFile reads and checks one file; its id must be its name.
func (s *Store) readFile(name string) (Redirect, error) {
	b, err := os.ReadFile(filepath.Join(s.o.Dir, name))
	if err != nil {
		return Redirect{}, err
	}
	r, err := Parse(b)
	if err != nil {
		return r, err
	}
	if r.ID+".yaml" != name {
		return r, fmt.Errorf("id %q does not match the file name", r.ID)
	}
	if err := Check(&r, s.o.Sites, s.o.AllowedOrigins); err != nil {
		return r, err
	}
	r.Revision = Revision(b)
	return r, nil
}

// index builds the sorted list and the per-site maps. Two enabled redirects of a site with one
// source (a hand edit) keep the first by id, and the other is a problem.
func (s *Store) index(sn *snapshot) {
	sn.all = make([]Redirect, 0, len(sn.files))
	for _, r := range sn.files {
		sn.all = append(sn.all, r)
	}
	slices.SortFunc(sn.all, func(a, b Redirect) int { return strings.Compare(a.ID, b.ID) })
	sn.bySite = map[string]map[string]target{}
	for _, r := range sn.all {
		if !r.Enabled {
			continue
		}
		m := sn.bySite[r.Site]
		if m == nil {
			m = map[string]target{}
			sn.bySite[r.Site] = m
		}
		if _, dup := m[r.Source]; dup {
			sn.problems = append(sn.problems, fmt.Sprintf("redirect %s: another redirect of site %s already has the source %s; ignored", r.ID, r.Site, r.Source))
			continue
		}
		m[r.Source] = s.target(r)
	}
}

func (s *Store) target(r Redirect) target {
	loc := r.Destination
	if strings.HasPrefix(loc, "/") {
		if site := siteOf(s.o.Sites, r.Site); site != nil {
			loc = strings.TrimSuffix(site.URL, "/") + loc
		}
	}
	t := target{status: r.Status}
	if i := strings.IndexByte(loc, '#'); i >= 0 {
		loc, t.fragment = loc[:i], loc[i:]
	}
	t.base, t.hasQuery = loc, strings.Contains(loc, "?")
	return t
}

// note logs a problem once.
func (s *Store) note(p string) {
	s.lmu.Lock()
	defer s.lmu.Unlock()
	if s.noted[p] {
		return
	}
	if len(s.noted) >= 1024 {
		clear(s.noted)
	}
	s.noted[p] = true
	s.o.Log.Warn("redirect file skipped", "problem", p)
}

// Problems are the files of the last look that were skipped, with why.
func (s *Store) Problems() []string { return slices.Clone(s.snap.Load().problems) }

// List returns the valid redirects of site ("" for every site), by id.
func (s *Store) List(site string) []Redirect {
	var out []Redirect
	for _, r := range s.snap.Load().all {
		if site == "" || r.Site == site {
			out = append(out, r)
		}
	}
	return out
}

// Get returns one redirect, or a NotFound error.
func (s *Store) Get(id string) (Redirect, error) {
	if r, ok := s.snap.Load().files[id+".yaml"]; ok && ValidID(id) {
		return r, nil
	}
	return Redirect{}, &content.Error{Kind: content.NotFound, Op: "redirects.Get", Code: CodeNotFound, Message: fmt.Sprintf("Redirect %q not found", id)}
}

// Codes of the SEO API (notes 14.8) the store's errors carry.
const (
	CodeNotFound = "SEO_NOT_FOUND"
	CodeConflict = "SEO_REVISION_CONFLICT"
)

// Save creates or replaces a redirect after checking it alone and against the site's other
// enabled redirects. A non-empty expectedRevision must be the current file's revision (a
// Conflict otherwise; "" never matches an existing file when create is true). It reports
// whether the file is new.
func (s *Store) Save(r Redirect, expectedRevision string) (Redirect, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.crossLock()
	if err != nil {
		return r, false, err
	}
	defer unlock()
	if _, err := s.refreshLocked(); err != nil {
		return r, false, err
	}
	if err := Check(&r, s.o.Sites, s.o.AllowedOrigins); err != nil {
		return r, false, err
	}
	sn := s.snap.Load()
	cur, exists := sn.files[r.ID+".yaml"]
	if _, onDisk := sn.stamps[r.ID+".yaml"]; onDisk && !exists && expectedRevision == "" {
		exists = true // a broken hand-edited file is replaced (200, not 201); no revision matches it
		cur.Revision = "broken"
	}
	if expectedRevision != "" && (!exists || cur.Revision != expectedRevision) {
		return r, false, &content.Error{Kind: content.Conflict, Op: "redirects.Save", Code: CodeConflict,
			Message: fmt.Sprintf("Redirect %q changed since it was read", r.ID)}
	}
	if err := topology(r, sn.all, siteOf(s.o.Sites, r.Site)); err != nil {
		return r, false, err
	}
	if err := s.write(r); err != nil {
		return r, false, err
	}
	got, err := s.Get(r.ID)
	return got, !exists, err
}

// write writes one file and re-reads the folder.
func (s *Store) write(r Redirect) error {
	b := Marshal(r)
	if err := os.MkdirAll(s.o.Dir, 0o755); err != nil {
		return content.Internalf("redirects.write", s.o.Dir, err)
	}
	root, err := os.OpenRoot(s.o.Dir)
	if err != nil {
		return content.Internalf("redirects.write", s.o.Dir, err)
	}
	defer root.Close()
	if err := atomicfile.Write(root, r.ID+".yaml", b, atomicfile.Options{NoSync: s.o.NoSync}); err != nil {
		return content.Internalf("redirects.write", r.ID, err)
	}
	_, err = s.refreshLocked()
	return err
}

// Delete removes a redirect; a non-empty expectedRevision must match.
func (s *Store) Delete(id, expectedRevision string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.crossLock()
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := s.refreshLocked(); err != nil {
		return err
	}
	return s.deleteLocked(id, expectedRevision)
}

func (s *Store) deleteLocked(id, expectedRevision string) error {
	sn := s.snap.Load()
	if !ValidID(id) {
		return &content.Error{Kind: content.NotFound, Op: "redirects.Delete", Code: CodeNotFound, Message: fmt.Sprintf("Redirect %q not found", id)}
	}
	if _, ok := sn.stamps[id+".yaml"]; !ok {
		return &content.Error{Kind: content.NotFound, Op: "redirects.Delete", Code: CodeNotFound, Message: fmt.Sprintf("Redirect %q not found", id)}
	}
	if expectedRevision != "" && sn.files[id+".yaml"].Revision != expectedRevision {
		return &content.Error{Kind: content.Conflict, Op: "redirects.Delete", Code: CodeConflict,
			Message: fmt.Sprintf("Redirect %q changed since it was read", id)}
	}
	root, err := os.OpenRoot(s.o.Dir)
	if err != nil {
		return content.Internalf("redirects.Delete", s.o.Dir, err)
	}
	defer root.Close()
	if err := atomicfile.Remove(root, id+".yaml", atomicfile.Options{NoSync: s.o.NoSync}); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return content.Internalf("redirects.Delete", id, err)
	}
	_, err = s.refreshLocked()
	return err
}

// NewID returns a fresh redirect id, "redirect_" and 32 hex digits.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "redirect_" + hex.EncodeToString(b[:])
}

// Moved records that a record's public path on site changed from oldPath to newPath (a slug,
// route, collection or date change): a 301 from oldPath to newPath is created, redirects that
// pointed to oldPath are repointed to newPath so that no chain forms, and a redirect from
// newPath (which is a page again) is removed. Paths that do not normalise, or are equal, change
// nothing. It returns the redirects written.
func (s *Store) Moved(site, oldPath, newPath string) ([]Redirect, error) {
	from, err1 := NormalizePath(oldPath)
	to, err2 := NormalizePath(newPath)
	if err1 != nil || err2 != nil || from == to || siteOf(s.o.Sites, site) == nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := s.crossLock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	if _, err := s.refreshLocked(); err != nil {
		return nil, err
	}
	st := siteOf(s.o.Sites, site)
	var written []Redirect
	var fromRedirect *Redirect
	for _, r := range s.snap.Load().all {
		if r.Site != site || !r.Enabled {
			continue
		}
		switch {
		case r.Source == to:
			if err := s.deleteLocked(r.ID, ""); err != nil {
				return written, err
			}
		case r.Source == from:
			fromRedirect = &r
		case localPath(st, r.Destination) == from:
			r.Destination = to
			if err := s.write(r); err != nil {
				return written, err
			}
			written = append(written, r)
		}
	}
	r := Redirect{Version: 1, ID: NewID(), Site: site, Source: from, Destination: to, Status: 301, Enabled: true}
	if fromRedirect != nil {
		r = *fromRedirect
		r.Destination = to
	}
	if err := s.write(r); err != nil {
		return written, err
	}
	return append(written, r), nil
}

// Applies reports whether a request may be redirected at all: GET and HEAD only, and never the
// API, the Control Panel (cpPath, "/cp" by default) or asset files. The site group asks this
// before Lookup.
func Applies(method, path, cpPath string) bool {
	if method != "GET" && method != "HEAD" {
		return false
	}
	if cpPath == "" {
		cpPath = "/cp"
	}
	cpPath = "/" + strings.Trim(cpPath, "/")
	for _, p := range []string{"/api", cpPath, "/assets"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return false
		}
	}
	return true
}

// crossLock takes the lock file shared with other processes (s.mu held).
func (s *Store) crossLock() (func(), error) {
	if s.o.LockFile == "" {
		return func() {}, nil
	}
	if err := os.MkdirAll(filepath.Dir(s.o.LockFile), 0o755); err != nil {
		return nil, content.Internalf("redirects.lock", s.o.LockFile, err)
	}
	f, err := os.OpenFile(s.o.LockFile, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, content.Internalf("redirects.lock", s.o.LockFile, err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, content.Internalf("redirects.lock", s.o.LockFile, err)
	}
	return func() { _ = unlockFile(f); f.Close() }, nil
}
