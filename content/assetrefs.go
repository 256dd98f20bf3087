package content

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// AssetUse is one document that refers to an asset ("where used"): an entry (Collection and
// Slug), a global (Handle) or a term (Taxonomy and Slug), with the fields that hold the
// reference as dotted paths ("hero", "blocks.1.image").
type AssetUse struct {
	Kind       string   `json:"kind"` // "entry", "global" or "term"
	Collection string   `json:"collection,omitempty"`
	Taxonomy   string   `json:"taxonomy,omitempty"`
	Handle     string   `json:"handle,omitempty"`
	Slug       string   `json:"slug,omitempty"`
	Title      string   `json:"title,omitempty"`
	Status     string   `json:"status,omitempty"`
	Fields     []string `json:"fields"`
}

// AssetRef matches the ways a document refers to one asset: the path inside the asset folder
// as an asset field stores it ("photos/a.png", "assets::photos/a.png"), and its address under
// the folder's URL prefix ("/assets/photos/a.png", percent-encoded or not), alone or inside
// longer text such as Markdown, HTML or an absolute URL.
type AssetRef struct {
	path  string
	exact []string
	urls  []string
}

// NewAssetRef returns the matcher of the asset at path p (relative to the asset folder) served
// under urlPrefix ("/assets").
func NewAssetRef(p, urlPrefix string) *AssetRef {
	prefix := strings.TrimSuffix(urlPrefix, "/") + "/"
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	escaped := strings.Join(segs, "/")
	r := &AssetRef{path: p, exact: []string{p, "assets::" + p}, urls: []string{prefix + p}}
	if escaped != p {
		r.urls = append(r.urls, prefix+escaped)
	}
	return r
}

// Fields returns the dotted paths of the fields of data that refer to the asset, at most max
// of them (0 = all), in data's order.
func (r *AssetRef) Fields(data *Map, max int) []string {
	var out []string
	r.walk(data, "", &out, max)
	return out
}

// Text reports whether a string refers to the asset.
func (r *AssetRef) Text(s string) bool {
	for _, e := range r.exact {
		if s == e {
			return true
		}
	}
	for _, u := range r.urls {
		for i := 0; ; {
			j := strings.Index(s[i:], u)
			if j < 0 {
				break
			}
			end := i + j + len(u)
			if !continues(s, end) {
				return true
			}
			i = i + j + 1
		}
	}
	return false
}

// continues reports whether s goes on with more of a path at i, so "/assets/a.png" is not found
// in "/assets/a.png.bak" or "/assets/a.png/x"; a full stop that ends a sentence is not part of
// the path.
func continues(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	if s[i] == '.' {
		return i+1 < len(s) && alnum(s[i+1])
	}
	return alnum(s[i]) || strings.IndexByte("-_~/%+@", s[i]) >= 0
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (r *AssetRef) walk(v any, at string, out *[]string, max int) {
	if max > 0 && len(*out) >= max {
		return
	}
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch x := v.(type) {
	case string:
		if r.Text(x) {
			*out = append(*out, at)
		}
	case *Map:
		if x == nil {
			return
		}
		for _, k := range x.Keys() {
			r.walk(x.Value(k), join(k), out, max)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			r.walk(x[k], join(k), out, max)
		}
	case []any:
		for i, e := range x {
			r.walk(e, join(strconv.Itoa(i)), out, max)
		}
	case []string:
		for i, e := range x {
			r.walk(e, join(strconv.Itoa(i)), out, max)
		}
	}
}
