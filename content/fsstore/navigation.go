package fsstore

import "cms/content"

// NavTree is a navigation tree read from content/navigation/{handle}.yaml.
type NavTree struct {
	Items  []content.NavItem
	Hash   string // SHA-256 hex of the file's bytes; EmptyHash when it is missing
	Exists bool
}

func (s *Store) navigationPath(h string) string { return s.yamlFile(s.contentPath("navigation"), h) }

// Navigation reads the tree of navigation h fresh from disk on every call, so a file edited by
// hand takes effect on the next request. A missing file is an empty tree; a handle that cannot
// be a file name is a NotFound error. Items are read leniently, as Madori does: an item that is
// not a mapping reads as an empty item, and a children value that is not a list as no children.
func (s *Store) Navigation(h string) (NavTree, error) {
	const op = "fsstore.Navigation"
	if !content.ValidHandle(h) {
		return NavTree{}, content.NotFoundf(op, h, "Navigation %q not found", h)
	}
	doc, err := s.readDoc(op, s.navigationPath(h))
	if err != nil {
		return NavTree{}, err
	}
	return NavTree{Items: NavItemsFromValue(doc.Data.Value("items")), Hash: doc.Hash, Exists: doc.Exists}, nil
}

// navigationDataHandles lists the handles of the navigation data files, sorted.
func (s *Store) navigationDataHandles() ([]string, error) {
	return s.yamlHandles(s.contentPath("navigation"))
}

// SaveNavigation replaces the tree of navigation h. The caller has validated the items. A
// non-empty wantHash must match the current file, else the write is a Conflict error with
// [ConflictDetails].
func (s *Store) SaveNavigation(h string, items []content.NavItem, wantHash string) (NavTree, error) {
	const op = "fsstore.SaveNavigation"
	if err := s.writable(op); err != nil {
		return NavTree{}, err
	}
	if !content.ValidHandle(h) {
		return NavTree{}, content.NotFoundf(op, h, "Navigation %q not found", h)
	}
	p := s.navigationPath(h)
	unlock := s.lock(p)
	defer unlock()
	data := content.NewMap(1)
	data.Set("items", NavItemsValue(items))
	doc, err := s.writeDoc(op, p, data, wantHash, false)
	if err != nil {
		return NavTree{}, err
	}
	return NavTree{Items: items, Hash: doc.Hash, Exists: true}, nil
}

// NavItemsFromValue reads the items of a navigation file. It never fails: see [Store.Navigation].
func NavItemsFromValue(v any) []content.NavItem {
	list, _ := v.([]any)
	out := make([]content.NavItem, 0, len(list))
	for _, x := range list {
		m, _ := x.(*content.Map)
		out = append(out, navItemFromMap(m))
	}
	return out
}

func navItemFromMap(m *content.Map) content.NavItem {
	var it content.NavItem
	for _, k := range m.Keys() {
		v := m.Value(k)
		switch k {
		case "label":
			it.Label = scalarString(v)
		case "url":
			it.URL = scalarString(v)
		case "entry":
			it.Entry = scalarString(v)
		case "external":
			it.External = v == true || v == "true"
		case "children":
			if list, ok := v.([]any); ok && len(list) > 0 {
				it.Children = NavItemsFromValue(list)
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

// NavItemsValue turns items into the list a navigation file holds: label, url, entry, external
// (only when true), the extra keys in their order, then children (omitted when empty).
func NavItemsValue(items []content.NavItem) []any {
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
			m.Set("children", NavItemsValue(it.Children))
		}
		out[i] = m
	}
	return out
}

// NavDepth is the depth of a tree as navigation definitions count it: 0 for a flat list (or no
// items), one more for each level of children.
func NavDepth(items []content.NavItem) int {
	d := 0
	for _, it := range items {
		if len(it.Children) > 0 {
			d = max(d, 1+NavDepth(it.Children))
		}
	}
	return d
}
