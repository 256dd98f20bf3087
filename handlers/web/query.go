package web

import (
	"net/http"
	"net/url"
	"slices"

	"cms/content"
	"cms/content/query"
)

// ListQuery reads the parameters of an entry list: limit, offset, sort and filter, by the rules
// of [query.Parse], and the projection fields ([query.ParseFields]). Anything malformed, or given
// twice, is a 400 that says what was wrong. Other parameters are the caller's, and so is checking
// the field names against the collection ([CheckListFields]).
func ListQuery(r *http.Request) (query.Query, error) {
	v := r.URL.Query()
	var p [5]string
	for i, name := range [...]string{"limit", "offset", "sort", "filter", "fields"} {
		s, err := QueryParam(v, name)
		if err != nil {
			return query.Query{}, err
		}
		p[i] = s
	}
	q, err := query.Parse(p[0], p[1], p[2], p[3])
	if err == nil {
		q.Fields, err = query.ParseFields(p[4])
	}
	if err != nil {
		return q, BadRequest("%v", err)
	}
	return q, nil
}

// CheckListFields refuses (400) a filter, sort or projection field that entries of c cannot
// hold (query.KnownFields); wire are the names of the response's own attributes, which only a
// projection may name.
func CheckListFields(q *query.Query, c *content.Collection, bp *content.Blueprint, wire ...string) error {
	known := query.KnownFields(c, bp)
	if err := q.CheckFields(c.Handle, known); err != nil {
		return BadRequest("%v", err)
	}
	for _, f := range q.Fields {
		if !known(f) && !slices.Contains(wire, f) {
			return BadRequest("fields: %q is not a field of collection %q", content.Shorten(f), c.Handle)
		}
	}
	return nil
}

// QueryParam returns the value of a query parameter that may be given once ("" when absent). A
// second value is a 400: which of the two counts would be a guess.
func QueryParam(v url.Values, name string) (string, error) {
	if len(v[name]) > 1 {
		return "", BadRequest("%s may be given only once", name)
	}
	return v.Get(name), nil
}
