// Package gqlname holds the GraphQL naming rules for collections and blueprint fields (notes
// 12.2 and 12.3), shared by the GraphQL endpoint and the code generator so the helpers it
// writes call the queries the server has.
package gqlname

import (
	"strings"
	"unicode"
)

// words splits a handle on runs of '-', '_' and white space, dropping empty parts.
func words(h string) []string {
	return strings.FieldsFunc(h, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) })
}

func upperFirst(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// startsName reports whether s may begin a GraphQL name as it is.
func startsName(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// TypeName is the GraphQL type name of a handle: PascalCase words ("case-studies" ->
// "CaseStudies"), prefixed with '_' when it would not start with a letter.
func TypeName(h string) string {
	var b strings.Builder
	for _, w := range words(h) {
		b.WriteString(upperFirst(w))
	}
	s := b.String()
	if !startsName(s) {
		s = "_" + s
	}
	return s
}

// FieldName is the GraphQL field (query) name of a handle: camelCase with the first word as it is
// ("case-studies" -> "caseStudies"), prefixed with '_' when it would not start with a letter.
func FieldName(h string) string {
	ws := words(h)
	if len(ws) == 0 {
		return "_field"
	}
	var b strings.Builder
	b.WriteString(ws[0])
	for _, w := range ws[1:] {
		b.WriteString(upperFirst(w))
	}
	s := b.String()
	if !startsName(s) {
		s = "_" + s
	}
	return s
}

// QueryNames returns the single-entry and list query names of a collection handle:
// the singular is the camelCase handle; the plural is built on the raw handle (kept when it ends
// in "s", "y" after a consonant becomes "ies", otherwise "s" is added) and becomes
// "<singular>List" when it equals the singular, as for "news" or "case-studies".
func QueryNames(h string) (singular, plural string) {
	singular = FieldName(h)
	base := h
	switch {
	case strings.HasSuffix(h, "s"):
	case strings.HasSuffix(h, "y") && !strings.HasSuffix(h, "ey"):
		base = h[:len(h)-1] + "ies"
	default:
		base = h + "s"
	}
	plural = FieldName(base)
	if plural == singular {
		plural = singular + "List"
	}
	return singular, plural
}

// SanitizeField turns a blueprint field handle into a GraphQL field name: the three
// introspection names get a "field_" prefix, every character outside [A-Za-z0-9_] becomes '_',
// runs of '_' collapse, a trailing '_' is dropped, a leading digit gets a '_' prefix, and an empty
// result is "_field". The result never starts with "__", which GraphQL reserves.
func SanitizeField(h string) string {
	switch h {
	case "__typename":
		return "field_typename"
	case "__type":
		return "field_type"
	case "__schema":
		return "field_schema"
	}
	var b strings.Builder
	b.Grow(len(h))
	prevUnderscore := false
	for i := 0; i < len(h); i++ {
		c := h[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !ok {
			if !prevUnderscore {
				b.WriteByte('_')
			}
			prevUnderscore = true
			continue
		}
		b.WriteByte(c)
		prevUnderscore = false
	}
	s := strings.TrimRight(b.String(), "_")
	switch {
	case s == "":
		return "_field"
	case s[0] >= '0' && s[0] <= '9':
		s = "_" + s
	}
	return s
}
