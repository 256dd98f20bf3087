package fsstore

import "cms/content"

func (s *Store) settingsPath() string { return s.yamlFile(s.opts.ContentDir, "settings") }

// Settings reads content/settings.yaml fresh from disk. A missing file reads as an empty Doc and
// is not created: defaults are the caller's business.
func (s *Store) Settings() (content.Doc, error) {
	return s.readDoc("fsstore.Settings", s.settingsPath())
}

// UpdateSettings rewrites content/settings.yaml with what update returns for the current values
// (an empty map when the file is missing), as one step under the file's lock, so two concurrent
// updates never lose each other's keys. update may return an error (for instance a validation
// error) to abandon the write; it must not keep cur. Keys the file already has keep their order.
// A non-empty wantHash must match the current file, else the write is a Conflict error with
// [ConflictDetails].
func (s *Store) UpdateSettings(wantHash string, update func(cur *content.Map) (*content.Map, error)) (content.Doc, error) {
	const op = "fsstore.UpdateSettings"
	if err := s.writable(op); err != nil {
		return content.Doc{}, err
	}
	p := s.settingsPath()
	unlock := s.lock(p)
	defer unlock()
	cur, err := s.readDoc(op, p)
	if err != nil {
		return content.Doc{}, err
	}
	if wantHash != "" && wantHash != cur.Hash {
		return content.Doc{}, &content.Error{Kind: content.Conflict, Op: op, Path: p,
			Message: "The settings have been modified since they were loaded; reload them and try again",
			Details: ConflictDetails{SubmittedHash: wantHash, CurrentHash: cur.Hash}}
	}
	next, err := update(cur.Data.Clone())
	if err != nil {
		return content.Doc{}, err
	}
	doc, err := s.writeDoc(op, p, keepOrder(cur.Data, next), "", false)
	if err == nil {
		s.changed("Updated settings", p)
	}
	return doc, err
}
