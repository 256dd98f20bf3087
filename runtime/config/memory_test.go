package config_test

import (
	"strings"
	"testing"

	"cms/runtime/config"
)

// The memory keys: their defaults, the file and the environment, and what is refused.
func TestMemoryKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		yaml         string
		env          map[string]string
		cache, limit int
		wantErr      string // "" = valid
	}{
		{"defaults", "", nil, 48, 0, ""},
		{"file", "memory:\n  cacheMiB: 16\n  limitMiB: 256\n", nil, 16, 256, ""},
		{"environment", "", map[string]string{"CMS_MEMORY_CACHE_MIB": "0", "CMS_MEMORY_LIMIT_MIB": "32"}, 0, 32, ""},
		{"no caches", "memory:\n  cacheMiB: 0\n", nil, 0, 0, ""},
		{"negative cache", "memory:\n  cacheMiB: -1\n", nil, 0, 0, "memory.cacheMiB: must not be negative"},
		{"not a number", "", map[string]string{"CMS_MEMORY_LIMIT_MIB": "lots"}, 0, 0, "CMS_MEMORY_LIMIT_MIB: must be a whole number"},
		{"limit below the caches", "memory:\n  cacheMiB: 64\n  limitMiB: 90\n", nil, 0, 0, "memory.limitMiB: must be 0 (none) or at least memory.cacheMiB + 32 (96), not 90"},
		{"limit just enough", "memory:\n  cacheMiB: 64\n  limitMiB: 96\n", nil, 64, 96, ""},
		{"absurd cache", "memory:\n  cacheMiB: 2000000\n", nil, 0, 0, "memory.cacheMiB: must be at most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _, err := config.Load(site(t, tt.yaml), env(tt.env))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Memory.CacheMiB != tt.cache || c.Memory.LimitMiB != tt.limit {
				t.Errorf("cacheMiB, limitMiB = %d, %d, want %d, %d", c.Memory.CacheMiB, c.Memory.LimitMiB, tt.cache, tt.limit)
			}
		})
	}
}
