// Package entryfile reads and writes the Markdown file of one entry: front matter with the
// known metadata keys lifted out, then the body. It is pure: the store does the file I/O.
package entryfile

import (
	"crypto/sha256"
	"encoding/hex"
	"unsafe"

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

// ParseMeta is Parse without the body, as the store's index keeps an entry: it neither copies
// the body nor keeps raw, so raw may be a reused buffer, and it sets the entry's Version but not
// its Hash (see ParseMetaInto).
func ParseMeta(collection, slug string, raw []byte) (*content.Entry, error) {
	m := new(Meta)
	if err := ParseMetaInto(m, nil, collection, slug, raw); err != nil {
		return nil, err
	}
	return &m.Entry, nil
}

// Meta is an entry without its body as the index keeps it: the entry, its custom fields' map
// and its version in one allocation (ParseMetaInto), where separate ones cost every garbage
// collection of a 100,000-entry index three more objects per entry to mark.
type Meta struct {
	Entry   content.Entry
	data    content.Map
	version [content.VersionLen]byte
}

// NewInterner returns an Interner for ParseMetaInto: it shares the values of custom fields,
// authors and statuses that repeat across entries, not the titles and dates unique to each.
func NewInterner() *frontmatter.Interner {
	return frontmatter.NewInterner("title", "slug", "createdAt", "updatedAt")
}

// ParseMetaInto is ParseMeta into m (which must be new), sharing repeated values through in
// (nil: none). On an error m is left unusable. The entry gets a Version and no Hash: the index
// needs to tell versions apart, and SHA-256 over every file was a tenth of a cold start's CPU
// (the contentHash is computed where an entry is read whole, Parse).
func ParseMetaInto(m *Meta, in *frontmatter.Interner, collection, slug string, raw []byte) error {
	front, err := frontmatter.ParseFrontShared(raw, in)
	if err != nil {
		return err
	}
	content.PutVersion(&m.version, raw)
	// m.version is never written again, so the string may alias it.
	fill(&m.Entry, &m.data, collection, slug, "", unsafe.String(&m.version[0], len(m.version)), front)
	return nil
}

func entryFromFront(collection, slug string, raw []byte, front *content.Map) *content.Entry {
	sum := sha256.Sum256(raw)
	e := new(content.Entry)
	fill(e, new(content.Map), collection, slug, hex.EncodeToString(sum[:]), content.VersionOf(raw), front)
	return e
}

// fill sets e from front matter, with the custom fields in data (empty).
func fill(e *content.Entry, data *content.Map, collection, slug, hash, version string, front *content.Map) {
	custom := 0
	for _, k := range front.Keys() {
		if !lifted(k) {
			custom++
		}
	}
	*data = *content.NewMap(custom)
	*e = content.Entry{Collection: collection, Slug: slug, Hash: hash, Version: version, Data: data}
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
}

// lifted reports whether front matter key k is an Entry field rather than custom data.
func lifted(k string) bool {
	switch k {
	case "title", "slug", "status", "author", "createdAt", "updatedAt":
		return true
	}
	return false
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
