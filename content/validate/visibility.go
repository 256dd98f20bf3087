package validate

import (
	"slices"
	"strings"

	"cms/content"
)

// Visible reports whether f is shown given the submitted values. A field without a visibility rule,
// or with an unknown operator (a blueprint mistake CheckBlueprint reports), is visible, so its
// rules still apply.
//
// The referenced value is compared with the rule's value after coercion: when the referenced
// value is a boolean, the rule's value counts as true only if it is true or "true"; when it is a
// number, a non-blank string rule value is read as a number. Beyond Madori, a referenced string
// equals a number or boolean rule value written the same way (so an uncoerced form post still
// matches value: 2), and lists are supported by contains (an item equal to the value) and by
// empty (no items).
//
//   - equals / not_equals: the values are (not) equal; lists and objects never equal anything.
//   - contains: the referenced string includes the value written as text, or the referenced list
//     has an item written that way.
//   - empty / not_empty: the referenced value is (not) absent, nil, "" or an empty list.
func Visible(f content.Field, values *content.Map) bool {
	vis := f.Visibility
	if vis == nil || vis.Field == "" {
		return true
	}
	ref, _ := values.Get(vis.Field)
	switch vis.Operator {
	case "equals":
		return visEqual(ref, vis.Value)
	case "not_equals":
		return !visEqual(ref, vis.Value)
	case "contains":
		return visContains(ref, vis.Value)
	case "empty":
		return visEmpty(ref)
	case "not_empty":
		return !visEmpty(ref)
	}
	return true
}

// FilterVisible returns the values of the fields that are visible and present, in blueprint order.
// Unknown keys and hidden fields are dropped, as a stored form submission needs. The values are
// shared with the input, not copied.
func FilterVisible(fields []content.Field, values *content.Map) *content.Map {
	out := content.NewMap(len(fields))
	for _, f := range fields {
		if f.Handle == "" {
			continue
		}
		v, ok := values.Get(f.Handle)
		if ok && Visible(f, values) {
			out.Set(f.Handle, v)
		}
	}
	return out
}

func visEqual(ref, want any) bool {
	switch r := ref.(type) {
	case nil:
		return want == nil
	case bool:
		return r == (want == true || want == "true")
	case string:
		w, ok := scalarString(want)
		return ok && r == w
	}
	x, ok := toFloat(ref)
	if !ok {
		return false // lists and objects: JavaScript compares them by identity
	}
	if s, isString := want.(string); isString {
		if strings.TrimSpace(s) == "" {
			return false
		}
		y, ok := parseNumber(s)
		return ok && x == y
	}
	y, ok := toFloat(want)
	return ok && x == y
}

func visContains(ref, want any) bool {
	w, ok := scalarString(want)
	if !ok {
		return false
	}
	if s, isString := ref.(string); isString {
		return strings.Contains(s, w)
	}
	items, ok := asList(ref)
	return ok && slices.ContainsFunc(items, func(it any) bool {
		s, ok := scalarString(it)
		return ok && s == w
	})
}

func visEmpty(ref any) bool {
	switch r := ref.(type) {
	case nil:
		return true
	case string:
		return r == ""
	}
	items, ok := asList(ref)
	return ok && len(items) == 0
}
