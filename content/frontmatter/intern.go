package frontmatter

import "strings"

// Interner shares the values that repeat across the documents of a large index (a category, a
// tag, an author's name): one string and one interface box for all entries that hold the same
// value, instead of an allocation each. Every garbage collection marks every object the index
// keeps, so at 100,000 entries those boxes were most of its work. Sharing is safe because
// strings and the values in boxes cannot be changed; lists and maps are never shared.
//
// It remembers at most maxInterned values of up to maxInternLen bytes and starts afresh when
// full, so values that never repeat cost a bounded table and the ones that do are still shared
// (a few copies instead of one per document). A nil *Interner shares nothing. It is not safe for
// concurrent use: give each goroutine its own.
type Interner struct {
	vals map[string]any
	skip []string
}

const (
	maxInternLen = 64
	maxInterned  = 4096
)

// NewInterner returns an Interner that leaves the values of the keys skip alone (a title or a
// timestamp is unique to its document: interning it would only fill the table).
func NewInterner(skip ...string) *Interner {
	return &Interner{vals: make(map[string]any), skip: skip}
}

// forKey returns in, or nil when the values of key are not to be interned.
func (in *Interner) forKey(key string) *Interner {
	if in == nil {
		return nil
	}
	for _, k := range in.skip {
		if k == key {
			return nil
		}
	}
	return in
}

// String returns s boxed, the same box for equal strings.
func (in *Interner) String(s string) any {
	if in == nil || len(s) > maxInternLen {
		return s
	}
	if v, ok := in.vals[s]; ok {
		return v
	}
	if len(in.vals) >= maxInterned {
		clear(in.vals)
	}
	// A copy: s is usually part of a whole document, which the shared value must not keep alive.
	c := strings.Clone(s)
	var v any = c
	in.vals[c] = v
	return v
}
