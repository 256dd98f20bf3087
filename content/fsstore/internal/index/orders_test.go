package index

import (
	"slices"
	"testing"

	"cms/content/query"
)

// A snapshot names its orders by orderKey; parseOrderKey reads the keys back, and refuses what
// orderKey never writes.
func TestParseOrderKey(t *testing.T) {
	t.Parallel()
	for _, keys := range [][]query.SortKey{
		{{Field: "title"}},
		{{Field: "rating", Desc: true}, {Field: "slug"}},
		{{Field: "seo.title"}, {Field: "updatedAt", Desc: true}, {Field: "a_b-c"}, {Field: "slug"}},
	} {
		got, ok := parseOrderKey(orderKey(keys))
		if !ok || !slices.Equal(got, keys) {
			t.Errorf("parseOrderKey(%q) = %v, %v; want %v", orderKey(keys), got, ok, keys)
		}
	}
	for _, bad := range []string{"", "title", ",", "-,", "title,,", "a b,", "--title,", "title,-,"} {
		if keys, ok := parseOrderKey(bad); ok {
			t.Errorf("parseOrderKey(%q) = %v, accepted", bad, keys)
		}
	}
}
