package query_test

import (
	"encoding/json"
	"strings"
	"testing"

	"cms/content"
	"cms/content/query"
)

// The operator grammar: what ParseFilter accepts (and how the operators read back) and what it
// refuses, with the reason a client sees.
func TestParseFilterOperators(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want, wantErr string }{
		{in: `{"createdAt":{"$gte":"2024-01-01"}}`, want: `{"createdAt":{"$gte":"2024-01-01"}}`},
		{in: `{"rating":{"$lt":5,"$gt":1}}`, want: `{"rating":{"$gt":1,"$lt":5}}`}, // sorted by operator
		{in: `{"category":{"$in":["a","b"]},"tags":{"$contains":"go"}}`, want: `{"category":{"$in":["a","b"]},"tags":{"$contains":"go"}}`},
		{in: `{"category":{"$nin":[],"$ne":null}}`, want: `{"category":{"$ne":null,"$nin":[]}}`},
		{in: `{"image":{"$exists":false}}`, want: `{"image":{"$exists":false}}`},
		{in: `{"tags":{"$ne":["a","b"]}}`, want: `{"tags":{"$ne":["a","b"]}}`},
		{in: `{"category":"news"}`, want: `{"category":"news"}`}, // equality unchanged
		{in: `{"a":{"$regex":"x"}}`, wantErr: `unknown filter operator "$regex" for "a": use $ne, $in, $nin, $gt, $gte, $lt, $lte, $contains, $exists`},
		{in: `{"a":{"$eq":1}}`, wantErr: `unknown filter operator "$eq"`},
		{in: `{"a":{"$gte":1,"b":2}}`, wantErr: `must be a string, number, boolean, null, list or an object of operators`},
		{in: `{"a":{}}`, wantErr: `or an object of operators`},
		{in: `{"a":{"$in":"x"}}`, wantErr: `$in of "a" must be a list of values`},
		{in: `{"a":{"$nin":[{"b":1}]}}`, wantErr: `$nin of "a" must list strings, numbers, booleans or null`},
		{in: `{"a":{"$in":[` + strings.Repeat(`1,`, 100) + `1]}}`, wantErr: `more than 100 values`},
		{in: `{"a":{"$gt":null}}`, wantErr: `$gt of "a" must be a number, a date or a string`},
		{in: `{"a":{"$lte":true}}`, wantErr: `must be a number, a date or a string`},
		{in: `{"a":{"$lt":[1]}}`, wantErr: `must be a number, a date or a string`},
		{in: `{"a":{"$contains":null}}`, wantErr: `$contains of "a" must be a string, number or boolean`},
		{in: `{"a":{"$contains":["x"]}}`, wantErr: `$contains of "a" must be a string, number or boolean`},
		{in: `{"a":{"$exists":"yes"}}`, wantErr: `$exists of "a" must be true or false`},
		{in: `{"a":{"$ne":{"b":1}}}`, wantErr: `$ne of "a" must be a string, number, boolean, null or list`},
		{in: `{"a b":{"$gt":1}}`, wantErr: `not a valid field name`},
	} {
		got, err := query.ParseFilter(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseFilter(%s) err = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseFilter(%s): %v", tt.in, err)
			continue
		}
		if b, _ := json.Marshal(got); string(b) != tt.want {
			t.Errorf("ParseFilter(%s) = %s, want %s", tt.in, b, tt.want)
		}
	}
}

// What each operator matches, on entries a user would write: dates of two formats, numbers,
// a list, a missing field and a value of another type.
func TestMatchOperators(t *testing.T) {
	t.Parallel()
	es := []*content.Entry{
		entry("jan", "createdAt", "2024-01-15T10:00:00Z", "rating", int64(3), "tags", []any{"go", "cms"}, "category", "news"),
		entry("feb", "createdAt", "2024-02-01", "rating", 4.5, "tags", []any{"go"}, "category", "howto"),
		entry("dec", "createdAt", "2023-12-31T23:59:59Z", "rating", "5", "category", "news"),
		entry("none", "tags", []any{}, "category", nil),
	}
	for _, tt := range []struct{ filter, want string }{
		{`{"createdAt":{"$gte":"2024-01-01"}}`, "jan,feb"},
		{`{"createdAt":{"$gt":"2024-01-15T10:00:00Z"}}`, "feb"},
		{`{"createdAt":{"$gte":"2024-01-15T10:00:00Z","$lt":"2024-02-01T00:00:00Z"}}`, "jan"},
		{`{"createdAt":{"$lte":"2024-01-01"}}`, "dec"},
		{`{"rating":{"$gt":3}}`, "feb"}, // "5" is text, not a number
		{`{"rating":{"$gte":3,"$lte":4.5}}`, "jan,feb"},
		{`{"rating":{"$gte":"4"}}`, "dec"}, // text compared with text
		{`{"rating":{"$ne":3}}`, "feb,dec,none"},
		{`{"category":{"$in":["news","other"]}}`, "jan,dec"},
		{`{"category":{"$in":["howto",null]}}`, "feb,none"},
		{`{"category":{"$nin":["news"]}}`, "feb,none"},
		{`{"tags":{"$contains":"cms"}}`, "jan"},
		{`{"category":{"$contains":"news"}}`, ""}, // not a list
		{`{"tags":"go"}`, "jan,feb"},              // equality still matches list members
		{`{"tags":{"$in":["cms"]}}`, "jan"},
		{`{"rating":{"$exists":true}}`, "jan,feb,dec"},
		{`{"category":{"$exists":false}}`, "none"}, // null counts as absent
		{`{"tags":{"$gt":"a"}}`, ""},               // a list is in no range
	} {
		f, err := query.ParseFilter(tt.filter)
		if err != nil {
			t.Fatalf("%s: %v", tt.filter, err)
		}
		var got []string
		for _, e := range es {
			if query.Match(e, f) {
				got = append(got, e.Slug)
			}
		}
		if s := strings.Join(got, ","); s != tt.want {
			t.Errorf("%s matched %q, want %q", tt.filter, s, tt.want)
		}
	}
}

func TestCheckFields(t *testing.T) {
	t.Parallel()
	c := &content.Collection{Handle: "blog", Taxonomies: []string{"tags"}}
	bp := &content.Blueprint{Tabs: []content.Tab{{Fields: []content.Field{{Handle: "featured"}}}}}
	known := query.KnownFields(c, bp)
	for _, tt := range []struct{ filter, sort, wantErr string }{
		{filter: `{"featured":true,"tags":"go","createdAt":{"$gte":"2024-01-01"}}`, sort: "-featured,createdAt"},
		{filter: `{"featurd":true}`, wantErr: `filter field "featurd" is not a field of collection "blog"`},
		{sort: "-featured,order", wantErr: `sort field "order" is not a field of collection "blog"`},
	} {
		q, err := query.Parse("", "", tt.sort, tt.filter)
		if err != nil {
			t.Fatal(err)
		}
		err = q.CheckFields("blog", known)
		if (err == nil) != (tt.wantErr == "") || (err != nil && err.Error() != tt.wantErr) {
			t.Errorf("%s %s: err = %v, want %q", tt.filter, tt.sort, err, tt.wantErr)
		}
	}
	q, _ := query.Parse("", "", "anything", `{"whatever":1}`)
	if err := q.CheckFields("blog", query.KnownFields(c, nil)); err != nil {
		t.Errorf("a collection without a blueprint refused a field: %v", err)
	}
	if err := q.CheckFields("blog", query.KnownFields(&content.Collection{Sortable: true}, bp)); err == nil {
		t.Error("unknown fields accepted")
	}
}

func TestParseFields(t *testing.T) {
	t.Parallel()
	got, err := query.ParseFields("title, slug,excerpt,title")
	if err != nil || strings.Join(got, ",") != "title,slug,excerpt" {
		t.Errorf("ParseFields = %v, %v", got, err)
	}
	for _, bad := range []string{",", "title,,slug", "a b", strings.Repeat("a,", 51)} {
		if _, err := query.ParseFields(bad); err == nil {
			t.Errorf("ParseFields(%q) accepted", bad)
		}
	}
}

// FuzzFilterOperators: whatever ParseFilter accepts, matching never panics, the filter reads
// back (JSON) to one that parses to the same filter, and a range agrees with Compare.
func FuzzFilterOperators(f *testing.F) {
	for _, s := range []string{`{"a":{"$gte":"2024-01-01"}}`, `{"a":{"$in":[1,"x",null]}}`, `{"a":{"$nin":[]}}`,
		`{"a":{"$contains":1}}`, `{"a":{"$exists":true},"b":{"$ne":[1]}}`, `{"a":{"$lt":1e400}}`, `{"a":{"$gt":-0,"$lte":"z"}}`} {
		f.Add(s)
	}
	es := []*content.Entry{
		entry("a", "a", int64(1), "b", []any{"x", int64(1)}),
		entry("b", "a", "2024-03-01", "b", "x"),
		entry("c", "a", []any{"2024-01-01"}),
		entry("d", "a", nil),
		entry("e"),
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := query.ParseFilter(s)
		if err != nil || m == nil {
			return
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%s does not marshal: %v", s, err)
		}
		again, err := query.ParseFilter(string(b))
		if err != nil {
			t.Fatalf("%s read back as %s, which does not parse: %v", s, b, err)
		}
		for _, e := range es {
			if query.Match(e, m) != query.Match(e, again) {
				t.Fatalf("%s and its read-back %s disagree on %s", s, b, e.Slug)
			}
			for k, v := range m {
				c, ok := v.(query.Cond)
				if !ok {
					continue
				}
				lo, loStrict, hi, hiStrict, isRange := c.Range()
				got, present := e.Field(k)
				if !isRange || !present || got == nil {
					continue
				}
				// A range holds exactly when the value has the bounds' kind and Compare puts it
				// inside them.
				bound := lo
				if bound == nil {
					bound = hi
				}
				in := query.RankOf(got) == query.RankOf(bound)
				if lo != nil {
					d := query.Compare(got, lo)
					in = in && (d > 0 || (d == 0 && !loStrict))
				}
				if hi != nil {
					d := query.Compare(got, hi)
					in = in && (d < 0 || (d == 0 && !hiStrict))
				}
				if query.Match(e, map[string]any{k: c}) != in {
					t.Fatalf("%s on %s: Match = %v, range says %v", s, e.Slug, !in, in)
				}
			}
		}
	})
}
