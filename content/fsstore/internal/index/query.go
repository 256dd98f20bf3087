package index

import (
	"math/bits"

	"cms/content"
	"cms/content/query"
)

// QueryStats counts list queries by how they were answered.
type QueryStats struct {
	Indexed uint64 `json:"indexed"` // from postings and a sorted order
	Scanned uint64 `json:"scanned"` // by a scan of the collection (a filter the index cannot answer, or too many orders)
}

// QueryStats reports how list queries were answered since the index was created.
func (s *Index) QueryStats() QueryStats {
	return QueryStats{Indexed: s.stats.indexed.Load(), Scanned: s.stats.scanned.Load()}
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

// plan is what a query needs from the index: one posting list per equality (status included)
// and the order of its sort keys.
type plan struct {
	keys   []query.SortKey
	okey   string
	fields []string // posting fields, parallel to vals
	vals   []string // value keys
	custom bool     // reads custom fields
}

// makePlan returns ok=false when a filter value cannot be answered from postings (null, a list,
// an object): those queries are scanned.
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
		key, indexable := valueKey(want)
		if !indexable {
			return p, false
		}
		p.fields, p.vals = append(p.fields, field), append(p.vals, key)
		p.custom = p.custom || !builtinField(field)
	}
	return p, true
}

// ready reports whether ix.d holds everything p needs. ix.mu must be held.
func (ix *collIndex) ready(p *plan) bool {
	d := ix.d
	if d == nil || d.n != len(ix.entries) || d.orders[p.okey] == nil {
		return false
	}
	for _, f := range p.fields {
		if d.post[f] == nil {
			return false
		}
	}
	return true
}

// prepare builds what p needs and is missing, or reports false when a limit forbids it.
func (ix *collIndex) prepare(p *plan) bool {
	if p.custom {
		ix.ensureAllData()
	}
	ix.mu.Lock()
	if ix.d == nil || ix.d.n != len(ix.entries) {
		// Absent, or (defensively) out of step with entries changed without set.
		ix.d = newDerived(ix.entries)
	}
	d := ix.d
	for _, f := range p.fields {
		if d.post[f] != nil {
			continue
		}
		if len(d.post) >= maxPostingFields {
			ix.mu.Unlock()
			return false
		}
		d.post[f] = d.buildPostings(f)
	}
	if d.orders[p.okey] != nil {
		ix.mu.Unlock()
		return true
	}
	if wait := d.building[p.okey]; wait != nil {
		ix.mu.Unlock()
		<-wait // another query is sorting it
		return true
	}
	if len(d.orders)+len(d.building) >= maxOrders {
		ix.mu.Unlock()
		return false
	}
	// Sorting a large collection takes a while: queries and writes go on meanwhile, and the
	// order is taken if nothing changed, or sorted again under the lock if something did.
	done := make(chan struct{})
	d.building[p.okey] = done
	ents, ids := d.orderInput()
	ver := ix.version
	ix.mu.Unlock()
	o := sortOrder(ents, ids, p.keys)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	delete(d.building, p.okey)
	close(done)
	if ix.d != d {
		return true // replaced meanwhile; the caller checks again
	}
	if ix.version != ver {
		o = d.buildOrder(p.keys)
	}
	d.orders[p.okey] = o
	return true
}

// query answers q (see walk) and decodes the custom fields of the page's entries.
func (ix *collIndex) query(coll *content.Collection, q query.Query) (out []*content.Entry, total int, scanned bool) {
	out, total, scanned = ix.walk(coll, q)
	ix.ensureData(out)
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
	if len(p.fields) > 0 {
		lists := make([]*plist, len(p.fields))
		for i, f := range p.fields {
			if lists[i] = d.post[f][p.vals[i]]; lists[i] == nil {
				return []*content.Entry{}, 0, false
			}
		}
		bp := d.getBits()
		defer func() {
			clear(*bp)
			d.bits.Put(bp)
		}()
		set = *bp
		total, cands = candidates(lists, set)
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
	switch {
	case set == nil:
		for _, id := range o.ids[q.Offset : q.Offset+n] {
			take(id)
		}
	case walkPays(len(o.ids), total, q.Offset+n):
		skip := q.Offset
		for _, id := range o.ids {
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
