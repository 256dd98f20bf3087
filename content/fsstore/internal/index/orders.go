package index

import (
	"maps"
	"slices"
	"strings"
	"sync"

	"cms/content"
	"cms/content/query"
)

// maxOrders bounds how many sorted orders one collection keeps (each costs 4 bytes an entry).
const maxOrders = 16

// derived is what queries keep of a collection beyond its entries: a dense id per entry, the
// equality postings and the sorted orders. It is built on the first query that needs it and
// then kept up to date by every change (collIndex.set) rather than rebuilt, so a write to a
// 100,000-entry collection costs a few binary searches instead of the next query's rebuild.
type derived struct {
	slots  []*indexed        // id -> entry; nil for a free id
	free   []uint32          // ids to reuse
	ids    map[string]uint32 // slug -> id
	n      int               // entries
	post   postings
	orders map[string]*order // by orderKey
	// building holds the orders being sorted outside the lock; closed when done.
	building map[string]chan struct{}
	bits     sync.Pool // *[]uint64 candidate sets of walks
}

// order is the ids of every entry sorted by keys (which end in slug, so the order is total
// and the same as query.Sort's).
type order struct {
	keys []query.SortKey
	ids  []uint32
}

// parseOrderKey reads the keys back from an orderKey (a snapshot's), or reports false.
func parseOrderKey(k string) ([]query.SortKey, bool) {
	rest, ok := strings.CutSuffix(k, ",")
	if !ok {
		return nil, false
	}
	var keys []query.SortKey
	for f := range strings.SplitSeq(rest, ",") {
		sk := query.SortKey{Field: f}
		if sk.Field, sk.Desc = strings.CutPrefix(f, "-"); !query.ValidField(sk.Field) {
			return nil, false
		}
		keys = append(keys, sk)
	}
	return keys, true
}

func orderKey(keys []query.SortKey) string {
	var b strings.Builder
	for _, k := range keys {
		if k.Desc {
			b.WriteByte('-')
		}
		b.WriteString(k.Field)
		b.WriteByte(',')
	}
	return b.String()
}

func newDerived(entries map[string]*indexed) *derived {
	d := &derived{
		slots:    make([]*indexed, 0, len(entries)),
		ids:      make(map[string]uint32, len(entries)),
		post:     postings{},
		orders:   map[string]*order{},
		building: map[string]chan struct{}{},
	}
	for slug, it := range entries {
		d.ids[slug] = uint32(len(d.slots))
		d.slots = append(d.slots, it)
	}
	d.n = len(entries)
	return d
}

// entry returns the entry of id with its custom fields decoded: orders and filters over a custom
// field read them, and an entry loaded from the snapshot decodes them on first use.
func (d *derived) entry(id uint32) *content.Entry {
	it := d.slots[id]
	it.decode()
	return it.e
}

// buildOrder sorts every entry by keys.
func (d *derived) buildOrder(keys []query.SortKey) *order {
	o, _ := d.buildOrders(keys)
	return o
}

// buildOrders sorts every entry by keys, and returns the order with keys' first direction
// reversed too (see sortOrders).
func (d *derived) buildOrders(keys []query.SortKey) (o, rev *order) {
	ents, ids := d.orderInput()
	return sortOrders(ents, ids, keys)
}

// orderInput lists the entries (their custom fields decoded) and their ids, for sortOrders.
func (d *derived) orderInput() ([]*content.Entry, []uint32) {
	ents := make([]*content.Entry, 0, d.n)
	ids := make([]uint32, 0, d.n)
	for id, it := range d.slots {
		if it != nil {
			it.decode()
			ents = append(ents, it.e)
			ids = append(ids, uint32(id))
		}
	}
	return ents, ids
}

// seedOrder returns the order under keys (whose orderKey is okey) taken from what the collection
// has already: its default order (collIndex.sorted: from the index snapshot, or sorted for it)
// or another order of the snapshot (collIndex.snapOrders), or nil when it has neither or they no
// longer match d. The first query of the order then sorts nothing (at 100,000 entries, 100 ms
// or more). ix.mu is held.
func (ix *collIndex) seedOrder(d *derived, okey string, keys []query.SortKey) *order {
	var pos []uint32 // the order's positions in sorted; nil when it is sorted's
	if okey != ix.sortedKey {
		if pos = ix.snapOrders[okey]; pos == nil {
			return nil
		}
	}
	ids := ix.sortedIDs(d)
	if ids == nil || (pos != nil && len(pos) != len(ids)) {
		return nil
	}
	return &order{keys: keys, ids: permute(ids, pos)}
}

// sortedIDs returns d's id of each entry of sorted, in its order, or nil when sorted does not
// hold d's entries (it is older than d, or there is none). ix.mu is held.
func (ix *collIndex) sortedIDs(d *derived) []uint32 {
	if ix.sorted == nil || len(ix.sorted) != d.n {
		return nil
	}
	ids := make([]uint32, len(ix.sorted))
	for i, e := range ix.sorted {
		id, ok := d.ids[e.Slug]
		if !ok || d.slots[id] == nil || d.slots[id].e != e {
			return nil // another record: sorted is older than d
		}
		ids[i] = id
	}
	return ids
}

// permute returns ids in the order of pos (positions in ids), or ids itself when pos is nil.
func permute(ids, pos []uint32) []uint32 {
	if pos == nil {
		return ids
	}
	out := make([]uint32, len(pos))
	for i, p := range pos {
		out[i] = ids[p]
	}
	return out
}

// adoptSnapOrders makes the snapshot's orders (snapOrders) orders of d, which every change keeps
// up to date, before the collection first changes: their positions would be stale after it, so
// a process that writes before querying them would lose them, and its next snapshot too. ix.mu
// is held for writing.
func (ix *collIndex) adoptSnapOrders() {
	if ix.snapOrders == nil {
		return
	}
	snap := ix.snapOrders
	ix.snapOrders = nil
	if ix.d == nil || ix.d.n != len(ix.entries) {
		ix.d = newDerived(ix.entries)
	}
	d := ix.d
	ids := ix.sortedIDs(d)
	if ids == nil {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(snap)) {
		keys, ok := parseOrderKey(k)
		pos := snap[k]
		if !ok || d.orders[k] != nil || d.building[k] != nil || len(pos) != len(ids) || len(d.orders)+len(d.building) >= maxOrders {
			continue
		}
		d.orders[k] = &order{keys: keys, ids: permute(ids, pos)}
		ix.counts.add(true)
	}
}

// snapshotOrders returns the orders a snapshot of the collection keeps besides its default one
// (skip, the orderKey items are in): those queries built (d.orders) and those a start from the
// snapshot has not needed yet (snapOrders, valid while nothing changed), each as the positions
// of its entries in items, the collection in its default order, sorted by key. ix.mu is held.
func (ix *collIndex) snapshotOrders(items []*indexed, skip string) []snapOrder {
	var out []snapOrder
	if d := ix.d; d != nil && d.n == len(items) {
		at := make([]uint32, len(d.slots)) // id -> position in items
		for p, it := range items {
			id, ok := d.ids[it.e.Slug]
			if !ok || d.slots[id] != it {
				at = nil // d is out of step with the entries: keep none of its orders
				break
			}
			at[id] = uint32(p)
		}
		for k, o := range d.orders {
			if at == nil || k == skip || len(o.ids) != len(items) {
				continue
			}
			pos := make([]uint32, len(o.ids))
			for i, id := range o.ids {
				pos[i] = at[id]
			}
			out = append(out, snapOrder{key: k, pos: pos})
		}
	}
	for k, pos := range ix.snapOrders {
		if k != skip && len(pos) == len(items) && !slices.ContainsFunc(out, func(o snapOrder) bool { return o.key == k }) {
			out = append(out, snapOrder{key: k, pos: pos})
		}
	}
	slices.SortFunc(out, func(a, b snapOrder) int { return strings.Compare(a.key, b.key) })
	return out[:min(len(out), maxOrders)]
}

// sortOrders sorts ids by their entries' keys (query.Orders: each entry's values prepared
// once), and derives the order under keys with the first key's direction reversed at little
// cost: clients that sort by a field often sort by it the other way too.
func sortOrders(ents []*content.Entry, ids []uint32, keys []query.SortKey) (o, rev *order) {
	perm, rperm := query.Orders(ents, keys)
	rkeys := slices.Clone(keys)
	rkeys[0].Desc = !rkeys[0].Desc
	o = &order{keys: keys, ids: make([]uint32, len(perm))}
	rev = &order{keys: rkeys, ids: make([]uint32, len(rperm))}
	for i, p := range perm {
		o.ids[i] = ids[p]
	}
	for i, p := range rperm {
		rev.ids[i] = ids[p]
	}
	return o, rev
}

// search returns the first position whose entry sorts after k (after=true) or not before it.
func (o *order) search(d *derived, k *query.Keyed, after bool) int {
	i, j := 0, len(o.ids)
	for i < j {
		h := int(uint(i+j) >> 1)
		mk := query.Key(d.entry(o.ids[h]), o.keys)
		c := query.CompareKeyed(&mk, k, o.keys)
		if c < 0 || (after && c == 0) {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

// find returns the position of id, whose entry is e, or -1.
func (o *order) find(d *derived, id uint32, e *content.Entry) int {
	k := query.Key(e, o.keys)
	i := o.search(d, &k, false)
	if i >= len(o.ids) || o.ids[i] != id {
		// Only values the comparison cannot order consistently get here.
		i = slices.Index(o.ids, id)
	}
	return i
}

func (o *order) remove(d *derived, id uint32, e *content.Entry) {
	if i := o.find(d, id, e); i >= 0 {
		o.ids = slices.Delete(o.ids, i, i+1)
	}
}

// move repositions id from where old sorts to where e sorts, shifting only the ids in between
// (an edit usually moves an entry little, or not at all). d.slots[id] must still be old.
func (o *order) move(d *derived, id uint32, old, e *content.Entry) {
	i := o.find(d, id, old)
	if i < 0 {
		o.insert(d, id, e)
		return
	}
	k := query.Key(e, o.keys)
	// Searching with id still at i, its old place: a position after i counts it once too many.
	j := o.search(d, &k, true)
	if j > i {
		j--
		copy(o.ids[i:j], o.ids[i+1:j+1])
	} else {
		copy(o.ids[j+1:i+1], o.ids[j:i])
	}
	o.ids[j] = id
}

func (o *order) insert(d *derived, id uint32, e *content.Entry) {
	k := query.Key(e, o.keys)
	o.ids = slices.Insert(o.ids, o.search(d, &k, true), id)
}

// update moves entry slug from old to it (either may be nil) in ids, postings and orders.
// When both are set, old must be the entry currently indexed under slug.
func (d *derived) update(slug string, old, it *indexed) {
	id, had := d.ids[slug]
	if had && it != nil {
		old.decode()
		it.decode()
		for _, o := range d.orders {
			o.move(d, id, old.e, it.e)
		}
		d.unpost(id, old.e)
		d.slots[id] = it
		d.repost(id, it.e)
		return
	}
	if had {
		old.decode()
		for _, o := range d.orders {
			o.remove(d, id, old.e)
		}
		d.unpost(id, old.e)
	}
	if it == nil {
		if had {
			d.slots[id] = nil
			delete(d.ids, slug)
			d.free = append(d.free, id)
			d.n--
		}
		return
	}
	if !had {
		if n := len(d.free); n > 0 {
			id, d.free = d.free[n-1], d.free[:n-1]
		} else {
			id = uint32(len(d.slots))
			d.slots = append(d.slots, nil)
		}
		d.ids[slug] = id
		d.n++
	}
	it.decode()
	d.slots[id] = it
	for _, o := range d.orders {
		o.insert(d, id, it.e)
	}
	d.repost(id, it.e)
}

// rangeBounds returns the positions [start, end) of o's entries that r selects: whose value of
// o's first key (r's field) is of the kind of r's bounds (numbers or strings: query.Compare
// orders values of different types by type, so each type is one run of the order) and lies
// between them. Entries without a value sort last in both directions and are never selected.
func (o *order) rangeBounds(d *derived, r *rangeTerm) (start, end int) {
	bound := r.lo
	if bound == nil {
		bound = r.hi
	}
	kind := query.RankOf(bound)
	key := func(pos int) query.Keyed { return query.Key(d.entry(o.ids[pos]), o.keys[:1]) }
	// cmp is the position's value against a bound in walking order (negative = earlier), and
	// rankCmp its type against the bounds' type; ok is false without a value.
	cmp := func(pos int, b any) (c, rankCmp int, ok bool) {
		k := key(pos)
		if !k.Present() {
			return 0, 0, false
		}
		rc := k.Rank() - kind
		if b != nil {
			c = query.CompareFirst(&k, b)
		}
		if o.keys[0].Desc {
			c, rc = -c, -rc
		}
		return c, rc, true
	}
	// In walking order the first bound met is lo ascending and hi descending.
	near, nearStrict, far, farStrict := r.lo, r.loStrict, r.hi, r.hiStrict
	if o.keys[0].Desc {
		near, nearStrict, far, farStrict = r.hi, r.hiStrict, r.lo, r.loStrict
	}
	start = searchPos(len(o.ids), func(pos int) bool {
		c, rc, ok := cmp(pos, near)
		if !ok {
			return false
		}
		if near == nil || rc != 0 {
			return rc < 0
		}
		return c < 0 || (nearStrict && c == 0)
	})
	end = searchPos(len(o.ids), func(pos int) bool {
		c, rc, ok := cmp(pos, far)
		if !ok {
			return false
		}
		if far == nil || rc != 0 {
			return rc <= 0
		}
		return c < 0 || (!farStrict && c == 0)
	})
	return start, max(start, end)
}

// rangeScan calls fn, in order, with the entries whose value of o's first key lies between lo
// and hi under query.Compare (nil = unbounded; both inclusive), until fn returns false. It
// binary-searches the ends, so it visits only the entries in range. Equality filters do not need
// it; range operators will.
func (o *order) rangeScan(d *derived, lo, hi any, fn func(*content.Entry) bool) {
	first := o.keys[0]
	// In a descending order the low bound is the far end.
	if first.Desc {
		lo, hi = hi, lo
	}
	below := func(v any, strict bool) func(int) bool {
		return func(pos int) bool {
			k := query.Key(d.entry(o.ids[pos]), o.keys[:1])
			c := query.CompareFirst(&k, v)
			if first.Desc && k.Present() {
				c = -c
			}
			return c < 0 || (!strict && c == 0)
		}
	}
	start, end := 0, 0
	if lo != nil {
		start = searchPos(len(o.ids), below(lo, true))
	}
	if hi != nil {
		end = searchPos(len(o.ids), below(hi, false))
	} else {
		// Entries without a value sort last in both directions and are never in a range.
		end = searchPos(len(o.ids), func(pos int) bool {
			k := query.Key(d.entry(o.ids[pos]), o.keys[:1])
			return k.Present()
		})
	}
	for _, id := range o.ids[start:max(start, end)] {
		if !fn(d.entry(id)) {
			return
		}
	}
}

// searchPos returns the number of leading positions for which before holds (before must hold
// for a prefix of [0, n)).
func searchPos(n int, before func(int) bool) int {
	i, j := 0, n
	for i < j {
		h := int(uint(i+j) >> 1)
		if before(h) {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

func (d *derived) getBits() *[]uint64 {
	words := (len(d.slots) + 63) / 64
	bp, _ := d.bits.Get().(*[]uint64)
	if bp == nil || len(*bp) < words {
		b := make([]uint64, words)
		bp = &b
	}
	return bp
}
