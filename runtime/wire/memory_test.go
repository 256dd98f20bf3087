package wire_test

import (
	"testing"

	"cms/runtime/wire"
)

// The caches' budgets add up to exactly memory.cacheMiB, each cache gets some of it, and 0
// leaves every cache off.
func TestCacheBudgets(t *testing.T) {
	t.Parallel()
	names := []string{wire.CachePublicEntries, wire.CachePublicLists, wire.CacheEntries, wire.CacheGraphQL, wire.CacheGraphQLDocs, wire.CacheDerivatives, wire.CacheSitePages, wire.CacheBodies}
	for _, mib := range []int{1, 3, 7, 64, 100, 1000} {
		got := wire.CacheBudgets(mib)
		var sum int64
		for _, n := range names {
			if got[n] <= 0 {
				t.Errorf("%d MiB: %s gets %d bytes", mib, n, got[n])
			}
			sum += got[n]
		}
		if len(got) != len(names) || sum != int64(mib)<<20 {
			t.Errorf("%d MiB: budgets %v sum to %d bytes, want %d", mib, got, sum, int64(mib)<<20)
		}
	}
	for n, b := range wire.CacheBudgets(0) {
		if b != 0 {
			t.Errorf("0 MiB: %s gets %d bytes", n, b)
		}
	}
}

// GOMEMLIMIT wins, then memory.limitMiB, then the Lambda function's memory less headroom.
func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		limitMiB int
		env      map[string]string
		want     int64
		from     string
	}{
		{"nothing set", 0, nil, 0, ""},
		{"the setting", 512, nil, 512 << 20, "memory.limitMiB"},
		{"GOMEMLIMIT wins", 512, map[string]string{"GOMEMLIMIT": "1GiB", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024"}, 0, "GOMEMLIMIT"},
		{"Lambda", 0, map[string]string{"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024"}, (1024 - 32) << 20, "AWS_LAMBDA_FUNCTION_MEMORY_SIZE"},
		{"the setting beats Lambda", 256, map[string]string{"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024"}, 256 << 20, "memory.limitMiB"},
		{"Lambda too small for headroom", 0, map[string]string{"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "64"}, 0, ""},
		{"Lambda nonsense", 0, map[string]string{"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "lots"}, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, from := wire.MemoryLimit(tt.limitMiB, func(k string) string { return tt.env[k] })
			if got != tt.want || from != tt.from {
				t.Errorf("MemoryLimit = %d, %q, want %d, %q", got, from, tt.want, tt.from)
			}
		})
	}
}

// With no limit configured, a server's limit follows its live heap: room for garbage as large
// as the live heap outside the caches (at least 32 MiB) and a sixteenth of the live heap (at
// least 8 MiB) for the runtime's own memory, so a server whose caches are not full does not hold
// memory for them, a growing live heap always has room, full caches buy no room, and a large
// index gets room in proportion, so the collector's marking per allocated byte does not grow
// with the site.
func TestDefaultMemoryLimit(t *testing.T) {
	t.Parallel()
	const mib = int64(1) << 20
	for _, tt := range []struct{ live, cached, want int64 }{
		{10 * mib, 0, (10 + 32 + 8) * mib},            // a small site: the floors govern
		{64 * mib, 25 * mib, (64 + 39 + 8) * mib},     // 10,000 entries, uncached lists
		{67 * mib, 48 * mib, (67 + 32 + 8) * mib},     // 10,000 entries, full caches
		{160 * mib, 42 * mib, (160 + 118 + 10) * mib}, // 100,000 entries, uncached lists
		{208 * mib, 48 * mib, (208 + 160 + 13) * mib}, // 100,000 entries, full caches: < 400 MiB
		{100 * mib, 200 * mib, (100 + 32 + 8) * mib},  // a cache figure above the heap (a race)
		{100 * mib, -1, (100 + 100 + 8) * mib},        // nonsense counts as nothing cached
	} {
		if got := wire.DefaultMemoryLimit(tt.live, tt.cached); got != tt.want {
			t.Errorf("DefaultMemoryLimit(%d MiB, %d MiB cached) = %d MiB, want %d MiB", tt.live/mib, tt.cached/mib, got/mib, tt.want/mib)
		}
	}
	for live := int64(0); live < 2<<30; live += 7 * mib {
		for _, cached := range []int64{0, live / 2, live} {
			got := wire.DefaultMemoryLimit(live, cached)
			if room := got - live - max(live/16, 8*mib); room < 32*mib || room < live-cached || room > max(32*mib, live) {
				t.Fatalf("live heap %d MiB, %d MiB cached: limit %d MiB", live/mib, cached/mib, got/mib)
			}
		}
	}
}
