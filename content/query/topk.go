package query

import (
	"container/heap"
	"sort"

	"cms/content"
)

// TopK returns entries[offset:offset+limit] of the entries sorted by keys, without sorting all of
// them when the page is small: a bounded heap keeps the best offset+limit, which turns a 10,000
// entry sort into a single pass. It reorders its input.
func TopK(entries []*content.Entry, keys []SortKey, offset, limit int) []*content.Entry {
	k := offset + limit
	if limit <= 0 || k >= len(entries)/4 {
		Sort(entries, keys)
		return Page(entries, offset, limit)
	}
	ks := decorate(entries, keys)
	h := &keyedHeap{keys: keys, items: make([]*keyed, 0, k+1)}
	for i := range ks {
		if h.Len() < k {
			heap.Push(h, &ks[i])
			continue
		}
		// The heap root is the worst of the best k; replace it when this one is better.
		if lessKeyed(&ks[i], h.items[0], keys) {
			h.items[0] = &ks[i]
			heap.Fix(h, 0)
		}
	}
	best := make([]keyed, len(h.items))
	for i, it := range h.items {
		best[i] = *it
	}
	sortKeyed(best, keys)
	out := make([]*content.Entry, len(best))
	for i := range best {
		out[i] = best[i].e
	}
	return Page(out, offset, limit)
}

func sortKeyed(ks []keyed, keys []SortKey) {
	sort.SliceStable(ks, func(i, j int) bool { return lessKeyed(&ks[i], &ks[j], keys) })
}

// keyedHeap is a max-heap under keys (the root sorts last).
type keyedHeap struct {
	keys  []SortKey
	items []*keyed
}

func (h *keyedHeap) Len() int           { return len(h.items) }
func (h *keyedHeap) Less(i, j int) bool { return lessKeyed(h.items[j], h.items[i], h.keys) }
func (h *keyedHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *keyedHeap) Push(x any)         { h.items = append(h.items, x.(*keyed)) }
func (h *keyedHeap) Pop() any {
	n := len(h.items) - 1
	x := h.items[n]
	h.items = h.items[:n]
	return x
}
