package wire

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"time"

	"cms/content/markdown"
)

// Caches of the process and their shares of memory.cacheMiB, in percent (they sum to 100).
// Shares are fixed so a group's budget does not depend on which others a process mounts; a
// Lambda function, which mounts one group, leaves the other shares unused. Each share is the
// cache's own budget: the caches of a process pool them (Services.Caches), so a cache may also
// fill what the others leave unused and gives it back when they need it.
const (
	CachePublicEntries = "publicEntries.entries" // encoded public entries
	CachePublicLists   = "publicEntries.lists"   // public list responses
	CacheEntries       = "entries"               // encoded entries of the authenticated API
	CacheGraphQL       = "graphql.results"       // GraphQL responses
	CacheGraphQLDocs   = "graphql.documents"     // parsed, validated GraphQL queries
	CacheDerivatives   = "derivatives"           // image derivatives (asset transforms)
	CacheSitePages     = "site.pages"            // rendered pages of the public website
	CacheBodies        = "markdown.bodies"       // rendered entry bodies, shared by the website and the public API
)

// cacheShares lists every cache and its share, the last taking what rounding leaves. At the
// default budget (48 MiB) the public entries' share, with what they may borrow, holds every
// entry of a 10,000-entry site (about 3 KB each, compressed), and the pages' share its pages
// (about 2 KB each, gzipped).
func cacheShares() []struct {
	name    string
	percent int64
} {
	return []struct {
		name    string
		percent int64
	}{
		{CachePublicEntries, 40},
		{CacheSitePages, 25},
		{CacheBodies, 5},
		{CachePublicLists, 5},
		{CacheEntries, 10},
		{CacheGraphQL, 5},
		{CacheDerivatives, 5},
		{CacheGraphQLDocs, 5},
	}
}

// CacheBudgets splits a budget of totalMiB among the caches: bytes by cache name, summing to
// exactly totalMiB MiB.
func CacheBudgets(totalMiB int) map[string]int64 {
	total := int64(totalMiB) << 20
	shares := cacheShares()
	out := make(map[string]int64, len(shares))
	left := total
	for i, s := range shares {
		b := total * s.percent / 100
		if i == len(shares)-1 {
			b = left
		}
		out[s.name] = b
		left -= b
	}
	return out
}

// CacheBytes is the budget of the named cache as a handler's Deps take it: bytes, or -1 (no
// cache) when memory.cacheMiB is 0 or the name is unknown.
func (s *Services) CacheBytes(name string) int64 {
	if b := CacheBudgets(s.Config.Memory.CacheMiB)[name]; b > 0 {
		return b
	}
	return -1
}

// lambdaHeadroomMiB is what a Lambda function keeps outside the Go heap's soft limit: the
// runtime's own stacks and mappings, and the extensions' share.
const lambdaHeadroomMiB = 32

// MemoryLimit is the Go runtime's soft memory limit in bytes that cfg and the environment ask
// for, and where it comes from; 0 = none. GOMEMLIMIT, when set, wins (the runtime has read it
// already); then memory.limitMiB; then, on Lambda, the function's memory less headroom.
func MemoryLimit(limitMiB int, getenv func(string) string) (int64, string) {
	if getenv("GOMEMLIMIT") != "" {
		return 0, "GOMEMLIMIT"
	}
	if limitMiB > 0 {
		return int64(limitMiB) << 20, "memory.limitMiB"
	}
	if v := getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE"); v != "" {
		if mib, err := strconv.Atoi(v); err == nil && mib > 2*lambdaHeadroomMiB {
			return int64(mib-lambdaHeadroomMiB) << 20, "AWS_LAMBDA_FUNCTION_MEMORY_SIZE"
		}
	}
	return 0, ""
}

// SetMemoryLimit applies MemoryLimit to the runtime (debug.SetMemoryLimit) and logs it. It sets
// process state, so only a main calls it, once.
func SetMemoryLimit(limitMiB int, getenv func(string) string, log *slog.Logger) {
	limit, from := MemoryLimit(limitMiB, getenv)
	if limit <= 0 {
		if from != "" {
			log.Info("memory limit", "from", from)
		}
		return
	}
	debug.SetMemoryLimit(limit)
	log.Info("memory limit", "mib", limit>>20, "from", from)
}

// DefaultMemoryLimit is the soft memory limit of a server that was given none, for a live heap
// of live bytes (the index and what the caches hold now) of which the caches hold cached: room
// for garbage, and for the runtime's own memory (stacks, the collector's metadata: a few percent
// of the heap) a sixteenth of the live heap, at least 8 MiB. The room sets the collector's cost:
// each cycle marks the live heap and cycles come once per room's worth of allocation. Marking
// costs little for the caches' contents (byte slices, which the collector marks without reading)
// and much for the rest (the entry index: some millions of pointers at 100,000 entries), so the
// room is
//
//   - the live heap less the caches' bytes: the Go default pace (GOGC=100) for the part whose
//     marking costs, so the marking per allocated byte stays about one pass over the index
//     whatever the site's size (with a quarter of the whole heap, as before, a 100,000-entry
//     site collected three times as often as its index size called for, and spent about half
//     of an uncached list query's CPU in the collector);
//   - at least 32 MiB: less has the collector run many times a second under a load that
//     allocates much, such as uncached lists, at a cost in CPU far above the memory saved. A
//     10,000-entry site (its index ~10 MiB) stays at this floor, full caches or not, and so
//     within issue 18's peak RSS target of 150 MiB as far as the caches' budget allows (with
//     the default memory.cacheMiB of 48, about 136 MiB under the bench's load); a
//     100,000-entry site (~100 MiB of index) stays within its 400 MiB with full caches.
//
// SetDefaultMemoryLimit keeps it following the live heap, so the collector keeps the heap near
// what the site and the caches' contents need: GOGC alone lets the heap grow to twice the live
// data, some 90 MiB more than the data on a 10,000-entry site with full caches. The caches are
// byte-bounded (memory.cacheMiB), so the live heap, and this limit, are too.
func DefaultMemoryLimit(live, cached int64) int64 {
	cached = min(max(cached, 0), live)
	return live + max(live-cached, 32<<20) + max(live/16, 8<<20)
}

// CachedBytes is what the process's caches hold now (the pool's bytes).
func (s *Services) CachedBytes() int64 {
	if s.Caches == nil || s.Caches.Pool == nil {
		return 0
	}
	return s.Caches.Pool.Bytes()
}

// GoMemoryInUse is the memory the runtime's soft limit counts: everything the Go runtime has
// mapped, less what it has returned to the system.
func GoMemoryInUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// SetDefaultMemoryLimit applies DefaultMemoryLimit, capped in a container by ContainerCeiling,
// when neither GOMEMLIMIT, memory.limitMiB nor Lambda set a limit (SetMemoryLimit), once the
// process has started and collected its start-up garbage, and until ctx ends moves it with the
// live heap every second: up as the caches fill or the index grows (a limit below the live data
// would have the collector run without pause), down as they empty. cached reports what the caches hold (Services.CachedBytes;
// nil: nothing). Like SetMemoryLimit, only a main calls it, once.
func SetDefaultMemoryLimit(ctx context.Context, limitMiB, cacheMiB int, cached func() int64, getenv func(string) string, log *slog.Logger) {
	if _, from := MemoryLimit(limitMiB, getenv); from != "" {
		return
	}
	if cached == nil {
		cached = func() int64 { return 0 }
	}
	// In a container, never above what its memory limit leaves the heap: a first start of a
	// large site builds its full-text index in the background with the live heap growing fast,
	// and room for garbage as large as the live heap would outgrow a small container.
	container := ContainerMemoryLimit(os.DirFS("/"))
	ceiling := ContainerCeiling(container)
	derive := func(live int64) int64 {
		l := DefaultMemoryLimit(live, cached())
		if ceiling > 0 {
			l = min(l, ceiling)
		}
		return l
	}
	live := liveHeap()
	if live <= 0 { // no collection yet: what the process holds is an upper bound
		live = GoMemoryInUse()
	}
	limit := derive(live)
	debug.SetMemoryLimit(limit)
	attrs := []any{"mib", limit >> 20, "from", "default: live heap + slack, following it", "live_mib", live >> 20, "cache_mib", cacheMiB}
	if ceiling > 0 {
		attrs = append(attrs, "container_mib", container>>20, "ceiling_mib", ceiling>>20)
	}
	log.Info("memory limit", attrs...)
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if live := liveHeap(); live > 0 && derive(live) != limit {
				limit = derive(live)
				debug.SetMemoryLimit(limit)
			}
		}
	}()
}

// liveHeap is the heap the last collection found live.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// bodiesKey is the Shared key of the process's cache of rendered entry bodies.
const bodiesKey = "markdown.bodies"

// Bodies returns the process's cache of rendered entry bodies (content/markdown), built once and
// shared by the website and the public API within its share of memory.cacheMiB.
func Bodies(s *Services) *markdown.Bodies {
	b, _ := Shared(s, bodiesKey, func() (*markdown.Bodies, error) {
		b := markdown.NewBodies(s.Markdown, s.CacheBytes(CacheBodies))
		s.Caches.Register(CacheBodies, b)
		return b, nil
	})
	return b
}
