package lru

import (
	"slices"
	"strings"
	"sync"
)

// Registry names the caches of a process so their stats can be reported together (the
// readiness details). The zero value is ready; a nil *Registry ignores Register.
type Registry struct {
	// Pool, if set, is joined by every cache registered that can ([Cache.JoinPool]): the
	// caches then lend each other the budgets they leave unused.
	Pool *Pool

	mu     sync.Mutex
	caches []named
}

type named struct {
	name  string
	stats func() Stats
}

// Statser is any cache that reports Stats.
type Statser interface{ Stats() Stats }

// Register adds a cache under name.
func (r *Registry) Register(name string, c Statser) {
	if r == nil || c == nil {
		return
	}
	if p, ok := c.(interface{ JoinPool(*Pool) }); ok && r.Pool != nil {
		p.JoinPool(r.Pool)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.caches = append(r.caches, named{name, c.Stats})
}

// Stats returns the stats of every registered cache by name, names sorted; caches registered
// under one name (the same cache built twice) are summed.
func (r *Registry) Stats() []Named {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	caches := slices.Clone(r.caches)
	r.mu.Unlock()
	var out []Named
	for _, c := range caches {
		st := c.stats()
		i, found := slices.BinarySearchFunc(out, c.name, func(n Named, name string) int { return strings.Compare(n.Name, name) })
		if found {
			o := &out[i]
			o.Entries += st.Entries
			o.Bytes += st.Bytes
			o.MaxBytes += st.MaxBytes
			o.Hits += st.Hits
			o.Misses += st.Misses
			continue
		}
		out = slices.Insert(out, i, Named{Name: c.name, Stats: st})
	}
	return out
}

// Named is one cache's stats and name.
type Named struct {
	Name string
	Stats
}
