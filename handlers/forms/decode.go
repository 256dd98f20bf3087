package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"cms/content"
	"cms/handlers/web"
)

// Media types of form submissions.
const (
	typeJSON       = "application/json"
	typeURLEncoded = "application/x-www-form-urlencoded"
	typeMultipart  = "multipart/form-data"
)

// errNotObject is the 422 for JSON that is valid but not an object.
var errNotObject = content.InvalidFields("forms.decode", "Form submission must be a JSON object", nil)

// decodeBody reads a submission body of at most limit bytes into a map of submitted values.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64) (*content.Map, error) {
	mt, params, err := mediaType(r)
	if err != nil {
		return nil, err
	}
	body, err := web.ReadBody(w, r, limit)
	if err != nil {
		return nil, err
	}
	switch mt {
	case typeURLEncoded:
		return DecodeURLEncoded(body)
	case typeMultipart:
		return DecodeMultipart(body, params["boundary"])
	}
	return DecodeJSON(body)
}

// mediaType returns the request's media type; no Content-Type is read as JSON.
func mediaType(r *http.Request) (string, map[string]string, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" || ct == typeJSON {
		return typeJSON, nil, nil // without mime.ParseMediaType's map, twice per submission
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", nil, web.BadRequest("Content-Type %q is malformed", ct)
	}
	switch {
	case mt == typeURLEncoded, mt == typeMultipart, mt == typeJSON, strings.HasSuffix(mt, "+json"):
		if mt != typeURLEncoded && mt != typeMultipart {
			mt = typeJSON
		}
		return mt, params, nil
	}
	return "", nil, &web.Error{Status: http.StatusUnsupportedMediaType, Code: "UNSUPPORTED_MEDIA_TYPE",
		Message: "A form submission must be JSON, application/x-www-form-urlencoded or multipart/form-data"}
}

// DecodeJSON decodes a JSON submission, which must be an object. Malformed JSON is a 400
// BAD_REQUEST, valid JSON that is not an object a 422 VALIDATION_ERROR.
func DecodeJSON(body []byte) (*content.Map, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, web.BadRequest("Request body is empty; expected a JSON object")
	}
	if !json.Valid(trimmed) {
		return nil, web.BadRequest("Request body is not valid JSON")
	}
	if trimmed[0] != '{' {
		return nil, errNotObject
	}
	if m, ok := decodeFlatJSON(trimmed); ok {
		return m, nil
	}
	m := content.NewMap(8)
	if err := m.UnmarshalJSON(trimmed); err != nil {
		return nil, web.BadRequest("Request body is not a valid JSON object: %v", err)
	}
	return m, nil
}

// DecodeURLEncoded decodes an application/x-www-form-urlencoded submission.
func DecodeURLEncoded(body []byte) (*content.Map, error) {
	vals := newFormValues()
	for len(body) > 0 {
		var pair []byte
		pair, body, _ = bytes.Cut(body, []byte("&"))
		if len(pair) == 0 {
			continue
		}
		k, v, _ := bytes.Cut(pair, []byte("="))
		key, err1 := url.QueryUnescape(string(k))
		val, err2 := url.QueryUnescape(string(v))
		if err := errors.Join(err1, err2); err != nil {
			return nil, web.BadRequest("Form body is not valid URL encoding: %v", err)
		}
		vals.add(key, val)
	}
	return vals.m, nil
}

// DecodeMultipart decodes a multipart/form-data submission with the given boundary. Parts that
// are files are refused, except the empty part of a file input left empty.
func DecodeMultipart(body []byte, boundary string) (*content.Map, error) {
	if boundary == "" {
		return nil, web.BadRequest("multipart/form-data needs a boundary parameter")
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	vals := newFormValues()
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return vals.m, nil
		}
		if err != nil {
			return nil, web.BadRequest("Form body is not valid multipart/form-data: %v", err)
		}
		name := p.FormName()
		// The body is already in memory and at most MaxBodyBytes, so reading a part is bounded.
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, web.BadRequest("Form body is not valid multipart/form-data: %v", err)
		}
		if p.FileName() != "" {
			if len(data) == 0 {
				continue // a file input left empty
			}
			return nil, web.BadRequest("Form submissions cannot include files (field %q)", name)
		}
		if name == "" {
			continue
		}
		vals.add(name, string(data))
	}
}

// formValues collects the string values of a form post: a key given once is a string, a key
// given again or written as key[] a list of strings.
type formValues struct {
	m *content.Map
}

func newFormValues() formValues { return formValues{m: content.NewMap(8)} }

func (f formValues) add(key, val string) {
	key = strings.ToValidUTF8(key, "\uFFFD")
	if !utf8.ValidString(val) {
		val = strings.ToValidUTF8(val, "\uFFFD")
	}
	key, list := strings.CutSuffix(key, "[]")
	switch old := f.m.Value(key).(type) {
	case []any:
		f.m.Set(key, append(old, val))
	case string:
		f.m.Set(key, []any{old, val})
	default:
		if list {
			f.m.Set(key, []any{val})
		} else {
			f.m.Set(key, val)
		}
	}
}

// decodeFlatJSON decodes what most submissions are — an object of strings without escapes,
// numbers, booleans, nulls and lists of those — as content.Map's decoder does, without
// encoding/json's token API (its cost per value is most of decoding). b must be a JSON object
// that json.Valid accepts. Anything else (nested objects, escapes, invalid UTF-8, which the
// decoder replaces) reports false and goes through content.Map's decoder;
// FuzzFlatJSONMatchesMap holds the two to the same values.
func decodeFlatJSON(b []byte) (*content.Map, bool) {
	p := flatJSON{b: b}
	p.space()
	if !p.byte('{') {
		return nil, false
	}
	m := content.NewMap(16)
	p.space()
	if p.byte('}') {
		return m, true
	}
	for {
		p.space()
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if !p.byte(':') {
			return nil, false
		}
		p.space()
		var v any
		if p.byte('[') {
			list := []any{}
			p.space()
			if !p.byte(']') {
				for {
					p.space()
					e, ok := p.scalar()
					if !ok {
						return nil, false
					}
					list = append(list, e)
					p.space()
					if p.byte(']') {
						break
					}
					if !p.byte(',') {
						return nil, false
					}
				}
			}
			v = list
		} else if v, ok = p.scalar(); !ok {
			return nil, false
		}
		m.Set(k, v)
		p.space()
		if p.byte('}') {
			p.space()
			return m, p.i == len(p.b)
		}
		if !p.byte(',') {
			return nil, false
		}
	}
}

type flatJSON struct {
	b []byte
	i int
}

func (p *flatJSON) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *flatJSON) byte(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string without escapes, in valid UTF-8.
func (p *flatJSON) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start, ascii := p.i, true
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.i++
	}
	return "", false
}

// scalar reads a string, number, boolean or null.
func (p *flatJSON) scalar() (any, bool) {
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '"':
		return p.str()
	case c == 't' && bytes.HasPrefix(p.b[p.i:], []byte("true")):
		p.i += 4
		return true, true
	case c == 'f' && bytes.HasPrefix(p.b[p.i:], []byte("false")):
		p.i += 5
		return false, true
	case c == 'n' && bytes.HasPrefix(p.b[p.i:], []byte("null")):
		p.i += 4
		return nil, true
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("+-.eE0123456789", p.b[p.i]) >= 0 {
			p.i++
		}
		v, err := content.NumberFromString(string(p.b[start:p.i]))
		return v, err == nil
	}
	return nil, false
}
