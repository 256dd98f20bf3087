package fsstore

import (
	"errors"
	"io/fs"
	"slices"

	"cms/content"
	"cms/content/internal/atomicfile"
	"cms/content/query"
)

func (s *Store) termDir(tax string) string { return s.contentPath("taxonomies", tax) }

func (s *Store) termPath(tax, slug string) string { return s.yamlFile(s.termDir(tax), slug) }

// checkTaxonomy returns a NotFound error unless tax is a defined taxonomy.
func (s *Store) checkTaxonomy(tax string) error {
	if !content.ValidHandle(tax) {
		return content.NotFoundf("fsstore.Taxonomy", tax, "Taxonomy %q not found", tax)
	}
	_, err := s.Taxonomy(tax)
	return err
}

// Terms lists the terms of a defined taxonomy in file-name order, read fresh from disk. Files
// that do not parse are skipped and reported once in the log ([Store.Problems]). An undefined
// taxonomy is a NotFound error.
func (s *Store) Terms(tax string) ([]*content.Term, error) {
	const op = "fsstore.Terms"
	if err := s.checkTaxonomy(tax); err != nil {
		return nil, err
	}
	slugs, err := s.yamlHandles(s.termDir(tax))
	if err != nil {
		return nil, err
	}
	out := make([]*content.Term, 0, len(slugs))
	for _, slug := range slugs {
		doc, err := s.readDoc(op, s.termPath(tax, slug))
		if err != nil || !doc.Exists {
			continue // reported by readDoc; a file removed meanwhile is simply gone
		}
		out = append(out, content.ParseTerm(tax, slug, doc.Data))
	}
	return out, nil
}

// Term reads one term and the hash of its file (for If-Match), or returns a NotFound error.
func (s *Store) Term(tax, slug string) (*content.Term, string, error) {
	const op = "fsstore.Term"
	if err := s.checkTaxonomy(tax); err != nil {
		return nil, "", err
	}
	if !content.ValidHandle(slug) {
		return nil, "", content.NotFoundf(op, slug, "Term %q not found", tax+"/"+slug)
	}
	doc, err := s.readDoc(op, s.termPath(tax, slug))
	if err != nil {
		return nil, "", err
	}
	if !doc.Exists {
		return nil, "", content.NotFoundf(op, slug, "Term %q not found", tax+"/"+slug)
	}
	return content.ParseTerm(tax, slug, doc.Data), doc.Hash, nil
}

// CreateTerm writes a new term file. A slug that is taken is a Conflict error; an invalid slug
// an Invalid error on the slug field.
func (s *Store) CreateTerm(t *content.Term) (*content.Term, string, error) {
	const op = "fsstore.CreateTerm"
	if err := s.writable(op); err != nil {
		return nil, "", err
	}
	if err := s.checkTaxonomy(t.Taxonomy); err != nil {
		return nil, "", err
	}
	if !content.ValidHandle(t.Slug) {
		return nil, "", content.InvalidFields(op, "Invalid term slug", map[string][]string{"slug": {"Use letters, digits, '-' and '_', starting with a letter or digit"}})
	}
	p := s.termPath(t.Taxonomy, t.Slug)
	unlock := s.lock(p)
	defer unlock()
	doc, err := s.writeDoc(op, p, content.TermFile(t), "", true)
	if err != nil {
		if content.KindOf(err) == content.Conflict {
			return nil, "", content.Conflictf(op, "A term with the slug %q already exists in taxonomy %q", t.Slug, t.Taxonomy)
		}
		return nil, "", err
	}
	s.changed("Created term "+t.Taxonomy+"/"+t.Slug, p)
	return content.ParseTerm(t.Taxonomy, t.Slug, doc.Data), doc.Hash, nil
}

// UpdateTerm replaces an existing term's file (its slug stays). A missing term is a NotFound
// error; a non-empty wantHash must match the current file, else the write is a Conflict error
// with [ConflictDetails].
func (s *Store) UpdateTerm(t *content.Term, wantHash string) (*content.Term, string, error) {
	const op = "fsstore.UpdateTerm"
	if err := s.writable(op); err != nil {
		return nil, "", err
	}
	if err := s.checkTaxonomy(t.Taxonomy); err != nil {
		return nil, "", err
	}
	if !content.ValidHandle(t.Slug) {
		return nil, "", content.NotFoundf(op, t.Slug, "Term %q not found", t.Taxonomy+"/"+t.Slug)
	}
	p := s.termPath(t.Taxonomy, t.Slug)
	unlock := s.lock(p)
	defer unlock()
	if !s.exists(p) {
		return nil, "", content.NotFoundf(op, t.Slug, "Term %q not found", t.Taxonomy+"/"+t.Slug)
	}
	cur, err := s.readDoc(op, p)
	if err != nil {
		cur = content.Doc{Data: content.NewMap(0)}
	}
	doc, err := s.writeDoc(op, p, keepOrder(cur.Data, content.TermFile(t)), wantHash, false)
	if err != nil {
		return nil, "", err
	}
	s.changed("Updated term "+t.Taxonomy+"/"+t.Slug, p)
	return content.ParseTerm(t.Taxonomy, t.Slug, doc.Data), doc.Hash, nil
}

// DeleteTerm removes a term file, or returns a NotFound error. It does not look for entries
// that still name the term; see [Store.TermReferences].
func (s *Store) DeleteTerm(tax, slug string) error {
	const op = "fsstore.DeleteTerm"
	if err := s.writable(op); err != nil {
		return err
	}
	if err := s.checkTaxonomy(tax); err != nil {
		return err
	}
	if !content.ValidHandle(slug) {
		return content.NotFoundf(op, slug, "Term %q not found", tax+"/"+slug)
	}
	p := s.termPath(tax, slug)
	unlock := s.lock(p)
	defer unlock()
	if err := atomicfile.Remove(s.root, p, atomicfile.Options{NoSync: s.opts.NoSync}); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return content.NotFoundf(op, slug, "Term %q not found", tax+"/"+slug)
		}
		return content.Internalf(op, p, err)
	}
	s.changed("Deleted term "+tax+"/"+slug, p)
	s.noteChange(p)
	return nil
}

// TermFields returns the fields of a collection that hold terms of taxonomy tax: fields of type
// taxonomy whose options.taxonomy is tax (or, without that option, whose handle is tax). When
// the collection lists the taxonomy but its blueprint has no such field, the field named after
// the taxonomy is assumed, as Madori's example sites store tags under "tags".
func (s *Store) TermFields(c *content.Collection, tax string) []string {
	if !slices.Contains(c.Taxonomies, tax) {
		return nil
	}
	var out []string
	if bp, err := s.Blueprint(content.BlueprintCollections, c.Blueprint); err == nil {
		for _, f := range bp.Fields() {
			if f.Type != "taxonomy" {
				continue
			}
			if t, ok := f.Options.String("taxonomy"); ok && t != "" {
				if t == tax {
					out = append(out, f.Handle)
				}
			} else if f.Handle == tax {
				out = append(out, f.Handle)
			}
		}
	}
	if len(out) == 0 {
		out = []string{tax}
	}
	return out
}

// TermReferences lists the entries (as "collection/slug", drafts included) whose term fields
// name the term, at most limit of them (0 = all), in collection then slug order. It reads only
// the in-memory entry index.
func (s *Store) TermReferences(tax, slug string, limit int) ([]string, error) {
	var out []string
	for _, c := range s.Collections() {
		for _, field := range s.TermFields(c, tax) {
			entries, _, err := s.Entries(c.Handle, query.Query{Filter: map[string]any{field: slug}, Sort: []query.SortKey{{Field: "slug"}}})
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				ref := c.Handle + "/" + e.Slug
				if !slices.Contains(out, ref) {
					out = append(out, ref)
				}
				if limit > 0 && len(out) >= limit {
					return out, nil
				}
			}
		}
	}
	return out, nil
}
