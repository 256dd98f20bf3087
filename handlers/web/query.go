package web

import (
	"net/http"
	"net/url"

	"cms/content/query"
)

// ListQuery reads the parameters of an entry list: limit, offset, sort and filter, by the rules
// of [query.Parse]. Anything malformed, or given twice, is a 400 that says what was wrong. Other
// parameters are the caller's.
func ListQuery(r *http.Request) (query.Query, error) {
	v := r.URL.Query()
	var p [4]string
	for i, name := range [...]string{"limit", "offset", "sort", "filter"} {
		s, err := QueryParam(v, name)
		if err != nil {
			return query.Query{}, err
		}
		p[i] = s
	}
	q, err := query.Parse(p[0], p[1], p[2], p[3])
	if err != nil {
		return q, BadRequest("%v", err)
	}
	return q, nil
}

// QueryParam returns the value of a query parameter that may be given once ("" when absent). A
// second value is a 400: which of the two counts would be a guess.
func QueryParam(v url.Values, name string) (string, error) {
	if len(v[name]) > 1 {
		return "", BadRequest("%s may be given only once", name)
	}
	return v.Get(name), nil
}
