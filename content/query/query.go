// Package query parses and applies entry list queries: sort keys ("field", "-field"), filters
// (a JSON object of field to value for equality, or to an object of operators such as
// {"$gte": "2024-01-01"}; see docs/queries.md) and limits. It is pure, shared by the public API, the CP API and
// GraphQL, and fuzzed because its input comes straight from URLs.
package query

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"cms/content"
)

// Limits on what a client may ask for, the same for every entry list (the CP API, the public
// API and GraphQL).
const (
	DefaultLimit = 100  // page size when the client names none
	MaxLimit     = 1000 // largest page
	MaxOffset    = 1_000_000
	MaxFilterLen = 4096 // bytes of filter JSON
	MaxFilters   = 32
	MaxSortKeys  = 4
)

// SortKey orders by one field.
type SortKey struct {
	Field string
	Desc  bool
}

// Query selects, orders and pages entries of one collection.
type Query struct {
	Status string         // "" = any; "published" / "draft"
	Filter map[string]any // field -> value (equality; list fields match when they contain it) or Cond
	Sort   []SortKey      // empty = the collection's own order
	Offset int
	Limit  int // 0 = no limit
	// Fields is the projection a client asked for (nil = every field). The store ignores it; the
	// handlers shape their responses by it.
	Fields []string
}

// ValidField reports whether name can be a sort or filter field: a letter or underscore, then
// up to 99 letters, digits, underscores, dots and hyphens (checked by hand: every list request
// checks its fields, and a regular expression costs more than the rest of parsing).
func ValidField(name string) bool {
	if name == "" || len(name) > 100 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// ParseSort parses "field", "-field" or "+field", comma-separated for several keys.
func ParseSort(s string) ([]SortKey, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxSortKeys {
		return nil, fmt.Errorf("sort takes at most %d fields", MaxSortKeys)
	}
	keys := make([]SortKey, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		k := SortKey{}
		switch {
		case strings.HasPrefix(p, "-"):
			k.Desc, p = true, p[1:]
		case strings.HasPrefix(p, "+"):
			p = p[1:]
		}
		if !ValidField(p) {
			return nil, fmt.Errorf("sort field %q is not a valid field name (use field or -field)", content.Shorten(p))
		}
		k.Field = p
		keys = append(keys, k)
	}
	return keys, nil
}

// ParseSortColon parses GraphQL-style "field:asc" / "field:desc", comma-separated for several
// keys.
func ParseSortColon(s string) ([]SortKey, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxSortKeys {
		return nil, fmt.Errorf("sort takes at most %d fields", MaxSortKeys)
	}
	keys := make([]SortKey, 0, len(parts))
	for _, p := range parts {
		field, dir, _ := strings.Cut(p, ":")
		k := SortKey{Field: strings.TrimSpace(field)}
		switch strings.ToLower(strings.TrimSpace(dir)) {
		case "", "asc":
		case "desc":
			k.Desc = true
		default:
			return nil, fmt.Errorf("sort direction %q must be asc or desc", content.Shorten(dir))
		}
		if !ValidField(k.Field) {
			return nil, fmt.Errorf("sort field %q is not a valid field name", content.Shorten(k.Field))
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// ParseFilter parses a JSON object of field -> scalar (or list) value.
func ParseFilter(s string) (map[string]any, error) {
	if s == "" {
		return nil, nil
	}
	if len(s) > MaxFilterLen {
		return nil, fmt.Errorf("filter is longer than %d bytes", MaxFilterLen)
	}
	if m, ok := parseFlatFilter(s); ok {
		return m, nil
	}
	return parseFilterJSON(s)
}

// parseFilterJSON is ParseFilter for any filter, through the JSON decoder.
func parseFilterJSON(s string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := content.DecodeJSONValue(dec)
	if err != nil {
		return nil, fmt.Errorf("filter is not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("filter has data after the JSON object")
	}
	m, ok := v.(*content.Map)
	if !ok {
		return nil, fmt.Errorf("filter must be a JSON object of field to value")
	}
	if m.Len() > MaxFilters {
		return nil, fmt.Errorf("filter has more than %d fields", MaxFilters)
	}
	out := make(map[string]any, m.Len())
	for _, k := range m.Keys() {
		if !ValidField(k) {
			return nil, fmt.Errorf("filter field %q is not a valid field name", content.Shorten(k))
		}
		v := m.Value(k)
		if obj, nested := v.(*content.Map); nested {
			ops := 0
			for _, name := range obj.Keys() {
				if strings.HasPrefix(name, "$") {
					ops++
				}
			}
			if ops == 0 || ops != obj.Len() {
				return nil, fmt.Errorf("filter value for %q must be a string, number, boolean, null, list or an object of operators (%s)",
					content.Shorten(k), strings.Join(Operators, ", "))
			}
			c, err := parseCond(k, obj)
			if err != nil {
				return nil, err
			}
			out[k] = c
			continue
		}
		out[k] = v
	}
	return out, nil
}

// Parse reads the list parameters as a URL carries them (each "" when absent): limit
// ([ParseLimit]), offset ([ParseOffset]), sort ([ParseSort]) and filter ([ParseFilter]). Its
// errors say what was wrong; the status is left to the caller.
func Parse(limit, offset, sort, filter string) (Query, error) {
	var q Query
	var err error
	if q.Limit, err = ParseLimit(limit); err != nil {
		return q, err
	}
	if q.Offset, err = ParseOffset(offset); err != nil {
		return q, err
	}
	if q.Sort, err = ParseSort(sort); err != nil {
		return q, err
	}
	if q.Filter, err = ParseFilter(filter); err != nil {
		return q, err
	}
	return q, nil
}

// ParseLimit parses a page size: "" is DefaultLimit, otherwise a whole number from 1 to
// MaxLimit. Zero is refused rather than read as "no limit" or "the default": either guess would
// hand a client something other than what it asked for.
func ParseLimit(s string) (int, error) { return parseCount("limit", s, DefaultLimit, 1, MaxLimit) }

// ParseOffset parses how many entries to skip: "" is 0, otherwise a whole number from 0 to
// MaxOffset.
func ParseOffset(s string) (int, error) { return parseCount("offset", s, 0, 0, MaxOffset) }

// CheckLimit is [ParseLimit] for a number already decoded (a GraphQL argument).
func CheckLimit(n int) error { return checkCount("limit", n, 1, MaxLimit) }

// CheckOffset is [ParseOffset] for a number already decoded.
func CheckOffset(n int) error { return checkCount("offset", n, 0, MaxOffset) }

func parseCount(name, s string, def, lo, hi int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be a whole number from %d to %d, got %q", name, lo, hi, content.Shorten(s))
	}
	return n, nil
}

func checkCount(name string, n, lo, hi int) error {
	if n < lo || n > hi {
		return fmt.Errorf("%s must be a whole number from %d to %d, got %d", name, lo, hi, n)
	}
	return nil
}

// Match reports whether e satisfies every filter.
func Match(e *content.Entry, filter map[string]any) bool {
	for k, want := range filter {
		got, ok := e.Field(k)
		if !matchValue(got, ok, want) {
			return false
		}
	}
	return true
}

func containsEqual(list []any, want any) bool {
	for _, x := range list {
		if Equal(x, want) {
			return true
		}
	}
	return false
}

// Equal compares two values: numbers by value whatever their Go type, lists element-wise,
// everything else by type and value.
func Equal(a, b any) bool {
	if fa, ok := toFloat(a); ok {
		fb, ok := toFloat(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case *content.Map:
		y, ok := b.(*content.Map)
		if !ok {
			return false
		}
		xa, _ := x.MarshalJSON()
		ya, _ := y.MarshalJSON()
		return bytes.Equal(xa, ya)
	}
	return a == b
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}

// Compare orders two field values: numbers numerically, ISO dates chronologically, strings
// lexically (case-insensitive first, then exact), booleans false < true. Missing values (nil)
// are reported with ok=false so callers can sort them last in either direction.
func Compare(a, b any) int {
	if fa, ok := toFloat(a); ok {
		if fb, ok := toFloat(b); ok {
			switch {
			case fa < fb:
				return -1
			case fa > fb:
				return 1
			}
			return 0
		}
	}
	sa, aok := a.(string)
	sb, bok := b.(string)
	if aok && bok {
		if ta, ok := parseDate(sa); ok {
			if tb, ok := parseDate(sb); ok {
				return ta.Compare(tb)
			}
		}
		if c := strings.Compare(strings.ToLower(sa), strings.ToLower(sb)); c != 0 {
			return c
		}
		return strings.Compare(sa, sb)
	}
	ba, aok := a.(bool)
	bb, bok := b.(bool)
	if aok && bok {
		switch {
		case ba == bb:
			return 0
		case !ba:
			return -1
		}
		return 1
	}
	// Mixed types: order by a type rank so the order is total and stable.
	return rank(a) - rank(b)
}

func rank(v any) int {
	switch v.(type) {
	case bool:
		return 1
	case int64, float64, int:
		return 2
	case string:
		return 3
	case []any:
		return 4
	case *content.Map:
		return 5
	}
	return 6
}

func parseDate(s string) (time.Time, bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' || !digits(s[0:4]) || !digits(s[5:7]) || !digits(s[8:10]) {
		return time.Time{}, false
	}
	if t, ok := fastDate(s); ok {
		return t, true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// Sort orders entries by keys; entries missing a key's value sort after those having it, in
// either direction; ties keep the input order. Each entry's key values are looked up once, not
// once per comparison.
func Sort(entries []*content.Entry, keys []SortKey) {
	if len(keys) == 0 || len(entries) < 2 {
		return
	}
	ks := decorate(entries, keys)
	sort.SliceStable(ks, func(i, j int) bool { return lessKeyed(&ks[i], &ks[j], keys) })
	for i := range ks {
		entries[i] = ks[i].e
	}
}

// keyed is an entry with its sort-key values resolved and pre-parsed.
type keyed struct {
	e    *content.Entry
	vals []sortVal
}

// sortVal is a field value prepared for comparison: dates are parsed and strings lower-cased
// once per entry, not once per comparison.
type sortVal struct {
	present bool
	raw     any
	rank    int
	num     float64
	isDate  bool
	date    int64
	lower   string
}

func prepare(v any, present bool) sortVal {
	if !present || v == nil {
		return sortVal{}
	}
	sv := sortVal{present: true, raw: v, rank: rank(v)}
	switch x := v.(type) {
	case int64:
		sv.num = float64(x)
	case float64:
		sv.num = x
	case int:
		sv.num = float64(x)
	case string:
		if t, ok := parseDate(x); ok {
			sv.isDate, sv.date = true, t.UnixNano()
		}
		sv.lower = strings.ToLower(x)
	}
	return sv
}

// compareVals orders prepared values exactly as Compare orders the raw ones.
func compareVals(a, b *sortVal) int {
	if a.rank == 2 && b.rank == 2 {
		switch {
		case a.num < b.num:
			return -1
		case a.num > b.num:
			return 1
		}
		return 0
	}
	if a.rank == 3 && b.rank == 3 {
		if a.isDate && b.isDate {
			switch {
			case a.date < b.date:
				return -1
			case a.date > b.date:
				return 1
			}
			return 0
		}
		if c := strings.Compare(a.lower, b.lower); c != 0 {
			return c
		}
		return strings.Compare(a.raw.(string), b.raw.(string))
	}
	return Compare(a.raw, b.raw)
}

func decorate(entries []*content.Entry, keys []SortKey) []keyed {
	ks := make([]keyed, len(entries))
	vals := make([]sortVal, len(entries)*len(keys))
	for i, e := range entries {
		v := vals[i*len(keys) : (i+1)*len(keys) : (i+1)*len(keys)]
		for j, k := range keys {
			x, ok := e.Field(k.Field)
			v[j] = prepare(x, ok)
		}
		ks[i] = keyed{e: e, vals: v}
	}
	return ks
}

func lessKeyed(a, b *keyed, keys []SortKey) bool { return compareKeyed(a, b, keys) < 0 }

// compareKeyed orders a and b under keys: values missing a key sort after those having it, in
// either direction.
func compareKeyed(a, b *keyed, keys []SortKey) int { return compareFrom(a, b, keys, 0) }

// compareFrom is compareKeyed from the key at index from on.
func compareFrom(a, b *keyed, keys []SortKey, from int) int {
	for i := from; i < len(keys); i++ {
		k := keys[i]
		va, vb := &a.vals[i], &b.vals[i]
		switch {
		case !va.present && !vb.present:
			continue
		case !va.present:
			return 1
		case !vb.present:
			return -1
		}
		c := compareVals(va, vb)
		if c == 0 {
			continue
		}
		if k.Desc {
			return -c
		}
		return c
	}
	return 0
}

// Less reports whether a sorts before b under keys.
func Less(a, b *content.Entry, keys []SortKey) bool {
	ks := decorate([]*content.Entry{a, b}, keys)
	return lessKeyed(&ks[0], &ks[1], keys)
}

// DefaultOrder is a collection's own order: manual ("order" field) for sortable collections,
// createdAt for dated ones, otherwise title; then slug as a tie-breaker. Direction is the
// collection's sortDirection, defaulting to desc for dated collections and asc otherwise.
func DefaultOrder(c *content.Collection) []SortKey {
	desc := c.SortDirection == "desc" || (c.SortDirection == "" && c.Dated)
	switch {
	case c.Sortable:
		return []SortKey{{Field: "order", Desc: desc}, {Field: "title"}, {Field: "slug"}}
	case c.Dated:
		return []SortKey{{Field: "createdAt", Desc: desc}, {Field: "slug"}}
	}
	return []SortKey{{Field: "title", Desc: desc}, {Field: "slug"}}
}

// Page applies offset and limit.
func Page[T any](items []T, offset, limit int) []T {
	if offset >= len(items) {
		return items[:0]
	}
	items = items[offset:]
	if limit > 0 && limit < len(items) {
		items = items[:limit]
	}
	return items
}

// fastDate parses the two date forms sites use most, "2006-01-02" and
// "2006-01-02T15:04:05[.fraction]Z", to what time.Parse gives them, without its general
// machinery: sorting 100,000 entries by date parses 100,000 dates. Anything else (an offset, a
// value out of range, ten digits of fraction) is left to time.Parse (ok = false). s has passed
// parseDate's check of its first ten bytes.
func fastDate(s string) (time.Time, bool) {
	year, month, day := num(s[0:4]), num(s[5:7]), num(s[8:10])
	if month < 1 || month > 12 || day < 1 || day > daysIn(time.Month(month), year) {
		return time.Time{}, false
	}
	if len(s) == 10 {
		return time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC), true
	}
	if len(s) < 20 || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[len(s)-1] != 'Z' ||
		!digits(s[11:13]) || !digits(s[14:16]) || !digits(s[17:19]) {
		return time.Time{}, false
	}
	hour, minute, sec := num(s[11:13]), num(s[14:16]), num(s[17:19])
	if hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	nsec := 0
	if frac := s[19 : len(s)-1]; frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 || !digits(frac[1:]) {
			return time.Time{}, false
		}
		nsec = num(frac[1:])
		for range 10 - len(frac) {
			nsec *= 10
		}
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC), true
}

// num is the value of a string of decimal digits.
func num(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

func daysIn(m time.Month, year int) int {
	if m == time.February {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 31 - int((m-1)%7%2)
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
