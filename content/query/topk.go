package query

import (
	"container/heap"

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
	h := &entryHeap{keys: keys, items: make([]*content.Entry, 0, k+1)}
	for _, e := range entries {
		if h.Len() < k {
			heap.Push(h, e)
			continue
		}
		// The heap root is the worst of the best k; replace it when e is better.
		if Less(e, h.items[0], keys) {
			h.items[0] = e
			heap.Fix(h, 0)
		}
	}
	out := h.items
	Sort(out, keys)
	return Page(out, offset, limit)
}

// entryHeap is a max-heap under keys (the root sorts last).
type entryHeap struct {
	keys  []SortKey
	items []*content.Entry
}

func (h *entryHeap) Len() int           { return len(h.items) }
func (h *entryHeap) Less(i, j int) bool { return Less(h.items[j], h.items[i], h.keys) }
func (h *entryHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *entryHeap) Push(x any)         { h.items = append(h.items, x.(*content.Entry)) }
func (h *entryHeap) Pop() any {
	n := len(h.items) - 1
	x := h.items[n]
	h.items = h.items[:n]
	return x
}
