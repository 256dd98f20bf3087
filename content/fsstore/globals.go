package fsstore

import (
	"cms/content"
)

func (s *Store) globalPath(h string) string { return s.yamlFile(s.contentPath("globals"), h) }

// Global reads the data of global h from content/globals/{h}.yaml, fresh from disk. A missing
// file reads as an empty Doc; a handle that cannot be a file name is a NotFound error. Whether a
// global is defined is the caller's question ([Store.GlobalDef]).
func (s *Store) Global(h string) (content.Doc, error) {
	const op = "fsstore.Global"
	if !content.ValidHandle(h) {
		return content.Doc{}, content.NotFoundf(op, h, "Global %q not found", h)
	}
	return s.readDoc(op, s.globalPath(h))
}

// GlobalDataHandles lists the handles of the global data files, sorted.
func (s *Store) GlobalDataHandles() ([]string, error) {
	return s.yamlHandles(s.contentPath("globals"))
}

// SaveGlobal replaces the data of global h. Keys the file already has keep their place and new
// keys are appended, so the file's diff stays small. A non-empty wantHash must match the current
// file (see [Doc.Hash]), else the write is a Conflict error with [ConflictDetails].
func (s *Store) SaveGlobal(h string, data *content.Map, wantHash string) (content.Doc, error) {
	const op = "fsstore.SaveGlobal"
	if err := s.writable(op); err != nil {
		return content.Doc{}, err
	}
	if !content.ValidHandle(h) {
		return content.Doc{}, content.NotFoundf(op, h, "Global %q not found", h)
	}
	p := s.globalPath(h)
	unlock := s.lock(p)
	defer unlock()
	cur, err := s.readDoc(op, p)
	if err != nil {
		// An unreadable file is replaced in body order; its hash still guards the write.
		cur = content.Doc{Data: content.NewMap(0)}
	}
	doc, err := s.writeDoc(op, p, keepOrder(cur.Data, data), wantHash, false)
	if err == nil {
		s.changed("Updated global "+h, p)
	}
	return doc, err
}
