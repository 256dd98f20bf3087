package query_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cms/content"
	"cms/content/query"
)

func TestParseSort(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []query.SortKey
		wantErr string
	}{
		{"", nil, ""},
		{"title", []query.SortKey{{Field: "title"}}, ""},
		{"-createdAt", []query.SortKey{{Field: "createdAt", Desc: true}}, ""},
		{"+rating,-title", []query.SortKey{{Field: "rating"}, {Field: "title", Desc: true}}, ""},
		{"seo.meta_title", []query.SortKey{{Field: "seo.meta_title"}}, ""},
		{"-", nil, "not a valid field name"},
		{"ti tle", nil, "not a valid field name"},
		{"1abc", nil, "not a valid field name"},
		{"a,b,c,d,e", nil, "at most 4"},
		{"title;drop", nil, "not a valid field name"},
	}
	for _, tt := range tests {
		got, err := query.ParseSort(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseSort(%q) err = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseSort(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseFilter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    map[string]any
		wantErr string
	}{
		{"", nil, ""},
		{`{"category":"news","featured":true,"rating":4}`, map[string]any{"category": "news", "featured": true, "rating": int64(4)}, ""},
		{`{"tags":["a","b"]}`, map[string]any{"tags": []any{"a", "b"}}, ""},
		{`{bad`, nil, "not valid JSON"},
		{`[1,2]`, nil, "must be a JSON object"},
		{`"x"`, nil, "must be a JSON object"},
		{`{"a":{"b":1}}`, nil, "must be a string, number"},
		{`{"a b":1}`, nil, "not a valid field name"},
		{`{"a":1} {"b":2}`, nil, "after the JSON object"},
		{"{\"a\":\"" + strings.Repeat("x", 5000) + "\"}", nil, "longer than"},
	}
	for _, tt := range tests {
		got, err := query.ParseFilter(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseFilter(%q) err = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("ParseFilter(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// Parse holds the one set of rules for the list parameters of every entry list.
func TestParse(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("9", 100)
	for _, tt := range []struct {
		name                        string
		limit, offset, sort, filter string
		wantLimit, wantOffset       int
		wantErr                     string
	}{
		{name: "nothing given", wantLimit: query.DefaultLimit},
		{name: "page", limit: "10", offset: "20", wantLimit: 10, wantOffset: 20},
		{name: "smallest limit", limit: "1", wantLimit: 1},
		{name: "largest limit", limit: "1000", wantLimit: query.MaxLimit},
		{name: "largest offset", offset: "1000000", wantLimit: query.DefaultLimit, wantOffset: query.MaxOffset},
		{name: "limit zero", limit: "0", wantErr: `limit must be a whole number from 1 to 1000, got "0"`},
		{name: "limit over the maximum", limit: "1001", wantErr: `limit must be a whole number from 1 to 1000, got "1001"`},
		{name: "negative limit", limit: "-1", wantErr: `limit must be a whole number from 1 to 1000, got "-1"`},
		{name: "limit not a number", limit: "ten", wantErr: `limit must be a whole number from 1 to 1000, got "ten"`},
		{name: "fractional limit", limit: "1.5", wantErr: `limit must be a whole number from 1 to 1000, got "1.5"`},
		{name: "limit with a sign", limit: "+5", wantLimit: 5},
		{name: "negative offset", offset: "-1", wantErr: `offset must be a whole number from 0 to 1000000, got "-1"`},
		{name: "offset over the maximum", offset: "1000001", wantErr: `offset must be a whole number from 0 to 1000000, got "1000001"`},
		{name: "long input is cut", limit: long, wantErr: `limit must be a whole number from 1 to 1000, got "` + long[:64] + `…"`},
		{name: "bad sort", sort: "a b", wantErr: `sort field "a b" is not a valid field name`},
		{name: "long sort field is cut", sort: strings.Repeat("é", 40), wantErr: `sort field "` + strings.Repeat("é", 32) + `…"`},
		{name: "bad filter", filter: "[1]", wantErr: "filter must be a JSON object"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, err := query.Parse(tt.limit, tt.offset, tt.sort, tt.filter)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || q.Limit != tt.wantLimit || q.Offset != tt.wantOffset {
				t.Errorf("got limit %d offset %d, %v; want %d, %d", q.Limit, q.Offset, err, tt.wantLimit, tt.wantOffset)
			}
		})
	}
}

// CheckLimit and CheckOffset are the same rules for numbers already decoded (GraphQL).
func TestCheckCounts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		limit, offset int
		wantErr       string
	}{
		{1, 0, ""},
		{1000, 1000000, ""},
		{0, 0, "limit must be a whole number from 1 to 1000, got 0"},
		{1001, 0, "limit must be a whole number from 1 to 1000, got 1001"},
		{1, -1, "offset must be a whole number from 0 to 1000000, got -1"},
		{1, 1000001, "offset must be a whole number from 0 to 1000000, got 1000001"},
	} {
		err := errors.Join(query.CheckLimit(tt.limit), query.CheckOffset(tt.offset))
		if got := fmt.Sprint(err); (err == nil) != (tt.wantErr == "") || err != nil && got != tt.wantErr {
			t.Errorf("Check(%d, %d) = %v, want %q", tt.limit, tt.offset, err, tt.wantErr)
		}
	}
}

func entry(slug string, fields ...any) *content.Entry {
	e := &content.Entry{Slug: slug, Title: strings.ToUpper(slug), Status: content.StatusPublished, Data: content.NewMap(len(fields) / 2)}
	for i := 0; i+1 < len(fields); i += 2 {
		k := fields[i].(string)
		switch k {
		case "createdAt":
			e.CreatedAt = fields[i+1].(string)
		case "title":
			e.Title = fields[i+1].(string)
		default:
			e.Data.Set(k, fields[i+1])
		}
	}
	return e
}

func slugs(es []*content.Entry) string {
	var s []string
	for _, e := range es {
		s = append(s, e.Slug)
	}
	return strings.Join(s, ",")
}

func TestSortComparesByType(t *testing.T) {
	t.Parallel()
	es := []*content.Entry{
		entry("a", "rating", int64(10), "createdAt", "2026-01-10T00:00:00Z"),
		entry("b", "rating", 9.5, "createdAt", "2025-12-31T23:00:00.000Z"),
		entry("c", "rating", int64(100), "createdAt", "2026-01-02"),
		entry("d"), // no rating, no date: last in both directions
	}
	tests := []struct {
		sort string
		want string
	}{
		{"rating", "b,a,c,d"},    // numbers compare as numbers, not text ("100" < "9.5")
		{"-rating", "c,a,b,d"},   // missing values still last
		{"createdAt", "b,c,a,d"}, // dates compare as dates across formats
		{"-createdAt", "a,c,b,d"},
		{"-title", "d,c,b,a"},
	}
	for _, tt := range tests {
		keys, err := query.ParseSort(tt.sort)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Clone(es)
		query.Sort(got, keys)
		if slugs(got) != tt.want {
			t.Errorf("sort %s = %s, want %s", tt.sort, slugs(got), tt.want)
		}
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	e := entry("x", "category", "news", "rating", int64(4), "featured", true, "tags", []any{"go", "cms"})
	tests := []struct {
		filter string
		want   bool
	}{
		{`{"category":"news"}`, true},
		{`{"category":"other"}`, false},
		{`{"rating":4}`, true},
		{`{"rating":4.0}`, true},
		{`{"rating":"4"}`, false}, // type-sensitive
		{`{"featured":true}`, true},
		{`{"featured":false}`, false},
		{`{"tags":"go"}`, true}, // list membership
		{`{"tags":"rust"}`, false},
		{`{"tags":["go","cms"]}`, true},
		{`{"missing":null}`, true},
		{`{"missing":"x"}`, false},
		{`{"slug":"x","title":"X"}`, true},
	}
	for _, tt := range tests {
		f, err := query.ParseFilter(tt.filter)
		if err != nil {
			t.Fatal(err)
		}
		if got := query.Match(e, f); got != tt.want {
			t.Errorf("Match(%s) = %v, want %v", tt.filter, got, tt.want)
		}
	}
}

func TestDefaultOrder(t *testing.T) {
	t.Parallel()
	es := []*content.Entry{
		entry("b", "title", "Beta", "order", int64(2), "createdAt", "2026-01-01"),
		entry("a", "title", "alpha", "order", int64(3), "createdAt", "2026-03-01"),
		entry("c", "title", "Gamma", "order", int64(1), "createdAt", "2026-02-01"),
	}
	tests := []struct {
		coll content.Collection
		want string
	}{
		{content.Collection{}, "a,b,c"},                                  // by title, case-insensitive
		{content.Collection{SortDirection: "desc"}, "c,b,a"},             // title desc
		{content.Collection{Dated: true}, "a,c,b"},                       // dated: newest first
		{content.Collection{Dated: true, SortDirection: "asc"}, "b,c,a"}, // dated asc
		{content.Collection{Sortable: true}, "c,b,a"},                    // manual order
	}
	for _, tt := range tests {
		got := slices.Clone(es)
		query.Sort(got, query.DefaultOrder(&tt.coll))
		if slugs(got) != tt.want {
			t.Errorf("%+v: order = %s, want %s", tt.coll, slugs(got), tt.want)
		}
	}
}

// TopK must agree with a full stable sort for every page.
func TestTopKMatchesFullSort(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var es []*content.Entry
	for i := range 500 {
		es = append(es, entry(fmt.Sprintf("e%03d", i), "rating", int64(rng.IntN(20))))
	}
	keys := []query.SortKey{{Field: "rating", Desc: true}, {Field: "slug"}}
	full := slices.Clone(es)
	query.Sort(full, keys)
	for _, page := range [][2]int{{0, 10}, {5, 10}, {90, 7}, {0, 1}, {490, 20}, {0, 0}} {
		got := query.TopK(slices.Clone(es), keys, page[0], page[1])
		want := query.Page(slices.Clone(full), page[0], page[1])
		if slugs(got) != slugs(want) {
			t.Errorf("page %v: TopK = %s, want %s", page, slugs(got), slugs(want))
		}
	}
}

func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"tags":["x"]}`, `{`, `[]`, `{"a":{"b":1}}`, `{"a":1e400}`, "{\"\\u0000\":1}"} {
		f.Add(s)
	}
	e := entry("x", "a", int64(1), "tags", []any{"x"})
	f.Fuzz(func(t *testing.T, s string) {
		m, err := query.ParseFilter(s)
		if err != nil {
			return
		}
		for k := range m {
			if !query.ValidField(k) {
				t.Fatalf("accepted invalid field %q", k)
			}
		}
		query.Match(e, m) // must not panic
	})
}

func FuzzParseSort(f *testing.F) {
	for _, s := range []string{"title", "-a,+b", "", "-", ",", "a.b-c_d"} {
		f.Add(s)
	}
	es := []*content.Entry{entry("a", "x", int64(1)), entry("b", "x", "s"), entry("c", "x", true)}
	f.Fuzz(func(t *testing.T, s string) {
		keys, err := query.ParseSort(s)
		if err != nil {
			return
		}
		if len(keys) > query.MaxSortKeys {
			t.Fatalf("accepted %d keys", len(keys))
		}
		query.Sort(slices.Clone(es), keys)
	})
}

// TestOrderMatchesSort: Order gives the permutation Sort applies, ties (no slug key) included,
// over values of mixed types, missing values, dates, case variants and strings sharing their first
// eight bytes, in both directions, and
// Orders the same and the one with the first key reversed.
func TestOrderMatchesSort(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	values := []any{int64(3), 3.0, int64(-1), 2.5, "b", "B", "a", "2020-01-02", "2019-12-31T23:00:00Z", true, false, nil,
		// Values whose prefixes (the first eight lower-cased bytes, a number's bits) tie or
		// nearly do: the order must come from the whole value.
		"Abcdefghij", "abcdefghIk", "abcdefgh", "abcdefgh\x00", "ABCDEFGH", "abcdefgi", "Ωmega", "ωmega", "1960-05-01",
		math.Copysign(0, -1), 0.0, int64(0), -2.5, 1e300, -1e300, int64(1) << 53, float64(int64(1)<<53) + 1, []any{"x"}}
	var es []*content.Entry
	for range 300 {
		var fields []any
		for _, f := range []string{"x", "y"} {
			if v := values[rng.IntN(len(values))]; v != nil {
				fields = append(fields, f, v)
			}
		}
		es = append(es, entry(fmt.Sprintf("e%03d", rng.IntN(1000)), fields...))
	}
	for _, so := range []string{"x", "-x", "x,y", "-x,-y", "y,slug", "-y,x,slug", "createdAt", "nope"} {
		keys, err := query.ParseSort(so)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name string, perm []int32, keys []query.SortKey) {
			t.Helper()
			want := slices.Clone(es)
			query.Sort(want, keys)
			got := make([]*content.Entry, len(perm))
			for i, p := range perm {
				got[i] = es[p]
			}
			if !slices.Equal(got, want) {
				t.Errorf("sort %v: %s = %s\nSort gives %s", keys, name, slugs(got), slugs(want))
			}
		}
		check("Order", query.Order(es, keys), keys)
		if len(keys) == 0 {
			continue
		}
		order, reversed := query.Orders(es, keys)
		check("Orders", order, keys)
		flipped := slices.Clone(keys)
		flipped[0].Desc = !flipped[0].Desc
		check("Orders reversed", reversed, flipped)
	}
}
