package validate

import (
	"strings"

	"cms/content"
)

// Coerce converts a submitted value (the strings of a urlencoded or multipart post, or JSON) into
// what a field of f's type stores. It returns the value unchanged and false when it cannot, and
// validation then reports the type error.
//
//   - number: a decimal string ("3", "-2.5", "1e3") becomes int64 when integral, else float64;
//     "" or white space becomes nil (an empty number input); other Go number types are normalised.
//   - toggle: "true", "on", "1", "yes" become true; "false", "off", "0", "no" and "" become
//     false (any case, trimmed); the numbers 1 and 0 likewise.
//   - multiselect, entries, taxonomy, and asset with several files: a string becomes a one-item
//     list ("" an empty list) and []string becomes []any.
//   - date: the string is trimmed.
//   - everything else, and nil, is returned unchanged.
func Coerce(f content.Field, v any) (any, bool) {
	if v == nil {
		return nil, true
	}
	switch f.Type {
	case "number":
		switch x := v.(type) {
		case string:
			s := strings.TrimSpace(x)
			if s == "" {
				return nil, true
			}
			if _, ok := parseNumber(s); !ok {
				return v, false
			}
			n, err := content.NumberFromString(s)
			if err != nil {
				return v, false
			}
			return n, true
		case int64, float64:
			if _, ok := toFloat(x); !ok {
				return v, false // NaN or an infinity
			}
			return x, true
		}
		if _, ok := toFloat(v); ok {
			return content.Normalize(v), true
		}
		return v, false
	case "toggle":
		switch x := v.(type) {
		case bool:
			return x, true
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true", "on", "1", "yes":
				return true, true
			case "false", "off", "0", "no", "":
				return false, true
			}
			return v, false
		}
		if n, ok := toFloat(v); ok && (n == 0 || n == 1) {
			return n == 1, true
		}
		return v, false
	case "multiselect", "entries", "taxonomy", "asset":
		if f.Type == "asset" && !assetOf(f).multiple {
			return v, true
		}
		switch x := v.(type) {
		case string:
			if strings.TrimSpace(x) == "" {
				return []any{}, true
			}
			return []any{x}, true
		case []string:
			out, _ := asList(x)
			return out, true
		case []any:
			return x, true
		}
		return v, false
	case "date":
		if s, ok := v.(string); ok {
			return strings.TrimSpace(s), true
		}
		return v, false
	}
	return v, true
}

// CoerceAll returns a copy of values with Coerce applied to every key that names a field; other
// keys are kept as they are (FilterVisible drops them where needed), and so are values Coerce
// cannot convert.
func CoerceAll(fields []content.Field, values *content.Map) *content.Map {
	// Positions, not copies of the (large) fields; a form's handful of fields is searched in
	// order, which beats building a map on every submission.
	var byHandle map[string]int
	if len(fields) > 16 {
		byHandle = make(map[string]int, len(fields))
		for i, f := range fields {
			if _, dup := byHandle[f.Handle]; !dup {
				byHandle[f.Handle] = i
			}
		}
	}
	out := content.NewMap(values.Len())
	for _, k := range values.Keys() {
		v := values.Value(k)
		i, ok := -1, false
		if byHandle != nil {
			i, ok = byHandle[k]
		} else {
			for j := range fields {
				if fields[j].Handle == k {
					i, ok = j, true
					break // the first definition wins
				}
			}
		}
		if ok {
			v, _ = Coerce(fields[i], v)
		}
		out.Set(k, v)
	}
	return out
}
