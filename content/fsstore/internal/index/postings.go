package index

import (
	"strconv"

	"cms/content"
)

// maxPostingFields bounds how many fields of one collection get an equality index.
const maxPostingFields = 32

// postings is an equality index of one collection: field -> value key -> entries holding that
// value (each item of a list field counts). It is built lazily per field the first time a
// filter uses it and dropped whenever the collection changes, so a filtered list visits only
// the candidates of its most selective filter instead of every entry.
type postings map[string]map[string][]*content.Entry

// valueKey gives equal values (in the sense of query.Equal) the same key: numbers by value
// whatever their Go type, strings and booleans tagged by type. Other values are not indexed.
func valueKey(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return "s" + x, true
	case bool:
		if x {
			return "btrue", true
		}
		return "bfalse", true
	case int64:
		return "n" + strconv.FormatFloat(float64(x), 'g', -1, 64), true
	case float64:
		return "n" + strconv.FormatFloat(x, 'g', -1, 64), true
	case int:
		return "n" + strconv.FormatFloat(float64(x), 'g', -1, 64), true
	}
	return "", false
}

// candidates returns the entries that may match filter, using the most selective indexable
// filter field, or ok=false when no filter can use the index (then every entry is a candidate).
// The caller must still apply the whole filter.
func (ix *collIndex) candidates(filter map[string]any) (cands []*content.Entry, ok bool) {
	if len(filter) == 0 {
		return nil, false
	}
	best := -1
	for field, want := range filter {
		key, indexable := valueKey(want)
		if !indexable {
			continue
		}
		byValue := ix.fieldPostings(field)
		if byValue == nil {
			continue
		}
		list := byValue[key]
		if best == -1 || len(list) < best {
			best = len(list)
			cands = list
		}
	}
	return cands, best >= 0
}

// fieldPostings returns (building if needed) the value index of one field, or nil when the
// collection already indexes maxPostingFields fields.
func (ix *collIndex) fieldPostings(field string) map[string][]*content.Entry {
	ix.mu.RLock()
	byValue, ok := ix.post[field]
	ix.mu.RUnlock()
	if ok {
		return byValue
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if byValue, ok := ix.post[field]; ok {
		return byValue
	}
	if len(ix.post) >= maxPostingFields {
		return nil
	}
	byValue = map[string][]*content.Entry{}
	for _, it := range ix.entries {
		v, present := it.e.Field(field)
		if !present {
			continue
		}
		if list, isList := v.([]any); isList {
			seen := map[string]bool{}
			for _, item := range list {
				if k, ok := valueKey(item); ok && !seen[k] {
					seen[k] = true
					byValue[k] = append(byValue[k], it.e)
				}
			}
			continue
		}
		if k, ok := valueKey(v); ok {
			byValue[k] = append(byValue[k], it.e)
		}
	}
	if ix.post == nil {
		ix.post = postings{}
	}
	ix.post[field] = byValue
	return byValue
}
