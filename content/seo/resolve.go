package seo

import (
	"net/url"
	"strconv"
	"strings"

	"cms/content"
	"cms/content/assetpath"
)

// fields reads a subject's values for field and template sources.
type fields struct{ s Subject }

func (f fields) source(src *Source) string {
	if src == nil {
		return ""
	}
	switch src.Kind {
	case KindLiteral:
		return src.Value
	case KindField:
		return f.field(src.Value)
	case KindTemplate:
		return f.expand(src.Value)
	}
	return "" // disabled
}

// field returns a record field as text: the record's own title, slug, section and dates, else a
// front-matter value that is a string, number or boolean. Anything else is "".
func (f fields) field(name string) string {
	switch name {
	case "title":
		return f.s.Title
	case "slug":
		return f.s.Slug
	case "collection", "taxonomy", "section":
		return f.s.Section
	case "createdAt":
		return f.s.CreatedAt
	case "updatedAt":
		return f.s.UpdatedAt
	case "site":
		return f.s.Site.Handle
	}
	switch v := f.s.Data.Value(name).(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// expand replaces each {field} token of a template with the field's text; a brace that does not
// open a token is kept as written.
func (f fields) expand(t string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 {
			b.WriteString(t)
			return b.String()
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			b.WriteString(t)
			return b.String()
		}
		name := t[i+1 : i+j]
		b.WriteString(t[:i])
		if isFieldHandle(name) {
			b.WriteString(f.field(name))
		} else {
			b.WriteString(t[i : i+j+1])
		}
		t = t[i+j+1:]
	}
}

// sitePath makes a path written by an author ("/a b?x=1") an absolute, escaped URL on the site.
func sitePath(site content.Site, v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return ""
	}
	u.Fragment, u.RawFragment = "", ""
	return site.Absolute(u.String())
}

// origin returns scheme://host of an absolute URL, lower-cased and without a default port.
func origin(u *url.URL) string {
	host := strings.ToLower(u.Host)
	scheme := strings.ToLower(u.Scheme)
	if (scheme == "http" && strings.HasSuffix(host, ":80")) || (scheme == "https" && strings.HasSuffix(host, ":443")) {
		host = host[:strings.LastIndexByte(host, ':')]
	}
	return scheme + "://" + host
}

// httpURL parses an absolute http(s) URL without credentials.
func httpURL(s string) (*url.URL, bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, false
	}
	return u, true
}

// canonicalURL makes an explicit canonical absolute: a path is on the record's site; an
// absolute http(s) URL is kept when it is on the site's origin or external canonicals are
// allowed. Anything else (another scheme, a foreign origin) is "" and the default applies.
func canonicalURL(site content.Site, v string, allowExternal bool) string {
	if v == "" {
		return ""
	}
	if strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") {
		return sitePath(site, v)
	}
	u, ok := httpURL(v)
	if !ok {
		return ""
	}
	if !allowExternal {
		su, ok := httpURL(site.URL)
		if !ok || origin(su) != origin(u) {
			return ""
		}
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// tracking reports whether a query parameter only tracks a visit (and must not be canonical).
func tracking(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "gclid", "dclid", "fbclid", "msclkid":
		return true
	}
	return strings.HasPrefix(n, "utm_")
}

// stripTracking removes tracking parameters from a URL's query, keeping the others in order.
func stripTracking(s string) string {
	i := strings.IndexByte(s, '?')
	if i < 0 {
		return s
	}
	base, query := s[:i], s[i+1:]
	frag := ""
	if j := strings.IndexByte(query, '#'); j >= 0 {
		query, frag = query[:j], query[j:]
	}
	var kept []string
	for p := range strings.SplitSeq(query, "&") {
		if p == "" {
			continue
		}
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil && tracking(n) {
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) > 0 {
		base += "?" + strings.Join(kept, "&")
	}
	return base + frag
}

// imageURL makes a social image absolute: an http(s) URL as written, a path under /assets/ or a
// relative path is an asset on the origin's /assets/, any other path is on the site. Other schemes and
// unsafe asset paths are dropped.
func imageURL(site content.Site, v string) string {
	switch {
	case v == "":
		return ""
	case strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://"):
		if u, ok := httpURL(v); ok {
			return u.String()
		}
		return ""
	case strings.HasPrefix(v, "//"):
		return ""
	case strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "/assets/"):
		return sitePath(site, v)
	}
	// An asset: "photos/cat.jpg", or "/assets/photos/cat.jpg" as asset fields store it. Assets
	// are served from the origin's root, also for a site on a sub-path.
	p, err := assetpath.Clean(strings.TrimPrefix(strings.TrimPrefix(v, "/"), "assets/"))
	if err != nil || p == "" || strings.Contains(v, ":") {
		return ""
	}
	su, ok := httpURL(site.URL)
	if !ok {
		return ""
	}
	return origin(su) + (&url.URL{Path: "/assets/" + p}).EscapedPath()
}
