package index

import (
	"math"
	"math/bits"
	"slices"
	"strconv"

	"cms/content"
)

// maxPostingFields bounds how many fields of one collection get an equality index.
const maxPostingFields = 32

// postings is an equality index of one collection: field -> value key -> the entries holding
// that value (each item of a list field counts). It is built per field the first time a query
// filters on it and kept up to date on every change (derived.update), so a filter is answered
// from the lists without looking at an entry.
type postings map[string]map[string]*plist

// plist is one posting list: ascending ids while few entries hold the value, a bitset by id once
// at least one in 64 do (then intersecting is a word-wise AND, and the bitset costs no more
// than the ids would).
type plist struct {
	n    int
	ids  []uint32 // while sparse
	bits []uint64 // once dense
}

func (l *plist) has(id uint32) bool {
	if l.bits != nil {
		w := int(id >> 6)
		return w < len(l.bits) && l.bits[w]&(1<<(id&63)) != 0
	}
	_, found := slices.BinarySearch(l.ids, id)
	return found
}

// add adds id; slots is the number of ids in use, which decides when the list turns dense.
func (l *plist) add(id uint32, slots int) {
	if l.bits == nil {
		i, found := slices.BinarySearch(l.ids, id)
		if found {
			return
		}
		l.ids = slices.Insert(l.ids, i, id)
		l.n++
		if l.n*64 >= slots {
			l.densify(slots)
		}
		return
	}
	w := int(id >> 6)
	if w >= len(l.bits) {
		l.bits = append(l.bits, make([]uint64, w+1-len(l.bits))...)
	}
	if l.bits[w]&(1<<(id&63)) == 0 {
		l.bits[w] |= 1 << (id & 63)
		l.n++
	}
}

func (l *plist) del(id uint32) {
	if l.bits == nil {
		if i, found := slices.BinarySearch(l.ids, id); found {
			l.ids = slices.Delete(l.ids, i, i+1)
			l.n--
		}
		return
	}
	if l.has(id) {
		l.bits[id>>6] &^= 1 << (id & 63)
		l.n--
	}
}

func (l *plist) densify(slots int) {
	l.bits = make([]uint64, (slots+63)/64)
	for _, id := range l.ids {
		l.bits[id>>6] |= 1 << (id & 63)
	}
	l.ids = nil
}

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
		return numKey(float64(x)), true
	case float64:
		return numKey(x), true
	case int:
		return numKey(float64(x)), true
	}
	return "", false
}

func numKey(f float64) string {
	if f == 0 {
		f = 0 // -0 == 0 for query.Equal
	}
	if math.IsNaN(f) {
		return "nNaN!" // never equal, not even to itself; no filter value is NaN
	}
	return "n" + strconv.FormatFloat(f, 'g', -1, 64)
}

// valueKeys appends to buf the distinct keys under which e is found for field: its value's,
// or each item's of a list. An entry without the field, or with a value no filter can equal
// through the index (null, an object, a list inside a list), has none.
func valueKeys(e *content.Entry, field string, buf []string) []string {
	v, present := e.Field(field)
	if !present {
		return buf
	}
	return appendValueKeys(buf, v)
}

// appendValueKeys is valueKeys for a present value v.
func appendValueKeys(buf []string, v any) []string {
	list, isList := v.([]any)
	if !isList {
		if k, ok := valueKey(v); ok {
			buf = append(buf, k)
		}
		return buf
	}
	start := len(buf)
	for _, item := range list {
		if k, ok := valueKey(item); ok && !slices.Contains(buf[start:], k) {
			buf = append(buf, k)
		}
	}
	return buf
}

// buildPostings indexes one field of every entry.
func (d *derived) buildPostings(field string) map[string]*plist {
	byValue := map[string]*plist{}
	var buf []string
	// Entries after one another often have the same value (a status, a category): the last
	// string value's list takes the next entry of that value without its key being built and
	// looked up again, a third of indexing the status of 100,000 entries.
	var last string
	var lastList *plist
	custom := !builtinField(field) // read from the snapshot's encoding while an entry has not decoded it
	for id, it := range d.slots {
		if it == nil {
			continue
		}
		var v any
		var present bool
		if custom {
			v, present = it.field(field)
		} else {
			v, present = it.e.Field(field)
		}
		if !present {
			continue
		}
		s, isString := v.(string)
		if isString && lastList != nil && s == last {
			lastList.ids = append(lastList.ids, uint32(id))
			lastList.n++
			continue
		}
		buf = appendValueKeys(buf[:0], v)
		for _, k := range buf {
			l := byValue[k]
			if l == nil {
				l = &plist{}
				byValue[k] = l
			}
			l.ids = append(l.ids, uint32(id)) // ids ascend: lists stay sorted
			l.n++
			if isString {
				last, lastList = s, l
			}
		}
	}
	for _, l := range byValue {
		if l.n*64 >= len(d.slots) {
			l.densify(len(d.slots))
		}
	}
	return byValue
}

func (d *derived) unpost(id uint32, e *content.Entry) {
	var buf []string
	for field, byValue := range d.post {
		buf = valueKeys(e, field, buf[:0])
		for _, k := range buf {
			if l := byValue[k]; l != nil {
				l.del(id)
				if l.n == 0 {
					delete(byValue, k)
				}
			}
		}
	}
}

func (d *derived) repost(id uint32, e *content.Entry) {
	var buf []string
	for field, byValue := range d.post {
		buf = valueKeys(e, field, buf[:0])
		for _, k := range buf {
			l := byValue[k]
			if l == nil {
				l = &plist{}
				byValue[k] = l
			}
			l.add(id, len(d.slots))
		}
	}
}

// candidates intersects lists (none empty) into set, a zeroed bitset of every id, and returns
// how many ids it holds. When one list is sparse it visits that list's ids (the smallest such),
// testing each against the others, and returns them too (ascending); otherwise it ANDs the
// bitsets word by word and returns ids == nil.
func candidates(lists []*plist, set []uint64) (n int, ids []uint32) {
	slices.SortFunc(lists, func(a, b *plist) int { return a.n - b.n })
	for i, l := range lists {
		if l.bits != nil {
			continue
		}
		ids = make([]uint32, 0, l.n)
	next:
		for _, id := range l.ids {
			for j, other := range lists {
				if j != i && !other.has(id) {
					continue next
				}
			}
			set[id>>6] |= 1 << (id & 63)
			ids = append(ids, id)
		}
		return len(ids), ids
	}
	copy(set, lists[0].bits)
	for _, other := range lists[1:] {
		w := min(len(set), len(other.bits))
		for i := range w {
			set[i] &= other.bits[i]
		}
		clear(set[w:])
	}
	for _, w := range set {
		n += bits.OnesCount64(w)
	}
	return n, nil
}

// or sets l's ids in b, a bitset of every id.
func (l *plist) or(b []uint64) {
	if l.bits != nil {
		for i, w := range l.bits[:min(len(l.bits), len(b))] {
			b[i] |= w
		}
		return
	}
	for _, id := range l.ids {
		b[id>>6] |= 1 << (id & 63)
	}
}
