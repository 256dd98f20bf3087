package index

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"reflect"
	"slices"
	"testing"

	"cms/content"
)

func sampleColls() []snapColl {
	nested := content.NewMap(2)
	nested.Set("title", "SEO ü")
	nested.Set("list", []any{int64(-1), 2.5, nil, true, "x", []any{}, content.NewMap(0)})
	data := content.NewMap(6)
	data.Set("rating", int64(math.MaxInt64))
	data.Set("neg", int64(math.MinInt64))
	data.Set("score", math.Inf(-1))
	data.Set("ok", false)
	data.Set("empty", "")
	data.Set("seo", nested)
	e1 := &content.Entry{Collection: "blog", Slug: "first", Title: "First", Status: "published", Author: "alice",
		CreatedAt: "2026-01-01T10:00:00.000Z", UpdatedAt: "2026-01-02T10:00:00.000Z", Version: "abcd", Data: data}
	e2 := &content.Entry{Collection: "blog", Slug: "second", Title: "", Status: "draft", Data: content.NewMap(0)}
	return []snapColl{
		{handle: "blog", dirMtime: 1234567890123456789, order: "[{createdAt true} {slug false}]",
			items:  []*indexed{newIndexed(e1, 42, 100), newIndexed(e2, -1, 0)},
			orders: []snapOrder{{key: "title,slug,", pos: []uint32{1, 0}}, {key: "-rating,slug,", pos: []uint32{0, 1}}}},
		{handle: "empty", dirMtime: 0, items: []*indexed{}},
	}
}

func TestSnapshotCodecRoundTrip(t *testing.T) {
	t.Parallel()
	in := sampleColls()
	raw, err := encodeSnapshot(77, in)
	if err != nil {
		t.Fatal(err)
	}
	gen, out, err := decodeSnapshot(raw)
	if err != nil {
		t.Fatal(err)
	}
	if gen != 77 {
		t.Errorf("generation = %d, want 77", gen)
	}
	if a, b := describe(in), describe(out); a != b {
		t.Errorf("round trip:\n%s\nwant:\n%s", b, a)
	}
}

// Entry data nested as deep as the front matter reader allows survives the snapshot.
func TestSnapshotCodecKeepsDataAtTheNestingLimit(t *testing.T) {
	t.Parallel()
	deep := any("leaf")
	for range content.MaxNesting - 1 { // the data map itself is the first level
		deep = []any{deep}
	}
	data := mapOf("deep", deep)
	if n := content.Nesting(data); n != content.MaxNesting {
		t.Fatalf("nesting = %d, want %d", n, content.MaxNesting)
	}
	in := []snapColl{{handle: "c", items: []*indexed{{e: &content.Entry{Collection: "c", Slug: "s", Data: data}}}}}
	raw, err := encodeSnapshot(1, in)
	if err != nil {
		t.Fatal(err)
	}
	_, out, err := decodeSnapshot(raw)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := describe(in), describe(out); a != b {
		t.Errorf("round trip:\n%s\nwant:\n%s", b, a)
	}
}

func TestSnapshotCodecRejects(t *testing.T) {
	t.Parallel()
	if _, err := encodeSnapshot(1, []snapColl{{handle: "c", items: []*indexed{{e: &content.Entry{Slug: "s", Data: mapOf("bad", int(3))}}}}}); err == nil {
		t.Error("encoding an int (not int64) succeeded")
	}
	deep := any("leaf")
	for range maxValueDepth + 2 {
		deep = []any{deep}
	}
	if _, err := encodeSnapshot(1, []snapColl{{handle: "c", items: []*indexed{{e: &content.Entry{Slug: "s", Data: mapOf("deep", deep)}}}}}); err == nil {
		t.Error("encoding values nested too deeply succeeded")
	}
	good, _ := encodeSnapshot(1, sampleColls())
	for name, payload := range map[string][]byte{
		"trailing bytes":              append(append([]byte{}, good[snapHeaderSize:]...), 0),
		"huge count":                  binary.AppendUvarint(nil, 1<<40),
		"overflow varint":             {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
		"invalid slug":                payloadWithData("../x", []byte{0}),
		"no data":                     payloadWithData("s", nil),
		"data too long":               payloadWithData("s", nil)[:len(payloadWithData("s", nil))-1],
		"truncated string":            {1, 10, 'a'},
		"order position out of range": payloadWithOrders(snapOrder{key: "title,", pos: []uint32{0, 2}}),
		"order not a permutation":     payloadWithOrders(snapOrder{key: "title,", pos: []uint32{1, 1}}),
		"order without a key":         payloadWithOrders(snapOrder{pos: []uint32{0, 1}}),
		"order truncated":             payloadWithOrders(snapOrder{key: "title,", pos: []uint32{0}}),
		"too many orders":             payloadWithOrders(slices.Repeat([]snapOrder{{key: "title,", pos: []uint32{0, 1}}}, maxOrders+1)...),
	} {
		if _, _, err := decodeSnapshot(withHeader(3, payload)); !errors.Is(err, errCorrupt) {
			t.Errorf("%s: err = %v, want errCorrupt", name, err)
		}
	}
	if _, colls, err := decodeSnapshot(withHeader(3, payloadWithOrders(snapOrder{key: "title,", pos: []uint32{1, 0}}))); err != nil ||
		len(colls) != 1 || len(colls[0].orders) != 1 || !slices.Equal(colls[0].orders[0].pos, []uint32{1, 0}) {
		t.Errorf("a valid order: %v, %+v", err, colls)
	}
	// Data is decoded lazily, on its own.
	for name, data := range map[string][]byte{
		"unknown tag":    {1, 1, 'k', 99},
		"trailing bytes": {0, 0},
		"truncated":      {2, 1, 'k', tagTrue},
		"too deep":       deepList(maxValueDepth + 2),
	} {
		if _, err := decodeData(string(data), nil); !errors.Is(err, errCorrupt) {
			t.Errorf("data %s: err = %v, want errCorrupt", name, err)
		}
	}
	// A snapshot with bad data still loads; the entry shows no custom fields.
	_, colls, err := decodeSnapshot(withHeader(3, payloadWithData("s", []byte{1, 1, 'k', 99})))
	if err != nil {
		t.Fatal(err)
	}
	it := colls[0].items[0]
	it.decode()
	if it.e.Data == nil || it.e.Data.Len() != 0 {
		t.Errorf("entry with bad data: Data = %v, want empty", it.e.Data)
	}
}

// deepList is a data map {"k": [[[...]]]} nested n lists deep.
func deepList(n int) []byte {
	b := []byte{1, 1, 'k'}
	for range n {
		b = append(b, tagList, 1)
	}
	return append(b, tagNil)
}

func mapOf(k string, v any) *content.Map {
	m := content.NewMap(1)
	m.Set(k, v)
	return m
}

// payloadWithData is one collection "c" with one entry of the given slug and encoded data.
func payloadWithData(slug string, data []byte) []byte {
	e := snapEncoder{}
	e.uvarint(1)
	e.str("c")
	e.varint(0)
	e.str("")
	e.uvarint(1)
	for _, s := range []string{slug, "", "", "", "", "", ""} {
		e.str(s)
	}
	e.varint(0)
	e.uvarint(0)
	e.str(string(data))
	e.uvarint(0) // no orders
	return e.buf
}

// payloadWithOrders is one collection "c" of two entries, "a" and "b", with the given orders
// (each a key and positions).
func payloadWithOrders(orders ...snapOrder) []byte {
	e := snapEncoder{}
	e.uvarint(1)
	e.str("c")
	e.varint(0)
	e.str("")
	e.uvarint(2)
	for _, slug := range []string{"a", "b"} {
		for _, s := range []string{slug, "", "", "", "", "", ""} {
			e.str(s)
		}
		e.varint(0)
		e.uvarint(0)
		e.str("\x00")
	}
	e.uvarint(uint64(len(orders)))
	for _, o := range orders {
		e.str(o.key)
		for _, p := range o.pos {
			e.uvarint(uint64(p))
		}
	}
	return e.buf
}

// A snapshot of another format version (an upgrade's) is not called corrupt: the store rebuilds
// it without a warning.
func TestSnapshotOtherFormat(t *testing.T) {
	t.Parallel()
	old := withHeader(3, binary.AppendUvarint(nil, 0))
	binary.LittleEndian.PutUint32(old[8:], snapVersion-1)
	if _, _, err := decodeSnapshot(old); !errors.Is(err, errOtherFormat) || errors.Is(err, errCorrupt) {
		t.Errorf("older format: err = %v, want errOtherFormat", err)
	}
	search := append([]byte(searchMagic), make([]byte, snapHeaderSize-len(searchMagic))...)
	binary.LittleEndian.PutUint32(search[8:], searchVersion+1)
	if _, err := decodeSearchSnapshot(search); !errors.Is(err, errOtherFormat) || errors.Is(err, errCorrupt) {
		t.Errorf("search snapshot of a newer format: err = %v, want errOtherFormat", err)
	}
}

func withHeader(gen uint64, payload []byte) []byte {
	b := make([]byte, snapHeaderSize, snapHeaderSize+len(payload))
	copy(b, snapMagic)
	binary.LittleEndian.PutUint32(b[8:], snapVersion)
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(b[16:], gen)
	binary.LittleEndian.PutUint64(b[24:], uint64(len(payload)))
	return append(b, payload...)
}

func describe(colls []snapColl) string {
	var out string
	for _, c := range colls {
		out += fmt.Sprintf("%s %d %q %d %v\n", c.handle, c.dirMtime, c.order, len(c.items), c.orders)
		for _, it := range c.items {
			it.decode()
			e := *it.e
			data, _ := json.Marshal(e.Data)
			e.Data = nil
			out += fmt.Sprintf("  %+v %d %d %s %s\n", e, it.mtime.Load(), it.size, data, types(it.e.Data))
		}
	}
	return out
}

// types spells out the Go types of a map's values, which JSON would blur (int64 vs float64).
func types(m *content.Map) string {
	var out string
	for _, k := range m.Keys() {
		out += fmt.Sprintf("%s:%s ", k, reflect.TypeOf(m.Value(k)))
	}
	return out
}

// FuzzDecodeSnapshot feeds arbitrary payloads (with a valid header, so the checksum does not
// stop them) to the decoder: it must return an error or collections that encode back to the
// same bytes, never panic or allocate without bound.
func FuzzDecodeSnapshot(f *testing.F) {
	good, _ := encodeSnapshot(1, sampleColls())
	f.Add(good[snapHeaderSize:])
	f.Add(payloadWithData("s", []byte{0}))
	f.Add(payloadWithData("s", []byte{1, 1, 'k', tagFloat, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, payload []byte) {
		raw := withHeader(5, payload)
		gen, colls, err := decodeSnapshot(raw)
		if err != nil {
			return
		}
		again, err := encodeSnapshot(gen, colls)
		if err != nil {
			t.Fatalf("decoded snapshot does not encode: %v", err)
		}
		_, colls2, err := decodeSnapshot(again)
		if err != nil {
			t.Fatalf("re-encoded snapshot does not decode: %v", err)
		}
		if describe(colls) != describe(colls2) {
			t.Fatalf("round trip changed the snapshot")
		}
	})
}

// BenchmarkSnapshotDecode measures the decode of a 10,000-entry collection (cold start cost on
// top of one file read).
func BenchmarkSnapshotDecode(b *testing.B) {
	raw := benchSnapshot(b)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := decodeSnapshot(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func benchSnapshot(b *testing.B) []byte {
	items := make([]*indexed, 10000)
	for i := range items {
		d := content.NewMap(5)
		d.Set("category", "news")
		d.Set("featured", i%3 == 0)
		d.Set("rating", int64(i%100))
		d.Set("tags", []any{"go", "yaml", "testing"})
		d.Set("author_name", "Author Name")
		items[i] = newIndexed(&content.Entry{Collection: "posts", Slug: fmt.Sprintf("post-%05d", i), Title: fmt.Sprintf("Post number %d", i),
			Status: "published", CreatedAt: "2026-01-01T10:00:00.000Z", UpdatedAt: "2026-01-01T10:00:00.000Z",
			Version: "0123456789abcdef", Data: d}, int64(i), 2300)
	}
	raw, err := encodeSnapshot(1, []snapColl{{handle: "posts", items: items}})
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

// BenchmarkSnapshotDecodeAllData adds decoding every entry's custom fields (the first filtered
// query pays this).
func BenchmarkSnapshotDecodeAllData(b *testing.B) {
	raw := benchSnapshot(b)
	b.ReportAllocs()
	for b.Loop() {
		_, colls, err := decodeSnapshot(raw)
		if err != nil {
			b.Fatal(err)
		}
		for _, it := range colls[0].items {
			it.decode()
		}
	}
}

func newIndexed(e *content.Entry, mtime, size int64) *indexed {
	it := &indexed{e: e, size: size}
	it.mtime.Store(mtime)
	return it
}

// checkDataField compares dataField(raw, key) with what decodeData(raw) holds under key (no
// custom fields when it fails), by their encodings: the same types and values, NaN included.
func checkDataField(t *testing.T, raw, key string) {
	t.Helper()
	var want any
	wantOK := false
	if m, err := decodeData(raw, nil); err == nil {
		want, wantOK = m.Get(key)
	}
	got, ok := dataField(raw, key)
	var a, b snapEncoder
	ea, eb := a.value(got, 1), b.value(want, 1)
	if ok != wantOK || (ea == nil) != (eb == nil) || string(a.buf) != string(b.buf) {
		t.Fatalf("dataField(%q, %q) = %#v, %v; decodeData holds %#v, %v", raw, key, got, ok, want, wantOK)
	}
}

// dataField reads one custom field as decoding the whole data would: every key of the sample
// entries and a key they lack, duplicate keys, and corrupt data (no custom fields at all).
func TestDataField(t *testing.T) {
	t.Parallel()
	var raws []string
	for _, c := range sampleColls() {
		for _, it := range c.items {
			e := snapEncoder{}
			if err := e.mapValue(it.e.Data, 0); err != nil {
				t.Fatal(err)
			}
			raws = append(raws, string(e.buf))
		}
	}
	raws = append(raws,
		"\x02\x01k\x02\x01k\x01",     // {"k": true, "k": false}: the last wins
		"\x01\x01k\x63",              // unknown tag
		"\x02\x01a\x02\x01k\x05\x05", // a string cut short after a good value
		"\x01\x01k\x02\x00",          // trailing bytes
		string(deepList(maxValueDepth+2)),
	)
	for _, raw := range raws {
		for _, key := range []string{"rating", "neg", "score", "ok", "empty", "seo", "k", "a", "missing"} {
			checkDataField(t, raw, key)
		}
	}
}

func FuzzDataField(f *testing.F) {
	for _, c := range sampleColls() {
		for _, it := range c.items {
			e := snapEncoder{}
			_ = e.mapValue(it.e.Data, 0)
			f.Add(string(e.buf), "seo")
		}
	}
	f.Add("\x02\x01k\x02\x01k\x01", "k")
	f.Fuzz(func(t *testing.T, raw, key string) {
		checkDataField(t, raw, key)
	})
}
