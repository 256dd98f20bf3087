package pagecache

import (
	"context"
	"sync"
	"time"
)

// DepKind is what a page read while it rendered.
type DepKind uint8

// Dependency kinds.
const (
	DepEntry      DepKind = iota + 1 // one entry: Collection, Name = slug
	DepList                          // a list query over a collection: Collection
	DepGlobal                        // a global set: Name
	DepNavigation                    // a navigation tree: Name
	DepTaxonomy                      // a taxonomy: Collection = taxonomy handle, Name = term ("" = all terms)
)

// Dep is one thing a page read.
type Dep struct {
	Kind       DepKind `json:"k"`
	Collection string  `json:"c,omitempty"`
	Name       string  `json:"n,omitempty"`
}

// Recorder collects what one page reads while it renders. The renderer finds it in the request's
// context (FromContext) and records each read; a nil *Recorder records nothing, so template
// functions call it unconditionally. It is safe for concurrent use (a page may render parts in
// parallel).
type Recorder struct {
	mu      sync.Mutex
	deps    map[Dep]struct{}
	expires time.Time
	ph      bool
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{deps: map[Dep]struct{}{}} }

func (r *Recorder) add(d Dep) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.deps[d] = struct{}{}
	r.mu.Unlock()
}

// Entry records a read of one entry (the page's own, or one it references or shows).
func (r *Recorder) Entry(collection, slug string) {
	r.add(Dep{Kind: DepEntry, Collection: collection, Name: slug})
}

// List records a list query over a collection: any change to any entry of it changes the page.
func (r *Recorder) List(collection string) { r.add(Dep{Kind: DepList, Collection: collection}) }

// Global records a read of a global set.
func (r *Recorder) Global(handle string) { r.add(Dep{Kind: DepGlobal, Name: handle}) }

// Navigation records a read of a navigation tree.
func (r *Recorder) Navigation(handle string) { r.add(Dep{Kind: DepNavigation, Name: handle}) }

// Taxonomy records a read of a taxonomy's term ("" = its whole term list).
func (r *Recorder) Taxonomy(handle, term string) {
	r.add(Dep{Kind: DepTaxonomy, Collection: handle, Name: term})
}

// Until records that the page changes by itself at t (an entry dated in the future appears
// then): the stored page expires at the earliest such time.
func (r *Recorder) Until(t time.Time) {
	if r == nil || t.IsZero() {
		return
	}
	r.mu.Lock()
	if r.expires.IsZero() || t.Before(r.expires) {
		r.expires = t
	}
	r.mu.Unlock()
}

// Placeholder returns the marker of a per-response value (a CSRF or form token) to write into
// the page in place of the value; the cache fills a fresh value into every response it serves.
// ok is false on a nil recorder: the page is not being cached, so the renderer writes the real
// value.
func (r *Recorder) Placeholder(name string) (marker string, ok bool) {
	if r == nil || !validPlaceholderName(name) {
		return "", false
	}
	r.mu.Lock()
	r.ph = true
	r.mu.Unlock()
	return placeholderPrefix + name + placeholderSuffix, true
}

// Deps returns what was recorded, the expiry (zero = none) and whether placeholders were used.
func (r *Recorder) snapshot() ([]Dep, time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Dep, 0, len(r.deps))
	for d := range r.deps {
		out = append(out, d)
	}
	return out, r.expires, r.ph
}

type recorderKey struct{}

// WithRecorder returns ctx carrying rec.
func WithRecorder(ctx context.Context, rec *Recorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, rec)
}

// FromContext returns the recorder of a page being cached, or nil (which records nothing).
func FromContext(ctx context.Context) *Recorder {
	r, _ := ctx.Value(recorderKey{}).(*Recorder)
	return r
}

// ChangeKind is what changed in the content.
type ChangeKind uint8

// Change kinds.
const (
	ChangeEntry      ChangeKind = iota + 1 // Collection, Slug ("" = any entries of the collection)
	ChangeGlobal                           // Handle
	ChangeNavigation                       // Handle
	ChangeTaxonomy                         // Handle, Term ("" = the whole taxonomy)
	ChangeAll                              // definitions, templates, anything not tracked: purge everything
)

// Change is one content change, from whichever write path saw it: an API write, a hand edit the
// watcher picked up, or another process's write read from the generation file (Lambda). The
// store reports entry changes as (collection, slug); a whole-collection rescan as slug "".
type Change struct {
	Kind       ChangeKind
	Collection string // ChangeEntry
	Slug       string // ChangeEntry
	Handle     string // ChangeGlobal, ChangeNavigation, ChangeTaxonomy
	Term       string // ChangeTaxonomy
}

// depIndex is the reverse index: for each thing read, the keys of the stored pages that read it.
// Entry reads are also indexed by collection, so a whole-collection change finds them.
type depIndex struct {
	byDep  map[Dep]map[string]struct{}
	byColl map[string]map[string]struct{} // collection -> keys that read any of its entries
	byKey  map[string][]Dep
}

func newDepIndex() *depIndex {
	return &depIndex{byDep: map[Dep]map[string]struct{}{}, byColl: map[string]map[string]struct{}{}, byKey: map[string][]Dep{}}
}

func addTo(m map[string]map[string]struct{}, k, key string) {
	s := m[k]
	if s == nil {
		s = map[string]struct{}{}
		m[k] = s
	}
	s[key] = struct{}{}
}

func (x *depIndex) add(key string, deps []Dep) {
	x.remove(key)
	x.byKey[key] = deps
	for _, d := range deps {
		s := x.byDep[d]
		if s == nil {
			s = map[string]struct{}{}
			x.byDep[d] = s
		}
		s[key] = struct{}{}
		if d.Kind == DepEntry {
			addTo(x.byColl, d.Collection, key)
		}
	}
}

func (x *depIndex) remove(key string) {
	deps, ok := x.byKey[key]
	if !ok {
		return
	}
	delete(x.byKey, key)
	for _, d := range deps {
		if s := x.byDep[d]; s != nil {
			delete(s, key)
			if len(s) == 0 {
				delete(x.byDep, d)
			}
		}
		if d.Kind == DepEntry {
			if s := x.byColl[d.Collection]; s != nil {
				delete(s, key)
				if len(s) == 0 {
					delete(x.byColl, d.Collection)
				}
			}
		}
	}
}

// affected returns the keys a change touches (ChangeAll: every key).
func (x *depIndex) affected(ch Change) map[string]struct{} {
	out := map[string]struct{}{}
	take := func(s map[string]struct{}) {
		for k := range s {
			out[k] = struct{}{}
		}
	}
	switch ch.Kind {
	case ChangeEntry:
		take(x.byDep[Dep{Kind: DepList, Collection: ch.Collection}])
		if ch.Slug == "" {
			take(x.byColl[ch.Collection])
		} else {
			take(x.byDep[Dep{Kind: DepEntry, Collection: ch.Collection, Name: ch.Slug}])
		}
	case ChangeGlobal:
		take(x.byDep[Dep{Kind: DepGlobal, Name: ch.Handle}])
	case ChangeNavigation:
		take(x.byDep[Dep{Kind: DepNavigation, Name: ch.Handle}])
	case ChangeTaxonomy:
		take(x.byDep[Dep{Kind: DepTaxonomy, Collection: ch.Handle}])
		if ch.Term == "" {
			for d, s := range x.byDep {
				if d.Kind == DepTaxonomy && d.Collection == ch.Handle {
					take(s)
				}
			}
		} else {
			take(x.byDep[Dep{Kind: DepTaxonomy, Collection: ch.Handle, Name: ch.Term}])
		}
	default:
		for k := range x.byKey {
			out[k] = struct{}{}
		}
	}
	return out
}

// StoreChange maps a content store's change (fsstore.Change: its kind, collection and name) to
// the Change that purges what it affects. Definitions and unnamed changes purge everything.
func StoreChange(kind, collection, name string) Change {
	switch kind {
	case "entry":
		return Change{Kind: ChangeEntry, Collection: collection, Slug: name}
	case "global":
		return Change{Kind: ChangeGlobal, Handle: name}
	case "navigation":
		return Change{Kind: ChangeNavigation, Handle: name}
	case "taxonomy":
		return Change{Kind: ChangeTaxonomy, Handle: collection, Term: name}
	}
	return Change{Kind: ChangeAll}
}
