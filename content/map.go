package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Map is a string-keyed map that remembers the order its keys were first set, so that a file read
// and written back keeps its key order (small git diffs) and JSON output follows the file.
//
// Values are nil, bool, int64, float64, string, []any or *Map. The zero Map is empty and ready to
// use; a nil *Map reads as empty.
type Map struct {
	keys []string
	vals []any          // vals[i] is the value of keys[i]
	idx  map[string]int // key -> position, built only for maps larger than indexThreshold
}

// indexThreshold: up to this many keys a linear scan beats a hash map and saves its memory
// (front matter has a handful of custom fields, and 100,000 entries are held in memory).
const indexThreshold = 12

// NewMap returns an empty map with room for n keys.
func NewMap(n int) *Map { return &Map{keys: make([]string, 0, n), vals: make([]any, 0, n)} }

// Len returns the number of keys.
func (m *Map) Len() int {
	if m == nil {
		return 0
	}
	return len(m.keys)
}

// Keys returns the keys in order. The slice must not be modified.
func (m *Map) Keys() []string {
	if m == nil {
		return nil
	}
	return m.keys
}

func (m *Map) find(key string) int {
	if m.idx != nil {
		if i, ok := m.idx[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range m.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Get returns the value of key and whether it is present.
func (m *Map) Get(key string) (any, bool) {
	if m == nil {
		return nil, false
	}
	if i := m.find(key); i >= 0 {
		return m.vals[i], true
	}
	return nil, false
}

// Value returns the value of key, or nil.
func (m *Map) Value(key string) any {
	v, _ := m.Get(key)
	return v
}

// String returns the value of key when it is a string.
func (m *Map) String(key string) (string, bool) {
	s, ok := m.Value(key).(string)
	return s, ok
}

// Set sets key to v, appending key if it is new.
func (m *Map) Set(key string, v any) {
	if i := m.find(key); i >= 0 {
		m.vals[i] = v
		return
	}
	m.keys = append(m.keys, key)
	m.vals = append(m.vals, v)
	switch {
	case m.idx != nil:
		m.idx[key] = len(m.keys) - 1
	case len(m.keys) > indexThreshold:
		m.reindex()
	}
}

func (m *Map) reindex() {
	if len(m.keys) <= indexThreshold {
		m.idx = nil
		return
	}
	m.idx = make(map[string]int, len(m.keys))
	for i, k := range m.keys {
		m.idx[k] = i
	}
}

// Delete removes key.
func (m *Map) Delete(key string) {
	if m == nil {
		return
	}
	i := m.find(key)
	if i < 0 {
		return
	}
	m.keys = append(m.keys[:i:i], m.keys[i+1:]...)
	m.vals = append(m.vals[:i:i], m.vals[i+1:]...)
	if m.idx != nil {
		m.reindex()
	}
}

// Compact trims spare capacity; the store calls it on values it keeps for a long time.
func (m *Map) Compact() {
	if m == nil || cap(m.keys) == len(m.keys) {
		return
	}
	m.keys = append([]string(nil), m.keys...)
	m.vals = append([]any(nil), m.vals...)
}

// Clone returns a deep copy.
func (m *Map) Clone() *Map {
	if m == nil {
		return NewMap(0)
	}
	c := NewMap(len(m.keys))
	for _, k := range m.keys {
		c.Set(k, CloneValue(m.Value(k)))
	}
	return c
}

// CloneValue deep-copies a Map value.
func CloneValue(v any) any {
	switch x := v.(type) {
	case *Map:
		return x.Clone()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = CloneValue(e)
		}
		return out
	}
	return v
}

// Plain converts the map to map[string]any recursively (for libraries that want plain maps).
func (m *Map) Plain() map[string]any {
	out := make(map[string]any, m.Len())
	for _, k := range m.Keys() {
		out[k] = PlainValue(m.Value(k))
	}
	return out
}

// PlainValue converts *Map values inside v to map[string]any.
func PlainValue(v any) any {
	switch x := v.(type) {
	case *Map:
		return x.Plain()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = PlainValue(e)
		}
		return out
	}
	return v
}

// MarshalJSON writes the keys in order.
func (m *Map) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := m.appendJSON(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (m *Map) appendJSON(buf *bytes.Buffer) error {
	buf.WriteByte('{')
	for i, k := range m.Keys() {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		if err := appendJSONValue(buf, m.vals[i]); err != nil {
			return err
		}
	}
	buf.WriteByte('}')
	return nil
}

func appendJSONValue(buf *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case *Map:
		return x.appendJSON(buf)
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := appendJSONValue(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			buf.WriteString("null")
			return nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode map value: %w", err)
	}
	buf.Write(b)
	return nil
}

// UnmarshalJSON reads an object keeping key order. Numbers become int64 when integral, else float64.
func (m *Map) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeJSONValue(dec)
	if err != nil {
		return err
	}
	mm, ok := v.(*Map)
	if !ok {
		return fmt.Errorf("expected a JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("unexpected data after JSON object")
	}
	*m = *mm
	return nil
}

// DecodeJSONValue reads one JSON value from dec (which must use UseNumber), turning objects into
// *Map so key order is kept.
func DecodeJSONValue(dec *json.Decoder) (any, error) { return decodeJSONValue(dec) }

func decodeJSONValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := NewMap(4)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string")
				}
				v, err := decodeJSONValue(dec)
				if err != nil {
					return nil, err
				}
				m.Set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return m, nil
		case '[':
			out := []any{}
			for dec.More() {
				v, err := decodeJSONValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return out, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %v", t)
	case json.Number:
		return NumberFromString(string(t))
	default:
		return t, nil // string, bool, nil
	}
}

// NumberFromString parses a JSON number into int64 when it is integral and fits, else float64.
func NumberFromString(s string) (any, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("invalid number %q", s)
	}
	return f, nil
}

// Normalize converts values decoded by other libraries (map[string]any, int, float32, []string...)
// into the Map value set. Map keys of plain maps are sorted for a stable order.
func Normalize(v any) any {
	switch x := v.(type) {
	case nil, bool, string, int64, float64, *Map:
		return x
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case float32:
		return float64(x)
	case json.Number:
		n, err := NumberFromString(string(x))
		if err != nil {
			return string(x)
		}
		return n
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Normalize(e)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sortStrings(keys)
		m := NewMap(len(keys))
		for _, k := range keys {
			m.Set(k, Normalize(x[k]))
		}
		return m
	}
	return v
}
