package web

import (
	"bytes"
	"encoding/json"

	"cms/content"
)

// ProjectEntry encodes the fields of e a list's fields= projection names, in the shape of the
// full entry: attributes at the top level in the order asked, custom fields under data. attr
// gives the group's own attributes (url, html, contentHash, ...); ok=false makes a name a custom
// field. A missing author or custom field is left out.
func ProjectEntry(e *content.Entry, fields []string, attr func(name string) (v any, ok bool)) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	put := func(k string, v any) error {
		vb, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
		return nil
	}
	var data []string
	for _, f := range fields {
		var v any
		switch f {
		case "title":
			v = e.Title
		case "slug":
			v = e.Slug
		case "status":
			v = e.Status
		case "author":
			if e.Author == "" {
				continue
			}
			v = e.Author
		case "collection":
			v = e.Collection
		case "createdAt":
			v = e.CreatedAt
		case "updatedAt":
			v = e.UpdatedAt
		default:
			var ok bool
			if v, ok = attr(f); !ok {
				data = append(data, f)
				continue
			}
		}
		if err := put(f, v); err != nil {
			return nil, err
		}
	}
	if data != nil {
		m := content.NewMap(len(data))
		for _, f := range data {
			if v, ok := e.Data.Get(f); ok {
				m.Set(f, v)
			}
		}
		if err := put("data", m); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
