package fsstore

import (
	"strings"

	"cms/content"
	"cms/content/navtree"
)

func (s *Store) navigationPath(h string) string { return s.yamlFile(s.contentPath("navigation"), h) }

// Navigation reads the tree of navigation h fresh from disk on every call, so a file edited by
// hand takes effect on the next request. A missing file is an empty tree; a handle that cannot
// be a file name is a NotFound error. Items are read leniently, as Madori does: an item that is
// not a mapping reads as an empty item, and a children value that is not a list as no children.
func (s *Store) Navigation(h string) (content.NavTree, error) {
	const op = "fsstore.Navigation"
	if !content.ValidHandle(h) {
		return content.NavTree{}, content.NotFoundf(op, h, "Navigation %q not found", h)
	}
	p := s.navigationPath(h)
	doc, err := s.readDoc(op, p)
	if err != nil {
		return content.NavTree{}, err
	}
	items := navtree.FromValue(doc.Data.Value("items"))
	s.noteURLAndEntry(p, doc.Hash, items)
	return content.NavTree{Items: items, Hash: doc.Hash, Exists: doc.Exists}, nil
}

// NavigationFile is the site-relative file of navigation h's tree (for `cms check`).
func (s *Store) NavigationFile(h string) string { return s.navigationPath(h) }

// noteURLAndEntry logs the items of a navigation file that have both a url and an entry, once
// per version of the file (files are read on every request).
func (s *Store) noteURLAndEntry(file, hash string, items []content.NavItem) {
	paths := navtree.URLAndEntry(items)
	if len(paths) == 0 {
		s.navBoth.Delete(file)
		return
	}
	if old, seen := s.navBoth.Swap(file, hash); seen && old == hash {
		return
	}
	s.log.Warn("navigation items have both url and entry; serving the entry's URL (keep one: cms check lists them)",
		"file", file, "items", strings.Join(paths, " "))
}

// navigationDataHandles lists the handles of the navigation data files, sorted.
func (s *Store) navigationDataHandles() ([]string, error) {
	return s.yamlHandles(s.contentPath("navigation"))
}

// SaveNavigation replaces the tree of navigation h. The caller has validated the items. A
// non-empty wantHash must match the current file, else the write is a Conflict error with
// [ConflictDetails].
func (s *Store) SaveNavigation(h string, items []content.NavItem, wantHash string) (content.NavTree, error) {
	const op = "fsstore.SaveNavigation"
	if err := s.writable(op); err != nil {
		return content.NavTree{}, err
	}
	if !content.ValidHandle(h) {
		return content.NavTree{}, content.NotFoundf(op, h, "Navigation %q not found", h)
	}
	p := s.navigationPath(h)
	unlock := s.lock(p)
	defer unlock()
	data := content.NewMap(1)
	data.Set("items", navtree.Value(items))
	doc, err := s.writeDoc(op, p, data, wantHash, false)
	if err != nil {
		return content.NavTree{}, err
	}
	s.changed("Updated navigation "+h, p)
	return content.NavTree{Items: items, Hash: doc.Hash, Exists: true}, nil
}
