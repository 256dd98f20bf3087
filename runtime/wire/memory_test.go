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

// With no limit configured, a server's limit is what it holds once started plus the cache
// budget plus slack, and it rises with a live heap that outgrows it, never below the live heap.
func TestDefaultMemoryLimit(t *testing.T) {
	t.Parallel()
	const mib = int64(1) << 20
	if got, want := wire.DefaultMemoryLimit(40*mib, 128), (40+128+16)*mib; got != want {
		t.Errorf("DefaultMemoryLimit(40 MiB, 128) = %d MiB, want %d MiB", got/mib, want/mib)
	}
	if got, want := wire.DefaultMemoryLimit(200*mib, 128), (200+128+50)*mib; got != want {
		t.Errorf("DefaultMemoryLimit(200 MiB, 128) = %d MiB, want %d MiB", got/mib, want/mib)
	}
	if got, want := wire.DefaultMemoryLimit(40*mib, 0), (40+16)*mib; got != want {
		t.Errorf("DefaultMemoryLimit(40 MiB, no caches) = %d MiB, want %d MiB", got/mib, want/mib)
	}
	limit := wire.DefaultMemoryLimit(20*mib, 128) // started from a snapshot, little decoded yet
	if got := wire.RaisedMemoryLimit(limit, 100*mib); got != limit {
		t.Errorf("a live heap of 100 MiB under a %d MiB limit raised it to %d MiB", limit/mib, got/mib)
	}
	for _, live := range []int64{200 * mib, 400 * mib} {
		got := wire.RaisedMemoryLimit(limit, live)
		if got < live+live/4+16*mib {
			t.Errorf("live heap %d MiB: limit %d MiB leaves no room for garbage", live/mib, got/mib)
		}
	}
}
