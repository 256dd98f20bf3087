package query

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"cms/content"
)

// Filter operators: a filter value that is an object of operators ({"$gte": "2024-01-01"})
// instead of a plain value, which stays an equality test.
const (
	OpNe       = "$ne"
	OpIn       = "$in"
	OpNin      = "$nin"
	OpGt       = "$gt"
	OpGte      = "$gte"
	OpLt       = "$lt"
	OpLte      = "$lte"
	OpContains = "$contains"
	OpExists   = "$exists"
)

// Operators lists the filter operators, in the order error messages name them.
var Operators = []string{OpNe, OpIn, OpNin, OpGt, OpGte, OpLt, OpLte, OpContains, OpExists}

// MaxInValues bounds the values of one $in or $nin.
const MaxInValues = 100

// Op is one operator test: Name is one of Operators.
type Op struct {
	Name  string
	Value any
}

// Cond is a filter value made of operator tests, all of which must hold. ParseFilter sorts them
// by name, so equal filters compare (and cache) equal.
type Cond []Op

// MarshalJSON writes the operator object the filter was parsed from.
func (c Cond) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, op := range c {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(op.Name)
		v, err := json.Marshal(op.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Range returns the bounds of c when c is a simple range: order comparisons only, at most one
// lower and one upper bound, both numbers or both strings (nil = unbounded on that side). An
// index answers such a range exactly from an order of the field (see Keyed.Rank for why the
// kind matters); other conditions are tested entry by entry.
func (c Cond) Range() (lo any, loStrict bool, hi any, hiStrict bool, ok bool) {
	for _, op := range c {
		switch op.Name {
		case OpGt, OpGte:
			if lo != nil {
				return nil, false, nil, false, false
			}
			lo, loStrict = op.Value, op.Name == OpGt
		case OpLt, OpLte:
			if hi != nil {
				return nil, false, nil, false, false
			}
			hi, hiStrict = op.Value, op.Name == OpLt
		default:
			return nil, false, nil, false, false
		}
	}
	if lo != nil && hi != nil && !sameKind(lo, hi) {
		return nil, false, nil, false, false
	}
	return lo, loStrict, hi, hiStrict, len(c) > 0
}

// parseCond reads an operator object; m has at least one key and every key starts with '$'.
func parseCond(field string, m *content.Map) (Cond, error) {
	f := content.Shorten(field)
	c := make(Cond, 0, m.Len())
	for _, name := range m.Keys() {
		v := m.Value(name)
		if !slices.Contains(Operators, name) {
			return nil, fmt.Errorf("unknown filter operator %q for %q: use %s", content.Shorten(name), f, strings.Join(Operators, ", "))
		}
		switch name {
		case OpNe:
			if !plainValue(v, true) {
				return nil, fmt.Errorf("%s of %q must be a string, number, boolean, null or list", name, f)
			}
		case OpIn, OpNin:
			list, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s of %q must be a list of values", name, f)
			}
			if len(list) > MaxInValues {
				return nil, fmt.Errorf("%s of %q has more than %d values", name, f, MaxInValues)
			}
			for _, x := range list {
				if !plainValue(x, false) {
					return nil, fmt.Errorf("%s of %q must list strings, numbers, booleans or null", name, f)
				}
			}
		case OpGt, OpGte, OpLt, OpLte:
			if _, num := toFloat(v); !num {
				if _, str := v.(string); !str {
					return nil, fmt.Errorf("%s of %q must be a number, a date or a string", name, f)
				}
			}
		case OpContains:
			if v == nil || !plainValue(v, false) {
				return nil, fmt.Errorf("%s of %q must be a string, number or boolean", name, f)
			}
		case OpExists:
			if _, ok := v.(bool); !ok {
				return nil, fmt.Errorf("%s of %q must be true or false", name, f)
			}
		}
		c = append(c, Op{Name: name, Value: v})
	}
	slices.SortFunc(c, func(a, b Op) int { return strings.Compare(a.Name, b.Name) })
	return c, nil
}

// plainValue reports whether v is a scalar (or, with lists, a list of scalars).
func plainValue(v any, lists bool) bool {
	switch x := v.(type) {
	case nil, string, bool, int64, float64, int:
		return true
	case []any:
		if !lists {
			return false
		}
		for _, item := range x {
			if !plainValue(item, false) {
				return false
			}
		}
		return true
	}
	return false
}

// matchValue reports whether a field value (present or not) satisfies want: equality for a plain
// value (a list field matches when it contains it), every test for a Cond.
func matchValue(got any, present bool, want any) bool {
	c, isCond := want.(Cond)
	if !isCond {
		return equalMatch(got, present, want)
	}
	for _, op := range c {
		if !matchOp(got, present, op) {
			return false
		}
	}
	return true
}

// equalMatch is the equality filter: a missing field equals only null; a list field also
// matches a scalar it contains.
func equalMatch(got any, present bool, want any) bool {
	if !present {
		return want == nil
	}
	if Equal(got, want) {
		return true
	}
	if list, isList := got.([]any); isList {
		if _, wantList := want.([]any); !wantList {
			return containsEqual(list, want)
		}
	}
	return false
}

func matchOp(got any, present bool, op Op) bool {
	switch op.Name {
	case OpNe:
		return !equalMatch(got, present, op.Value)
	case OpIn, OpNin:
		in := false
		for _, v := range op.Value.([]any) {
			if equalMatch(got, present, v) {
				in = true
				break
			}
		}
		return in == (op.Name == OpIn)
	case OpContains:
		list, ok := got.([]any)
		return ok && containsEqual(list, op.Value)
	case OpExists:
		return (present && got != nil) == op.Value.(bool)
	}
	// Order comparisons: only values of the bound's kind (numbers with numbers, strings with
	// strings, dates chronologically when both are dates) are in a range; a list never is.
	if !present || !sameKind(got, op.Value) {
		return false
	}
	d := Compare(got, op.Value)
	switch op.Name {
	case OpGt:
		return d > 0
	case OpGte:
		return d >= 0
	case OpLt:
		return d < 0
	}
	return d <= 0
}

// sameKind reports whether a and b are both numbers or both strings (the kinds a range bound
// may have); Compare orders other pairs by type, which no range should select.
func sameKind(a, b any) bool {
	_, an := toFloat(a)
	_, bn := toFloat(b)
	if an || bn {
		return an && bn
	}
	_, as := a.(string)
	_, bs := b.(string)
	return as && bs
}
