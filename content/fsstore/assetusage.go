package fsstore

import (
	"cms/content"
	"cms/content/query"
)

// maxUseFields bounds the field paths reported per document.
const maxUseFields = 20

// AssetUsage lists the entries (drafts included), globals and terms that refer to the asset at p
// (see [content.AssetRef]), at most limit of them (0 = all), with whether there were more.
// Entries are read from the in-memory index, so their front matter is searched but not their
// Markdown bodies; globals and terms are read from their files.
func (s *Store) AssetUsage(p, urlPrefix string, limit int) ([]content.AssetUse, bool, error) {
	ref := content.NewAssetRef(p, urlPrefix)
	var out []content.AssetUse
	full := func() bool { return limit > 0 && len(out) >= limit }
	for _, c := range s.Collections() {
		entries, _, err := s.Entries(c.Handle, query.Query{Sort: []query.SortKey{{Field: "slug"}}})
		if err != nil {
			return nil, false, err
		}
		for _, e := range entries {
			if f := ref.Fields(e.Data, maxUseFields); len(f) > 0 {
				if full() {
					return out, true, nil
				}
				out = append(out, content.AssetUse{Kind: "entry", Collection: c.Handle, Slug: e.Slug, Title: e.Title, Status: e.Status, Fields: f})
			}
		}
	}
	handles, err := s.GlobalDataHandles()
	if err != nil {
		return nil, false, err
	}
	for _, h := range handles {
		doc, err := s.Global(h)
		if err != nil {
			return nil, false, err
		}
		if f := ref.Fields(doc.Data, maxUseFields); len(f) > 0 {
			if full() {
				return out, true, nil
			}
			title := h
			if d, err := s.GlobalDef(h); err == nil && d.Title != "" {
				title = d.Title
			}
			out = append(out, content.AssetUse{Kind: "global", Handle: h, Title: title, Fields: f})
		}
	}
	for _, tax := range s.Taxonomies() {
		terms, err := s.Terms(tax.Handle)
		if err != nil {
			return nil, false, err
		}
		for _, t := range terms {
			f := ref.Fields(t.Data, maxUseFields)
			if ref.Text(t.Description) {
				f = append([]string{"description"}, f...)
			}
			if len(f) > 0 {
				if full() {
					return out, true, nil
				}
				out = append(out, content.AssetUse{Kind: "term", Taxonomy: tax.Handle, Slug: t.Slug, Title: t.Title, Fields: f})
			}
		}
	}
	return out, false, nil
}
