package query

import (
	"fmt"
	"slices"
	"strings"

	"cms/content"
)

// MaxFields bounds the names of one fields= projection.
const MaxFields = 50

// metadataFields are the entry attributes every collection has, which filters and sorts may name.
var metadataFields = []string{"title", "slug", "status", "author", "collection", "createdAt", "updatedAt"}

// IsMetadata reports whether name is an entry attribute every collection has.
func IsMetadata(name string) bool { return slices.Contains(metadataFields, name) }

// KnownFields returns the test of which fields an entry of c can hold: the metadata, the fields
// of its blueprint bp, "order" in a sortable collection and the term field of each taxonomy it
// lists. Without a blueprint (bp nil) the front matter is free-form and every field is known.
func KnownFields(c *content.Collection, bp *content.Blueprint) func(string) bool {
	if bp == nil {
		return func(string) bool { return true }
	}
	return func(name string) bool {
		if IsMetadata(name) || (c.Sortable && name == "order") || slices.Contains(c.Taxonomies, name) {
			return true
		}
		_, ok := bp.Field(name)
		return ok
	}
}

// CheckFields reports the first filter or sort field of q that known refuses, naming the
// collection, so a misspelt field is an error rather than an empty page or an arbitrary order.
func (q *Query) CheckFields(collection string, known func(string) bool) error {
	names := make([]string, 0, len(q.Filter))
	for k := range q.Filter {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if !known(k) {
			return fmt.Errorf("filter field %q is not a field of collection %q", content.Shorten(k), collection)
		}
	}
	for _, k := range q.Sort {
		if !known(k.Field) {
			return fmt.Errorf("sort field %q is not a field of collection %q", content.Shorten(k.Field), collection)
		}
	}
	return nil
}

// ParseFields parses a projection, "title,slug,excerpt": distinct field names, at most
// MaxFields. "" is nil (every field). Which names exist is the caller's to check.
func ParseFields(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxFields {
		return nil, fmt.Errorf("fields takes at most %d names", MaxFields)
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if !ValidField(p) {
			return nil, fmt.Errorf("fields: %q is not a valid field name (use a comma-separated list such as title,slug)", content.Shorten(p))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}
