// Package navtree maps navigation trees to and from the YAML a navigation file holds, and
// measures them. It is pure: the store reads and writes the files.
package navtree

import (
	"fmt"

	"cms/content"
)

// URLAndEntry lists the paths (items[0], items[2].children[1]) of the items that have both a
// url and an entry. An item links to one or the other, and the API refuses both; a file edited
// by hand may still have them, and is served as it is with the entry winning: every reader
// resolves such an item to its entry's URL and ignores the url.
func URLAndEntry(items []content.NavItem) []string {
	var out []string
	var walk func(items []content.NavItem, at string)
	walk = func(items []content.NavItem, at string) {
		for i, it := range items {
			p := fmt.Sprintf("%s[%d]", at, i)
			if it.URL != "" && it.Entry != "" {
				out = append(out, p)
			}
			walk(it.Children, p+".children")
		}
	}
	walk(items, "items")
	return out
}

// FromValue reads the items of a navigation file. It never fails: items are read leniently, as
// Madori does: an item that is not a mapping reads as an empty item, and a children value that
// is not a list as no children.
func FromValue(v any) []content.NavItem {
	list, _ := v.([]any)
	out := make([]content.NavItem, 0, len(list))
	for _, x := range list {
		m, _ := x.(*content.Map)
		out = append(out, itemFromMap(m))
	}
	return out
}

func itemFromMap(m *content.Map) content.NavItem {
	var it content.NavItem
	for _, k := range m.Keys() {
		v := m.Value(k)
		switch k {
		case "label":
			it.Label = content.ScalarString(v)
		case "url":
			it.URL = content.ScalarString(v)
		case "entry":
			it.Entry = content.ScalarString(v)
		case "external":
			it.External = v == true || v == "true"
		case "children":
			if list, ok := v.([]any); ok && len(list) > 0 {
				it.Children = FromValue(list)
			}
		default:
			if it.Extra == nil {
				it.Extra = content.NewMap(1)
			}
			it.Extra.Set(k, v)
		}
	}
	return it
}

// Value turns items into the list a navigation file holds: label, url, entry, external (only
// when true), the extra keys in their order, then children (omitted when empty).
func Value(items []content.NavItem) []any {
	out := make([]any, len(items))
	for i, it := range items {
		m := content.NewMap(4 + it.Extra.Len())
		m.Set("label", it.Label)
		if it.URL != "" {
			m.Set("url", it.URL)
		}
		if it.Entry != "" {
			m.Set("entry", it.Entry)
		}
		if it.External {
			m.Set("external", true)
		}
		for _, k := range it.Extra.Keys() {
			if _, core := m.Get(k); !core && k != "children" && k != "external" {
				m.Set(k, it.Extra.Value(k))
			}
		}
		if len(it.Children) > 0 {
			m.Set("children", Value(it.Children))
		}
		out[i] = m
	}
	return out
}

// Depth is the depth of a tree as navigation definitions count it: 0 for a flat list (or no
// items), one more for each level of children.
func Depth(items []content.NavItem) int {
	d := 0
	for _, it := range items {
		if len(it.Children) > 0 {
			d = max(d, 1+Depth(it.Children))
		}
	}
	return d
}
