package index

import (
	"cms/content"
	"cms/content/frontmatter"
	"cms/content/search"
)

// SearchHit is one entry a search found, with its body as plain text (for snippets).
type SearchHit = search.Result

// Search runs q over collection c's full-text index (built on first use: see ensureSearch) and
// returns the page of hits with their bodies, and how many matched.
func (s *Index) Search(c string, q search.Query) ([]SearchHit, int, error) {
	s.applyPending()
	ix, err := s.index(c)
	if err != nil {
		return nil, 0, err
	}
	for {
		ix.ensureSearch(s)
		ix.mu.RLock()
		if ix.search != nil {
			break
		}
		ix.mu.RUnlock() // dropped by a snapshot write meanwhile (writeSearchSnapshot)
	}
	hits, total := ix.search.Search(q)
	out := make([]SearchHit, 0, len(hits))
	for _, h := range hits {
		if it := ix.entries[h.Key]; it != nil {
			out = append(out, SearchHit{Entry: it.e, Score: h.Score})
		}
	}
	ix.mu.RUnlock()
	ents := make([]*content.Entry, len(out))
	for i := range out {
		ents[i] = out[i].Entry
	}
	ix.ensureData(ents)
	for i := range out {
		if text, err := s.readText(c, out[i].Entry.Slug); err == nil {
			out[i].Text = text
		}
	}
	return out, total, nil
}

// SearchMemory reports the estimated heap bytes of the full-text indexes built so far.
func (s *Index) SearchMemory() int64 {
	s.collMu.RLock()
	defer s.collMu.RUnlock()
	var n int64
	for _, ix := range s.colls {
		ix.mu.RLock()
		if ix.search != nil {
			n += ix.search.MemoryBytes()
		}
		ix.mu.RUnlock()
	}
	return n
}

// ensureSearch builds the collection's full-text index the first time it is needed: from the
// search snapshot where there is one, re-reading only the entries whose hash differs, else from
// the files. The reading and decoding happen outside the collection's lock, so queries and
// writes go on meanwhile; under the lock it then catches up with what changed during the build
// (by hash again) and installs the index, which set keeps up to date from then on.
func (ix *collIndex) ensureSearch(s *Index) {
	ix.mu.RLock()
	built := ix.search != nil
	ix.mu.RUnlock()
	if built {
		return
	}
	ix.searchMu.Lock() // one build at a time; later callers wait for it
	defer ix.searchMu.Unlock()
	ix.mu.RLock()
	built = ix.search != nil
	type ent struct {
		slug, version, title string
		public               bool
	}
	ents := make([]ent, 0, len(ix.entries))
	for slug, it := range ix.entries {
		ents = append(ents, ent{slug, it.e.Version, it.e.Title, it.e.Published()})
	}
	ix.mu.RUnlock()
	if built {
		return
	}
	si := search.New()
	if raw := s.searchSection(ix.handle); raw != "" {
		if dec, err := search.Decode(raw); err != nil {
			s.log.Warn("full-text index in the snapshot is unusable; rebuilding it from the files", "collection", ix.handle, "err", err)
		} else {
			si = dec
		}
	}
	for _, e := range ents {
		if tag, ok := si.Tag(e.slug); ok && tag == e.version {
			continue
		}
		if text, err := s.readText(ix.handle, e.slug); err == nil {
			si.Add(e.slug, e.version, e.title, text, e.public)
		}
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.catchUp(s, si)
	ix.search = si
}

// catchUp makes si hold exactly the current entries at their current versions. ix.mu must be held
// for writing.
func (ix *collIndex) catchUp(s *Index, si *search.Index) {
	for _, slug := range si.Keys() {
		if ix.entries[slug] == nil {
			si.Remove(slug)
		}
	}
	for slug, it := range ix.entries {
		if tag, ok := si.Tag(slug); ok && tag == it.e.Version {
			continue
		}
		if text, err := s.readText(ix.handle, slug); err == nil {
			si.Add(slug, it.e.Version, it.e.Title, text, it.e.Published())
		} else {
			si.Remove(slug)
		}
	}
}

// searchUpdate applies a change of entry slug to the full-text index, if it is built. ix.mu
// must be held for writing.
func (ix *collIndex) searchUpdate(s *Index, slug string, it *indexed) {
	s.searchSnap.changes.Add(1)
	if ix.search == nil {
		return
	}
	if it == nil {
		ix.search.Remove(slug)
		return
	}
	text, err := s.readText(ix.handle, slug)
	if err != nil {
		ix.search.Remove(slug)
		return
	}
	ix.search.Add(slug, it.e.Version, it.e.Title, text, it.e.Published())
}

// readText reads an entry file's body as plain text (search.PlainText), what the full-text
// index holds besides the title.
func (s *Index) readText(c, slug string) (string, error) {
	bp, _ := s.bufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer s.bufs.Put(bp)
	raw, _, _, err := readVia(s.root, s.entryPath(c, slug), bp)
	if err != nil {
		return "", err
	}
	_, body, _, err := frontmatter.Split(raw)
	if err != nil {
		return "", err
	}
	return search.PlainText(string(body)), nil
}
