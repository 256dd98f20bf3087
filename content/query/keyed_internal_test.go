package query

import (
	"math"
	"testing"

	"cms/content"
)

// Every pair of values compares the same through their prefixes (comparePrefixed) as through
// their prepared values (compareVals), in both directions, missing values last: the prefixes
// only ever decide what the values would.
func TestPrefixesCompareAsValues(t *testing.T) {
	t.Parallel()
	values := []any{nil, int64(3), 3.0, int64(-1), -2.5, 2.5, math.Copysign(0, -1), 0.0, int64(0), math.NaN(),
		math.Inf(1), math.Inf(-1), 1e300, -1e300, int64(1) << 53, float64(int64(1)<<53) + 1, int64(math.MinInt64),
		"", "a", "b", "B", "Abcdefghij", "abcdefghIk", "abcdefgh", "abcdefgh\x00", "ABCDEFGH", "abcdefgi", "Ωmega", "ωmega",
		"2020-01-02", "2019-12-31T23:00:00Z", "1960-05-01", "2020-01-02T00:00:00.000Z", true, false, []any{"x"}, content.NewMap(0)}
	ks := make([]keyed, len(values))
	pre := make([]prefix, len(values))
	for i, v := range values {
		ks[i] = keyed{vals: []sortVal{prepare(v, v != nil)}}
		pre[i] = prefixOf(&ks[i].vals[0])
	}
	for i := range values {
		for j := range values {
			for _, desc := range []bool{false, true} {
				want := compareFrom(&ks[i], &ks[j], []SortKey{{Field: "x", Desc: desc}}, 0)
				got := comparePrefixed(pre[i], pre[j], ks, int32(i), int32(j), 0, desc)
				if sign(got) != sign(want) {
					t.Errorf("%#v vs %#v (desc %v): prefixes give %d, values %d", values[i], values[j], desc, got, want)
				}
			}
		}
	}
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}
