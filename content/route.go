package content

import (
	"net/url"
	"strings"
	"time"
)

// DefaultRoute is the URL pattern of a collection that sets none.
const DefaultRoute = "/{slug}"

// DefaultTermRoute is the URL pattern of a taxonomy that sets none.
const DefaultTermRoute = "/{taxonomy}/{slug}"

// TermURL resolves a taxonomy's route for a term. Placeholders: {slug} and {taxonomy}.
func TermURL(t *Taxonomy, term *Term) string {
	route := t.Route
	if route == "" {
		route = DefaultTermRoute
	}
	return expand(route, func(name string) (string, bool) {
		switch name {
		case "slug":
			return url.PathEscape(term.Slug), true
		case "taxonomy":
			return url.PathEscape(t.Handle), true
		}
		return "", false
	})
}

// EntryURL resolves a collection's route for an entry. Placeholders: {slug}, {collection}, and
// {year}, {month}, {day}: the date of createdAt as written (2026-04-30T23:30:00-05:00 is
// 2026/04/30, not the next day in UTC). A date placeholder of an entry without a parseable
// createdAt resolves to an empty URL rather than a wrong one.
func EntryURL(c *Collection, e *Entry) string {
	route := c.Route
	if route == "" {
		route = DefaultRoute
	}
	if !strings.Contains(route, "{") {
		return route
	}
	var year, month, day string
	if strings.Contains(route, "{year}") || strings.Contains(route, "{month}") || strings.Contains(route, "{day}") {
		var ok bool
		if year, month, day, ok = writtenDate(e.CreatedAt); !ok {
			return ""
		}
	}
	return expand(route, func(name string) (string, bool) {
		switch name {
		case "slug":
			return url.PathEscape(e.Slug), true
		case "collection":
			return url.PathEscape(e.Collection), true
		case "year":
			return year, true
		case "month":
			return month, true
		case "day":
			return day, true
		}
		return "", false
	})
}

// writtenDate returns the YYYY, MM and DD a date-time starts with, when it is a valid time.
func writtenDate(s string) (year, month, day string, ok bool) {
	if _, valid := ParseTime(s); !valid || len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return "", "", "", false
	}
	return s[:4], s[5:7], s[8:10], true
}

// expand replaces each {name} of route with value(name); unknown placeholders stay as written.
func expand(route string, value func(string) (string, bool)) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(route, '{')
		if i < 0 {
			b.WriteString(route)
			break
		}
		j := strings.IndexByte(route[i:], '}')
		if j < 0 {
			b.WriteString(route)
			break
		}
		b.WriteString(route[:i])
		if v, ok := value(route[i+1 : i+j]); ok {
			b.WriteString(v)
		} else {
			b.WriteString(route[i : i+j+1])
		}
		route = route[i+j+1:]
	}
	return b.String()
}

// ParseTime parses the ISO 8601 forms entries use for dates.
func ParseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
