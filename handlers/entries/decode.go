package entries

import (
	"fmt"
	"strings"

	"cms/content"
	"cms/content/query"
	"cms/handlers/web"
)

// Input is a decoded entry write (the body of POST and PUT). A nil pointer means the key was
// absent or null, which on update keeps the current value.
type Input struct {
	Title   *string
	Slug    *string
	Status  *string
	Author  *string
	Content *string
	// Data holds the custom fields in the order sent; nil when absent. A nil value asks an
	// update to remove the field.
	Data *content.Map
	// ContentHash is the hash the client read the entry with (lower-case hex), or "".
	ContentHash string
}

// readOnlyKey reports whether k is a key of the entry JSON that the server computes. A client
// that sends back an entry it read may include such keys; they are ignored rather than refused.
func readOnlyKey(k string) bool {
	switch k {
	case "collection", "createdAt", "updatedAt", "url", "html":
		return true
	}
	return false
}

// DecodeEntry decodes an entry write body. A body that is not a JSON object is a *web.Error
// 400; one nested deeper than content.MaxNesting an Invalid *content.Error with code
// NESTING_TOO_DEEP. Values of the wrong shape (a title that is not a string, an unknown status,
// a reserved key inside data, an unknown top-level key, a malformed slug or contentHash) are
// reported together as an Invalid *content.Error with Fields; the Input is then still returned
// with every value that was valid, so callers can add their own messages.
func DecodeEntry(body []byte) (*Input, error) {
	const op = "entries.DecodeEntry"
	if err := content.CheckJSONNesting(op, body); err != nil {
		return nil, err
	}
	var m content.Map
	if err := m.UnmarshalJSON(body); err != nil {
		return nil, web.BadRequest("Request body is not a valid JSON object: %v", err)
	}
	in := &Input{}
	fe := content.FieldErrors{}
	str := func(k string, v any) *string {
		switch x := v.(type) {
		case nil:
			return nil
		case string:
			return &x
		}
		fe.Add(k, "Must be a string")
		return nil
	}
	for _, k := range m.Keys() {
		v := m.Value(k)
		switch k {
		case "title":
			in.Title = str(k, v)
			if in.Title != nil && strings.TrimSpace(*in.Title) == "" {
				fe.Add(k, "Title is required")
				in.Title = nil
			}
		case "slug":
			in.Slug = str(k, v)
			if in.Slug != nil && !content.ValidHandle(*in.Slug) {
				fe.Add(k, fmt.Sprintf("Invalid entry slug %q: use letters, digits, '-' and '_', starting with a letter or digit", content.Shorten(*in.Slug)))
				in.Slug = nil
			}
		case "status":
			in.Status = str(k, v)
			if in.Status != nil && *in.Status != content.StatusPublished && *in.Status != content.StatusDraft {
				fe.Add(k, "Status must be published or draft")
				in.Status = nil
			}
		case "author":
			in.Author = str(k, v)
		case "content":
			in.Content = str(k, v)
		case "contentHash":
			if h := str(k, v); h != nil {
				if !validHash(*h) {
					fe.Add(k, "contentHash must be the 64-character hex SHA-256 the entry was read with")
				} else {
					in.ContentHash = strings.ToLower(*h)
				}
			}
		case "data":
			switch x := v.(type) {
			case nil:
			case *content.Map:
				in.Data = decodeData(x, fe)
			default:
				fe.Add(k, "Must be an object of custom field values")
			}
		default:
			if !readOnlyKey(k) {
				fe.Add(fieldName(k), "Unknown field: custom fields belong inside data")
			}
		}
	}
	if len(fe) > 0 {
		return in, content.InvalidFields(op, "Entry data is invalid", fe)
	}
	return in, nil
}

// decodeData keeps the custom fields that may be written and reports the others.
func decodeData(m *content.Map, fe content.FieldErrors) *content.Map {
	out := content.NewMap(m.Len())
	for _, k := range m.Keys() {
		switch {
		case content.IsReservedEntryKey(k):
			fe.Add(k, k+" is managed by the content engine")
		case !query.ValidField(k):
			// The same rule as sort and filter fields, so every stored field can be queried, and
			// no key can mean something special to YAML (such as the merge key "<<").
			fe.Add("data", fmt.Sprintf("Invalid field name %q: use letters, digits, '_', '-' and '.', starting with a letter or '_'", content.Shorten(k)))
		default:
			out.Set(k, m.Value(k))
		}
	}
	return out
}

func validHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// fieldName bounds a client-chosen key before it is used as a field name in an error.
func fieldName(k string) string {
	if k == "" {
		return `""`
	}
	return content.Shorten(k)
}
