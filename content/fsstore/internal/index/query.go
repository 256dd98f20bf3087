package index

import (
	"math/bits"
	"slices"
	"sync/atomic"

	"cms/content"
	"cms/content/query"
)

// QueryStats counts list queries by how they were answered.
type QueryStats struct {
	Indexed uint64 `json:"indexed"` // from postings and a sorted order
	Scanned uint64 `json:"scanned"` // by a scan of the collection (a filter the index cannot answer, or too many orders)
	// Ranged counts the indexed queries with a range filter ($gt, $gte, $lt, $lte) answered by
	// binary search in a sorted order.
	Ranged uint64 `json:"ranged"`
	// Sorted counts the orders sorted from the entries (the first query of a sort order, or of
	// a filter answered from one, pays it: at 100,000 entries, a tenth of a second or more);
	// Seeded those taken from the index snapshot instead.
	Sorted uint64 `json:"sorted"`
	Seeded uint64 `json:"seeded"`
}

// orderCounts counts the orders queries needed, by how they came (QueryStats).
type orderCounts struct {
	sorted, seeded atomic.Uint64
	// unsaved is set when an order was sorted since the snapshot was last written: a writer's
	// snapshot keeps the orders, and one is written at close for them (not sooner: an order
	// is no change of the entries, and readers need not look).
	unsaved atomic.Bool
}

func (c *orderCounts) add(seeded bool) {
	switch {
	case c == nil:
	case seeded:
		c.seeded.Add(1)
	default:
		c.sorted.Add(1)
		c.unsaved.Store(true)
	}
}

// QueryStats reports how list queries were answered since the index was created.
func (s *Index) QueryStats() QueryStats {
	return QueryStats{Indexed: s.stats.indexed.Load(), Scanned: s.stats.scanned.Load(), Ranged: s.stats.ranged.Load(),
		Sorted: s.orders.sorted.Load(), Seeded: s.orders.seeded.Load()}
}

// builtinField reports whether field is an entry attribute rather than a custom (Data) field,
// which snapshot-loaded entries decode lazily.
func builtinField(field string) bool {
	switch field {
	case "title", "slug", "status", "author", "collection", "createdAt", "updatedAt", "content":
		return true
	}
	return false
}

// hasRange reports whether a filter has a range the index answers from an order.
func hasRange(filter map[string]any) bool {
	for _, v := range filter {
		if c, ok := v.(query.Cond); ok {
			if _, _, _, _, r := c.Range(); r {
				return true
			}
		}
	}
	return false
}

// plan is what a query needs from the index: one posting list per equality (status included),
// a union of posting lists per $in, an order per range filter and the order of its sort keys;
// filters none of these answer exactly are tested on each candidate (resid).
type plan struct {
	keys   []query.SortKey
	okey   string
	fields []string // posting fields, parallel to vals
	vals   []string // value keys
	ins    []inTerm
	ranges []rangeTerm
	resid  map[string]any // filters tested entry by entry
	custom bool           // reads custom fields
}

// inTerm is an $in answered by the union of the postings of its values.
type inTerm struct {
	field string
	vals  []string
}

// rangeTerm is a range filter (query.Cond.Range) answered from the order okey, whose first key
// is field.
type rangeTerm struct {
	field              string
	keys               []query.SortKey
	okey               string
	lo, hi             any
	loStrict, hiStrict bool
}

// sources reports whether p narrows the candidates through the index.
func (p *plan) sources() bool { return len(p.fields)+len(p.ins)+len(p.ranges) > 0 }

// makePlan returns ok=false when nothing of the filter can be answered from the index but some
// of it must be tested: those queries are scanned.
func makePlan(coll *content.Collection, q query.Query) (p plan, ok bool) {
	keys := q.Sort
	if len(keys) == 0 {
		keys = query.DefaultOrder(coll)
	} else {
		keys = append(append(make([]query.SortKey, 0, len(keys)+1), keys...), query.SortKey{Field: "slug"})
	}
	p.keys, p.okey = keys, orderKey(keys)
	for _, k := range keys {
		p.custom = p.custom || !builtinField(k.Field)
	}
	if q.Status != "" {
		p.fields, p.vals = append(p.fields, "status"), append(p.vals, "s"+q.Status)
	}
	for field, want := range q.Filter {
		p.custom = p.custom || !builtinField(field)
		if key, indexable := valueKey(want); indexable {
			p.fields, p.vals = append(p.fields, field), append(p.vals, key)
			continue
		}
		c, isCond := want.(query.Cond)
		if !isCond {
			p.resid = addResid(p.resid, field, want) // null or a list
			continue
		}
		if lo, loStrict, hi, hiStrict, exact := c.Range(); exact {
			rk := []query.SortKey{{Field: field}, {Field: "slug"}}
			if keys[0].Field == field {
				rk = keys // the walk's own order holds the range in one piece too
			}
			p.ranges = append(p.ranges, rangeTerm{field: field, keys: rk, okey: orderKey(rk),
				lo: lo, hi: hi, loStrict: loStrict, hiStrict: hiStrict})
			continue
		}
		exact := len(c) == 1
		for _, op := range c {
			switch op.Name {
			case query.OpIn:
				t, all := inTerm{field: field}, true
				for _, v := range op.Value.([]any) {
					k, indexable := valueKey(v)
					if !indexable {
						all = false // null: a missing field matches
						break
					}
					t.vals = append(t.vals, k)
				}
				if !all {
					exact = false
					continue
				}
				p.ins = append(p.ins, t)
			case query.OpContains:
				// The postings of the value also hold entries whose field equals it.
				if k, indexable := valueKey(op.Value); indexable {
					p.fields, p.vals = append(p.fields, field), append(p.vals, k)
				}
				exact = false
			default:
				exact = false
			}
		}
		if !exact {
			p.resid = addResid(p.resid, field, c)
		}
	}
	return p, p.sources() || len(p.resid) == 0
}

func addResid(m map[string]any, field string, v any) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	m[field] = v
	return m
}

// orderNeeds lists the orders p walks or scans ranges of (keys by order key).
func (p *plan) orderNeeds() map[string][]query.SortKey {
	m := map[string][]query.SortKey{p.okey: p.keys}
	for _, r := range p.ranges {
		m[r.okey] = r.keys
	}
	return m
}

// postingFields lists the fields p needs postings of.
func (p *plan) postingFields() []string {
	fs := slices.Clone(p.fields)
	for _, t := range p.ins {
		fs = append(fs, t.field)
	}
	return fs
}

// ready reports whether ix.d holds everything p needs. ix.mu must be held.
func (ix *collIndex) ready(p *plan) bool {
	// Every query asks this: it looks at p's parts in place rather than listing them.
	d := ix.d
	if d == nil || d.n != len(ix.entries) || d.orders[p.okey] == nil {
		return false
	}
	for i := range p.ranges {
		if d.orders[p.ranges[i].okey] == nil {
			return false
		}
	}
	for _, f := range p.fields {
		if d.post[f] == nil {
			return false
		}
	}
	for i := range p.ins {
		if d.post[p.ins[i].field] == nil {
			return false
		}
	}
	return true
}

// decodesAll reports whether preparing p reads every entry's custom fields: to sort by custom
// keys an order that cannot be seeded (seedOrder). A seeded order, a range searched in an order
// and the residual filters read only the entries they touch, which decode on use
// (derived.entry), and a posting list reads its one field from the encoding (indexed.field); so
// a first query filtering or sorting by a custom field after a start from the snapshot leaves
// the entries' other fields encoded. ix.mu is held.
func (ix *collIndex) decodesAll(p *plan) bool {
	d := ix.d
	for k, keys := range p.orderNeeds() {
		built := d != nil && d.orders[k] != nil
		if built || !slices.ContainsFunc(keys, func(k query.SortKey) bool { return !builtinField(k.Field) }) {
			continue // there, or sorted by entry attributes only
		}
		if ix.sorted == nil || (k != ix.sortedKey && ix.snapOrders[k] == nil) {
			return true
		}
	}
	return false
}

// prepare builds what p needs and is missing (one missing order per call), or reports false
// when a limit forbids it.
func (ix *collIndex) prepare(p *plan) bool {
	if p.custom {
		ix.mu.RLock()
		all := ix.decodesAll(p)
		ix.mu.RUnlock()
		if all {
			ix.ensureAllData() // under the read lock, before building under the write lock
		}
	}
	ix.mu.Lock()
	if ix.d == nil || ix.d.n != len(ix.entries) {
		// Absent, or (defensively) out of step with entries changed without set.
		ix.d = newDerived(ix.entries)
	}
	d := ix.d
	for _, f := range p.postingFields() {
		if d.post[f] != nil {
			continue
		}
		if len(d.post) >= maxPostingFields {
			ix.mu.Unlock()
			return false
		}
		d.post[f] = d.buildPostings(f)
	}
	okey, keys := "", []query.SortKey(nil)
	for k, ks := range p.orderNeeds() {
		if d.orders[k] == nil {
			okey, keys = k, ks
			break
		}
	}
	if okey == "" {
		ix.mu.Unlock()
		return true
	}
	if wait := d.building[okey]; wait != nil {
		ix.mu.Unlock()
		<-wait // another query is sorting it
		return true
	}
	if len(d.orders)+len(d.building) >= maxOrders {
		ix.mu.Unlock()
		return false
	}
	if o := ix.seedOrder(d, okey, keys); o != nil {
		d.orders[okey] = o
		ix.mu.Unlock()
		ix.counts.add(true)
		return true
	}
	// Sorting a large collection takes a while: queries and writes go on meanwhile, and the
	// order is taken if nothing changed, or sorted again under the lock if something did.
	done := make(chan struct{})
	d.building[okey] = done
	// The order of the other direction comes with this one (sortOrders), so queries for it
	// wait for this sort rather than sorting too. Every order costs each write a move: the
	// reverse is kept only while the orders fill less than half of what a collection may keep.
	rkeys := slices.Clone(keys)
	rkeys[0].Desc = !rkeys[0].Desc
	rkey := orderKey(rkeys)
	withRev := d.orders[rkey] == nil && d.building[rkey] == nil && len(d.orders)+len(d.building) < maxOrders/2
	if withRev {
		d.building[rkey] = done
	}
	ents, ids := d.orderInput()
	ver := ix.version
	ix.mu.Unlock()
	o, rev := sortOrders(ents, ids, keys)
	ix.counts.add(false)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	delete(d.building, okey)
	if withRev {
		delete(d.building, rkey)
	}
	close(done)
	if ix.d != d {
		return true // replaced meanwhile; the caller checks again
	}
	if ix.version != ver {
		o, rev = d.buildOrders(keys)
		ix.counts.add(false)
	}
	d.orders[okey] = o
	if withRev {
		d.orders[rkey] = rev
	}
	return true
}

// query answers q (see walk) and decodes the custom fields of the page's entries.
func (ix *collIndex) query(coll *content.Collection, q query.Query) (out []*content.Entry, total int, scanned bool) {
	out, total, scanned = ix.walk(coll, q)
	if !ix.allDecoded.Load() { // else every entry's data is decoded already
		ix.ensureData(out)
	}
	return out, total, scanned
}

// walk answers q: equality filters by intersecting posting lists, smallest first; the page by
// walking the sorted order of its keys, skipping entries outside the candidate set, so neither
// the matches nor the page are sorted. scanned reports a query the index could not serve.
func (ix *collIndex) walk(coll *content.Collection, q query.Query) (out []*content.Entry, total int, scanned bool) {
	p, ok := makePlan(coll, q)
	if !ok {
		out, total = ix.scan(p.keys, q)
		return out, total, true
	}
	ix.mu.RLock()
	for !ix.ready(&p) {
		ix.mu.RUnlock()
		if !ix.prepare(&p) {
			out, total = ix.scan(p.keys, q)
			return out, total, true
		}
		ix.mu.RLock()
	}
	defer ix.mu.RUnlock()
	d := ix.d
	o := d.orders[p.okey]
	var (
		set   []uint64 // candidate bitset when filtered
		cands []uint32
	)
	total = d.n
	if r := p.ranges; len(r) == 1 && len(p.fields)+len(p.ins)+len(p.resid) == 0 && r[0].okey == p.okey {
		// One range over the walk's own order: the page is a slice of it.
		start, end := o.rangeBounds(d, &r[0])
		total = end - start
		if q.Offset >= total {
			return []*content.Entry{}, total, false
		}
		n := total - q.Offset
		if q.Limit > 0 {
			n = min(n, q.Limit)
		}
		out = make([]*content.Entry, n)
		for i, id := range o.ids[start+q.Offset : start+q.Offset+n] {
			out[i] = d.slots[id].e
		}
		return out, total, false
	}
	if p.sources() {
		bp := d.getBits()
		defer func() {
			clear(*bp)
			d.bits.Put(bp)
		}()
		set = *bp
		var empty bool
		if total, cands, empty = d.filterSet(&p, set); empty {
			return []*content.Entry{}, 0, false
		}
	}
	if q.Offset >= total {
		return []*content.Entry{}, total, false
	}
	n := total - q.Offset
	if q.Limit > 0 {
		n = min(n, q.Limit)
	}
	out = make([]*content.Entry, 0, n)
	take := func(id uint32) { out = append(out, d.slots[id].e) }
	// A range over the walk's own order holds every candidate in one stretch of it.
	lo, hi := 0, len(o.ids)
	for i := range p.ranges {
		if r := &p.ranges[i]; r.okey == p.okey {
			start, end := o.rangeBounds(d, r)
			lo, hi = max(lo, start), min(hi, end)
		}
	}
	window := o.ids[lo:max(lo, hi)]
	switch {
	case set == nil:
		for _, id := range o.ids[q.Offset : q.Offset+n] {
			take(id)
		}
	case walkPays(len(window), total, q.Offset+n):
		skip := q.Offset
		for _, id := range window {
			if set[id>>6]&(1<<(id&63)) == 0 {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			take(id)
			if len(out) == n {
				break
			}
		}
	default:
		// Few candidates: sorting them beats walking the whole order to find them.
		if cands == nil {
			cands = make([]uint32, 0, total)
			for w, word := range set {
				for ; word != 0; word &= word - 1 {
					cands = append(cands, uint32(w<<6+bits.TrailingZeros64(word)))
				}
			}
		}
		es := make([]*content.Entry, len(cands))
		for i, id := range cands {
			es[i] = d.slots[id].e
		}
		out = append(out, query.TopK(es, p.keys, q.Offset, q.Limit)...)
	}
	return out, total, false
}

// filterSet fills set, a zeroed bitset of every id, with the entries p's postings, $in unions and
// ranges select and its residual filters accept, and returns how many there are; cands lists
// them (ascending) when they came from a sparse posting list and nothing else narrowed them.
// empty reports that a posting list was missing (no entry has that value).
func (d *derived) filterSet(p *plan, set []uint64) (n int, cands []uint32, empty bool) {
	first := true
	// and intersects set with the bits fill sets (or fills set itself the first time).
	and := func(fill func(b []uint64)) {
		if first {
			fill(set)
			first = false
			return
		}
		tp := d.getBits()
		t := (*tp)[:len(set)]
		fill(t)
		for i := range set {
			set[i] &= t[i]
		}
		clear(*tp)
		d.bits.Put(tp)
	}
	if len(p.fields) > 0 {
		lists := make([]*plist, len(p.fields))
		for i, f := range p.fields {
			if lists[i] = d.post[f][p.vals[i]]; lists[i] == nil {
				return 0, nil, true
			}
		}
		n, cands = candidates(lists, set)
		first = false
	}
	for _, t := range p.ins {
		and(func(b []uint64) {
			for _, k := range t.vals {
				if l := d.post[t.field][k]; l != nil {
					l.or(b)
				}
			}
		})
		cands = nil
	}
	for i := range p.ranges {
		r := &p.ranges[i]
		o := d.orders[r.okey]
		start, end := o.rangeBounds(d, r)
		and(func(b []uint64) {
			for _, id := range o.ids[start:end] {
				b[id>>6] |= 1 << (id & 63)
			}
		})
		cands = nil
	}
	if len(p.ins)+len(p.ranges) == 0 && len(p.resid) == 0 {
		return n, cands, false
	}
	n = 0
	for w := range set {
		for word := set[w]; word != 0; word &= word - 1 {
			id := uint32(w<<6 + bits.TrailingZeros64(word))
			if p.resid != nil && !query.Match(d.entry(id), p.resid) {
				set[w] &^= 1 << (id & 63)
				continue
			}
			n++
		}
	}
	return n, nil, false
}

// walkPays estimates whether walking an order of size entries to find the first want of cands
// evenly spread candidates (a bit test each) is cheaper than sorting the candidates (resolving
// and preparing each one's keys, then a heap).
func walkPays(size, cands, want int) bool {
	steps := size
	if want < cands {
		steps = int(min(int64(size), int64(want)*int64(size)/int64(cands)+1))
	}
	return steps <= 32*cands
}

// scan answers q by testing every entry, for queries the index cannot serve.
func (ix *collIndex) scan(keys []query.SortKey, q query.Query) ([]*content.Entry, int) {
	ix.ensureAllData()
	ix.mu.RLock()
	matched := make([]*content.Entry, 0, len(ix.entries))
	for _, it := range ix.entries {
		if (q.Status == "" || it.e.Status == q.Status) && query.Match(it.e, q.Filter) {
			matched = append(matched, it.e)
		}
	}
	ix.mu.RUnlock()
	return query.TopK(matched, keys, q.Offset, q.Limit), len(matched)
}
