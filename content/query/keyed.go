package query

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"

	"cms/content"
)

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

// Order returns the positions of entries in the order Sort puts them under keys (ties keep their
// input order), for indexes that build sorted orders of whole collections. Each entry's values
// are prepared once and its first key's value is kept beside its position, so the sort compares
// mostly within one compact array instead of chasing every entry.
func Order(entries []*content.Entry, keys []SortKey) []int32 {
	o, _ := orders(entries, keys, false)
	return o
}

// Orders is Order, and also the order under keys with the first key's direction reversed,
// derived without sorting again: the groups of equal first values in reverse, each group kept
// in its order (the later keys'), and the entries without a value last in both.
func Orders(entries []*content.Entry, keys []SortKey) (order, reversed []int32) {
	return orders(entries, keys, true)
}

func orders(entries []*content.Entry, keys []SortKey, rev bool) (order, reversed []int32) {
	if len(keys) == 0 {
		out := make([]int32, len(entries))
		for i := range out {
			out[i] = int32(i)
		}
		return out, slices.Clone(out)
	}
	ks := decorate(entries, keys)
	nk := len(keys)
	// Every value's prefix, so most comparisons read two compact words instead of chasing the
	// prepared values; the first key's beside each position, the later keys' in pre.
	pre := make([]prefix, len(ks)*nk)
	for i := range ks {
		for j := range keys {
			pre[i*nk+j] = prefixOf(&ks[i].vals[j])
		}
	}
	items := make([]orderItem, len(ks))
	for i := range ks {
		items[i] = orderItem{p: pre[i*nk], pos: int32(i)}
	}
	desc := keys[0].Desc
	slices.SortFunc(items, func(a, b orderItem) int {
		c := comparePrefixed(a.p, b.p, ks, a.pos, b.pos, 0, desc)
		for j := 1; c == 0 && j < nk; j++ {
			c = comparePrefixed(pre[int(a.pos)*nk+j], pre[int(b.pos)*nk+j], ks, a.pos, b.pos, j, keys[j].Desc)
		}
		if c == 0 {
			c = cmp.Compare(a.pos, b.pos)
		}
		return c
	})
	order = make([]int32, len(items))
	for i := range items {
		order[i] = items[i].pos
	}
	if !rev {
		return order, nil
	}
	reversed = make([]int32, 0, len(items))
	present := len(items)
	for present > 0 && items[present-1].p.kind == kindAbsent {
		present--
	}
	for end := present; end > 0; {
		start := end - 1
		for start > 0 && comparePrefixed(items[start-1].p, items[start].p, ks, items[start-1].pos, items[start].pos, 0, false) == 0 {
			start--
		}
		reversed = append(reversed, order[start:end]...)
		end = start
	}
	return order, append(reversed, order[present:]...)
}

// orderItem is one entry being ordered: its first key's value prefix and its position.
type orderItem struct {
	p   prefix
	pos int32
}

// prefix is a prepared value (sortVal) reduced to a word that orders as compareVals does where
// it can: numbers and dates exactly, strings by their first eight lower-cased bytes (equal
// prefixes say nothing).
type prefix struct {
	v    uint64
	kind uint8
}

// The kinds of prefix. Two prefixes of the same kind compare as their values when the kind is
// exact or the values differ; any other pair compares its sortVals.
const (
	kindAbsent uint8 = iota // no value: after every present one
	kindOther               // a value the prefix cannot order (booleans, lists, NaN...)
	kindNumber              // exact
	kindDate                // exact
	kindString              // the lower-cased string's first eight bytes
)

func prefixOf(v *sortVal) prefix {
	switch {
	case !v.present:
		return prefix{kind: kindAbsent}
	case v.rank == 2 && v.num == v.num: // not NaN, which compares equal to every number
		f := v.num
		if f == 0 {
			f = 0 // -0 equals 0
		}
		b := math.Float64bits(f)
		if b>>63 != 0 {
			b = ^b
		} else {
			b |= 1 << 63
		}
		return prefix{v: b, kind: kindNumber}
	case v.rank == 3 && v.isDate:
		return prefix{v: uint64(v.date) ^ 1<<63, kind: kindDate}
	case v.rank == 3:
		var b [8]byte
		copy(b[:], v.lower)
		return prefix{v: binary.BigEndian.Uint64(b[:]), kind: kindString}
	}
	return prefix{kind: kindOther}
}

// comparePrefixed compares the values of key j of ks[a] and ks[b] (prefixes pa and pb) in the
// key's direction, missing values last in either: as compareFrom does for one key, reading the
// prepared values only when the prefixes cannot tell.
func comparePrefixed(pa, pb prefix, ks []keyed, a, b int32, j int, desc bool) int {
	switch {
	case pa.kind == kindAbsent && pb.kind == kindAbsent:
		return 0
	case pa.kind == kindAbsent:
		return 1
	case pb.kind == kindAbsent:
		return -1
	}
	var c int
	if pa.kind == pb.kind && pa.kind != kindOther && (pa.v != pb.v || pa.kind != kindString) {
		c = cmp.Compare(pa.v, pb.v)
	} else {
		c = compareVals(&ks[a].vals[j], &ks[b].vals[j])
	}
	if desc {
		return -c
	}
	return c
}
