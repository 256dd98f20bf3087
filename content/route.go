package content

import (
	"net/url"
	"strings"
	"time"
)

// DefaultRoute is the URL pattern of a collection that sets none.
const DefaultRoute = "/{slug}"

// EntryURL resolves a collection's route for an entry. Placeholders: {slug}, {collection}, and
// {year}, {month}, {day} from createdAt (month and day two digits). A date placeholder of an
// entry without a parseable createdAt resolves to an empty URL rather than a wrong one.
func EntryURL(c *Collection, e *Entry) string {
	route := c.Route
	if route == "" {
		route = DefaultRoute
	}
	if !strings.Contains(route, "{") {
		return route
	}
	var t time.Time
	needDate := strings.Contains(route, "{year}") || strings.Contains(route, "{month}") || strings.Contains(route, "{day}")
	if needDate {
		var ok bool
		if t, ok = ParseTime(e.CreatedAt); !ok {
			return ""
		}
	}
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
		switch route[i+1 : i+j] {
		case "slug":
			b.WriteString(url.PathEscape(e.Slug))
		case "collection":
			b.WriteString(url.PathEscape(e.Collection))
		case "year":
			b.WriteString(t.Format("2006"))
		case "month":
			b.WriteString(t.Format("01"))
		case "day":
			b.WriteString(t.Format("02"))
		default:
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
