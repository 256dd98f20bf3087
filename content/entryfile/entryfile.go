// Package entryfile reads and writes the Markdown file of one entry: front matter with the
// known metadata keys lifted out, then the body. It is pure: the store does the file I/O.
package entryfile

import (
	"crypto/sha256"
	"encoding/hex"

	"cms/content"
	"cms/content/frontmatter"
)

// Parse parses an entry file. Known metadata keys are lifted out of the front matter; the
// rest become Data. Missing title defaults to the slug, missing status to draft.
func Parse(collection, slug string, raw []byte) (*content.Entry, error) {
	doc, err := frontmatter.Parse(raw)
	if err != nil {
		return nil, err
	}
	e := entryFromFront(collection, slug, raw, doc.Front)
	e.Content = doc.Body
	return e, nil
}

// ParseMeta is Parse without the body, for the store's index: it neither copies the body nor
// keeps raw, so raw may be a reused buffer.
func ParseMeta(collection, slug string, raw []byte) (*content.Entry, error) {
	front, err := frontmatter.ParseFront(raw)
	if err != nil {
		return nil, err
	}
	return entryFromFront(collection, slug, raw, front), nil
}

func entryFromFront(collection, slug string, raw []byte, front *content.Map) *content.Entry {
	sum := sha256.Sum256(raw)
	e := &content.Entry{Collection: collection, Slug: slug, Hash: hex.EncodeToString(sum[:]), Data: content.NewMap(front.Len())}
	for _, k := range front.Keys() {
		v := front.Value(k)
		switch k {
		case "title":
			e.Title = content.ScalarString(v)
		case "slug":
			// The file name is the slug; a differing key is ignored rather than trusted.
		case "status":
			e.Status = content.ScalarString(v)
		case "author":
			e.Author = content.ScalarString(v)
		case "createdAt":
			e.CreatedAt = content.ScalarString(v)
		case "updatedAt":
			e.UpdatedAt = content.ScalarString(v)
		default:
			e.Data.Set(k, v)
		}
	}
	if e.Title == "" {
		e.Title = slug
	}
	if e.Status != content.StatusPublished {
		e.Status = content.StatusDraft
	}
	return e
}

// Format serialises an entry: title, slug, status, createdAt, updatedAt, author, then the
// custom fields in their order, then the body.
func Format(e *content.Entry) ([]byte, error) {
	fm := content.NewMap(6 + e.Data.Len())
	fm.Set("title", e.Title)
	fm.Set("slug", e.Slug)
	fm.Set("status", e.Status)
	if e.CreatedAt != "" {
		fm.Set("createdAt", e.CreatedAt)
	}
	if e.UpdatedAt != "" {
		fm.Set("updatedAt", e.UpdatedAt)
	}
	if e.Author != "" {
		fm.Set("author", e.Author)
	}
	for _, k := range e.Data.Keys() {
		if content.IsReservedEntryKey(k) {
			continue
		}
		fm.Set(k, e.Data.Value(k))
	}
	return frontmatter.Format(fm, e.Content)
}
