package wire

import (
	"log/slog"
	"runtime/debug"
	"strconv"

	"cms/content/markdown"
)

// Caches of the process and their shares of memory.cacheMiB, in percent (they sum to 100).
// Shares are fixed so a group's budget does not depend on which others a process mounts; a
// Lambda function, which mounts one group, leaves the other shares unused.
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

// cacheShares lists every cache and its share, the last taking what rounding leaves.
func cacheShares() []struct {
	name    string
	percent int64
} {
	return []struct {
		name    string
		percent int64
	}{
		{CachePublicEntries, 50},
		{CacheSitePages, 15},
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
