package query

import "cms/content"

// Keyed is an entry with its sort-key values resolved and prepared (dates parsed, strings
// lower-cased) once, for indexes that keep entries in sort order and compare them often.
type Keyed struct{ k keyed }

// Key prepares e's values of keys.
func Key(e *content.Entry, keys []SortKey) Keyed {
	return Keyed{decorate([]*content.Entry{e}, keys)[0]}
}

// Keys prepares the values of keys of every entry, in the order given.
func Keys(entries []*content.Entry, keys []SortKey) []Keyed {
	ks := decorate(entries, keys)
	out := make([]Keyed, len(ks))
	for i := range ks {
		out[i] = Keyed{ks[i]}
	}
	return out
}

// Entry returns the entry a was prepared from.
func (a *Keyed) Entry() *content.Entry { return a.k.e }

// CompareKeyed orders a before b (< 0) or after it (> 0) exactly as Sort would order them under
// keys, the keys they were prepared with; 0 means Sort would keep their input order.
func CompareKeyed(a, b *Keyed, keys []SortKey) int { return compareKeyed(&a.k, &b.k, keys) }

// CompareFirst compares a's value of its first key with v under Compare's order (missing
// values after every present one), for range scans over entries sorted by that key.
func CompareFirst(a *Keyed, v any) int {
	p := prepare(v, v != nil)
	va := &a.k.vals[0]
	switch {
	case !va.present && !p.present:
		return 0
	case !va.present:
		return 1
	case !p.present:
		return -1
	}
	return compareVals(va, &p)
}

// Present reports whether a has a value for its first key.
func (a *Keyed) Present() bool { return a.k.vals[0].present }

// Rank is the type rank of a's value of its first key, by which Compare orders values of
// different types (booleans, then numbers, then strings, then lists, then objects); 0 when a has
// none.
func (a *Keyed) Rank() int {
	if !a.k.vals[0].present {
		return 0
	}
	return a.k.vals[0].rank
}

// RankOf is the type rank of a value (see Keyed.Rank).
func RankOf(v any) int { return rank(v) }
