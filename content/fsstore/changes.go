package fsstore

import (
	"strings"

	"cms/content/fsstore/internal/index"
)

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

// Change is one content change, as Options.OnChange hears it. The sources are this store's
// writes, the file watcher's hand edits and, in WatchGeneration mode, other processes' writes
// read from the generation file (where globals and navigation are not named: ChangeAll).
type Change struct {
	Kind       ChangeKind
	Collection string
	Name       string
}

func (s *Store) emit(ch Change) {
	if s.opts.OnChange != nil {
		s.opts.OnChange(ch)
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
