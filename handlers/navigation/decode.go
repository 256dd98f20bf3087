package navigation

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"cms/content"
)

// decoder turns the items of a request body into a tree, collecting a message per bad field
// under its path (items[2].children[0].url) instead of stopping at the first.
type decoder struct {
	fe    content.FieldErrors
	count int
}

// decodeItems checks the items value of a PUT body. The returned tree is only meaningful when
// the FieldErrors are empty.
func decodeItems(v any) ([]content.NavItem, content.FieldErrors) {
	d := &decoder{fe: content.FieldErrors{}}
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			d.fe.Add("items", "This field is required")
		} else {
			d.fe.Add("items", "Must be a list")
		}
		return nil, d.fe
	}
	items := d.items(list, "items", 0)
	if d.count > MaxItems {
		d.fe["items"] = []string{fmt.Sprintf("A navigation may hold at most %d items, not %d", MaxItems, d.count)}
	}
	return items, d.fe
}

func (d *decoder) items(list []any, at string, level int) []content.NavItem {
	out := make([]content.NavItem, 0, len(list))
	for i, x := range list {
		d.count++
		if d.count > MaxItems {
			return out // counted on by the caller; no need to look further
		}
		p := fmt.Sprintf("%s[%d]", at, i)
		m, ok := x.(*content.Map)
		if !ok {
			d.fe.Add(p, "Must be an object with a label")
			continue
		}
		out = append(out, d.item(m, p, level))
	}
	return out
}

func (d *decoder) item(m *content.Map, at string, level int) content.NavItem {
	var it content.NavItem
	label, ok := m.Value("label").(string)
	switch {
	case !ok && m.Value("label") != nil:
		d.fe.Add(at+".label", "Must be a string")
	case strings.TrimSpace(label) == "":
		d.fe.Add(at+".label", "This field is required")
	case utf8.RuneCountInString(label) > MaxLabelLen:
		d.fe.Add(at+".label", fmt.Sprintf("Must be at most %d characters", MaxLabelLen))
	case hasControl(label):
		d.fe.Add(at+".label", "Must not contain control characters")
	}
	it.Label = label
	for _, k := range m.Keys() {
		v := m.Value(k)
		switch k {
		case "label":
		case "url":
			if v == nil {
				continue // a url null is what a response shows for a missing entry
			}
			s, ok := v.(string)
			if !ok {
				d.fe.Add(at+".url", "Must be a string")
				continue
			}
			if msg := checkURL(s); msg != "" {
				d.fe.Add(at+".url", msg)
				continue
			}
			it.URL = s
		case "entry":
			if v == nil {
				continue
			}
			s, ok := v.(string)
			if !ok {
				d.fe.Add(at+".entry", "Must be a string")
				continue
			}
			if _, _, ok := splitRef(s); !ok {
				d.fe.Add(at+".entry", "Must be a reference of the form <collection>/<slug>")
				continue
			}
			it.Entry = s
		case "external":
			switch b := v.(type) {
			case nil:
			case bool:
				it.External = b
			default:
				d.fe.Add(at+".external", "Must be true or false")
			}
		case "children":
			switch c := v.(type) {
			case nil:
			case []any:
				if len(c) == 0 {
					continue
				}
				if level+1 > MaxNesting {
					d.fe.Add(at+".children", fmt.Sprintf("Items may be nested at most %d levels deep", MaxNesting))
					continue
				}
				it.Children = d.items(c, at+".children", level+1)
			default:
				d.fe.Add(at+".children", "Must be a list of items")
			}
		case "missing":
			// Added by responses for dangling references; never stored.
		default:
			if !content.ValidHandle(k) {
				d.fe.Add(at+"."+k, "Invalid field name: use letters, digits, '-' and '_'")
				continue
			}
			if it.Extra == nil {
				it.Extra = content.NewMap(1)
			}
			it.Extra.Set(k, v)
		}
	}
	if it.URL != "" && it.Entry != "" {
		d.fe.Add(at, msgURLAndEntry)
	}
	return it
}

// msgURLAndEntry refuses an item with both links. A client that sends back a tree it read gets
// it for entry items, whose resolved url responses add; hence the hint.
const msgURLAndEntry = "An item has a url or an entry, not both (an item with neither is a heading); " +
	"leave out the url that responses add to entry items"

// splitRef splits "<collection>/<slug>".
func splitRef(s string) (collection, slug string, ok bool) {
	c, sl, found := strings.Cut(s, "/")
	if !found || !content.ValidHandle(c) || !content.ValidHandle(sl) {
		return "", "", false
	}
	return c, sl, true
}

// checkURL returns why s is not an acceptable link, or "". Schemes are limited so that a menu
// can never carry a javascript: or data: link into the site's pages.
func checkURL(s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "Must not be empty; leave it out for a heading"
	case len(s) > MaxURLLen:
		return fmt.Sprintf("Must be at most %d characters", MaxURLLen)
	case hasControl(s) || strings.ContainsRune(s, '\\'):
		return "Must not contain control characters or backslashes"
	}
	u, err := url.Parse(s)
	if err != nil {
		return "Must be a valid URL"
	}
	switch strings.ToLower(u.Scheme) {
	case "":
		if strings.HasPrefix(s, "//") {
			return "Must be a path or an absolute http(s) URL, not a scheme-relative one"
		}
	case "http", "https":
		if u.Host == "" {
			return "Must be a valid URL"
		}
	case "mailto", "tel":
	default:
		return "Must be a relative URL or use http, https, mailto or tel"
	}
	return ""
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}
