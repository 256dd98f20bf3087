package index

import (
	"cms/content/internal/bindec"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"unsafe"

	"cms/content"
	"cms/content/frontmatter"
)

// The index snapshot file is a 32-byte header followed by a payload:
//
//	header:  magic "CMSINDEX" | version u32 | CRC-32C of payload u32 | generation u64 | payload length u64
//	payload: uvarint #collections, then per collection:
//	         handle | varint folder mtime (ns) | default-order signature | uvarint #entries | entries |
//	         uvarint #orders | orders
//	entry:   slug | title | status | author | createdAt | updatedAt | hash | varint mtime | uvarint size |
//	         uvarint length of the data | map
//	map:     uvarint #keys, then key | value per key
//	value:   tag byte: 0 nil, 1 false, 2 true, 3 int64 (zigzag varint), 4 float64 (8 bytes LE),
//	         5 string, 6 list (uvarint n, values), 7 map
//	order:   key (orderKey) | one uvarint position in the entries per entry, in the order's order
//	string:  uvarint length | bytes
//
// Entries are stored in the collection's default order, so a reader can reuse the order instead
// of sorting; the other orders queries had sorted the collection by follow as permutations of
// it (snapOrder), so the first query of each after a start sorts nothing either. The custom fields (the data map) are length-prefixed so a reader can leave them
// encoded until an entry is handed out or filtered on (see indexed.raw): building one Go map per
// entry is most of the cost of loading a large collection. The format is private to this
// package; a version bump makes old files rebuild.
const (
	snapMagic      = "CMSINDEX"
	snapVersion    = 4 // 3: entries carry their Version, not a SHA-256; 4: orders
	snapHeaderSize = 32
	// maxValueDepth bounds nesting, so a corrupt file cannot exhaust the stack. Values count
	// from depth 1 inside the data map, so this keeps every entry the front matter reader accepts.
	maxValueDepth = content.MaxNesting
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

const (
	tagNil byte = iota
	tagFalse
	tagTrue
	tagInt
	tagFloat
	tagString
	tagList
	tagMap
)

// snapColl is one collection as stored in a snapshot.
type snapColl struct {
	handle   string
	dirMtime int64
	order    string     // default-order signature the entries are sorted by
	items    []*indexed // in default order
	orders   []snapOrder
}

// snapOrder is a sorted order of a collection other than its default one: the positions of its
// entries in snapColl.items, in the order's order.
type snapOrder struct {
	key string // orderKey of its sort keys
	pos []uint32
}

// encodeSnapshot serialises collections with the given generation.
func encodeSnapshot(gen uint64, colls []snapColl) ([]byte, error) {
	e := snapEncoder{buf: make([]byte, snapHeaderSize, 1<<16)}
	e.uvarint(uint64(len(colls)))
	for _, c := range colls {
		e.str(c.handle)
		e.varint(c.dirMtime)
		e.str(c.order)
		e.uvarint(uint64(len(c.items)))
		for _, it := range c.items {
			en := it.e
			for _, s := range [...]string{en.Slug, en.Title, en.Status, en.Author, en.CreatedAt, en.UpdatedAt, en.Version} {
				e.str(s)
			}
			mtime := it.mtime.Load()
			if it.racy.Load() {
				mtime = 0 // never a file's time: the next stamp check re-reads it
			}
			e.varint(mtime)
			e.uvarint(uint64(it.size))
			if it.raw != "" {
				// Never decoded: the bytes are still the exact encoding of the entry's data.
				e.str(it.raw)
				continue
			}
			data := snapEncoder{}
			if err := data.mapValue(en.Data, 0); err != nil {
				return nil, fmt.Errorf("entry %s/%s: %w", c.handle, en.Slug, err)
			}
			e.str(string(data.buf))
		}
		e.uvarint(uint64(len(c.orders)))
		for _, o := range c.orders {
			if len(o.pos) != len(c.items) {
				return nil, fmt.Errorf("collection %s: order %q has %d of %d entries", c.handle, o.key, len(o.pos), len(c.items))
			}
			e.str(o.key)
			for _, p := range o.pos {
				e.uvarint(uint64(p))
			}
		}
	}
	b := e.buf
	payload := b[snapHeaderSize:]
	copy(b, snapMagic)
	binary.LittleEndian.PutUint32(b[8:], snapVersion)
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(b[16:], gen)
	binary.LittleEndian.PutUint64(b[24:], uint64(len(payload)))
	return b, nil
}

type snapEncoder struct{ buf []byte }

func (e *snapEncoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *snapEncoder) varint(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }
func (e *snapEncoder) str(s string) {
	e.uvarint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *snapEncoder) mapValue(m *content.Map, depth int) error {
	keys := m.Keys()
	e.uvarint(uint64(len(keys)))
	for _, k := range keys {
		e.str(k)
		if err := e.value(m.Value(k), depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (e *snapEncoder) value(v any, depth int) error {
	if depth > maxValueDepth {
		return errors.New("values nested too deeply")
	}
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, tagNil)
	case bool:
		if x {
			e.buf = append(e.buf, tagTrue)
		} else {
			e.buf = append(e.buf, tagFalse)
		}
	case int64:
		e.buf = append(e.buf, tagInt)
		e.varint(x)
	case float64:
		e.buf = append(e.buf, tagFloat)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(x))
	case string:
		e.buf = append(e.buf, tagString)
		e.str(x)
	case []any:
		e.buf = append(e.buf, tagList)
		e.uvarint(uint64(len(x)))
		for _, el := range x {
			if err := e.value(el, depth+1); err != nil {
				return err
			}
		}
	case *content.Map:
		e.buf = append(e.buf, tagMap)
		return e.mapValue(x, depth)
	default:
		return fmt.Errorf("unsupported value type %T", v)
	}
	return nil
}

// errCorrupt is returned for any snapshot that does not decode; the caller rebuilds from files.
var errCorrupt = errors.New("index snapshot is corrupt")

// errOtherFormat is returned for a snapshot another version of cms wrote: expected after an
// upgrade, so the caller rebuilds from files without a warning.
var errOtherFormat = errors.New("snapshot is in another version's format")

// snapHeader reads and checks the header of raw, returning the generation and the payload.
func snapHeader(raw []byte) (gen uint64, payload []byte, err error) {
	if len(raw) < snapHeaderSize || string(raw[:8]) != snapMagic {
		return 0, nil, fmt.Errorf("%w: bad magic", errCorrupt)
	}
	if v := binary.LittleEndian.Uint32(raw[8:]); v != snapVersion {
		return 0, nil, fmt.Errorf("%w: format %d, this version reads %d", errOtherFormat, v, snapVersion)
	}
	n := binary.LittleEndian.Uint64(raw[24:])
	if n != uint64(len(raw)-snapHeaderSize) {
		return 0, nil, fmt.Errorf("%w: payload is %d bytes, header says %d", errCorrupt, len(raw)-snapHeaderSize, n)
	}
	payload = raw[snapHeaderSize:]
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(raw[12:]) {
		return 0, nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	return binary.LittleEndian.Uint64(raw[16:]), payload, nil
}

// decodeSnapshot decodes a whole snapshot file. Strings share raw's memory, so the index costs a
// few allocations per entry rather than one per string; raw must not be modified afterwards.
// Each entry's data stays encoded in indexed.raw (decodeData decodes it).
func decodeSnapshot(raw []byte) (uint64, []snapColl, error) {
	gen, payload, err := snapHeader(raw)
	if err != nil {
		return 0, nil, err
	}
	// The strings of the index alias raw instead of copying it (a copy showed in cold-start
	// profiles): raw comes from one file read and is never written again.
	d := snapDecoder{Decoder: bindec.Decoder{S: unsafe.String(unsafe.SliceData(payload), len(payload)), Corrupt: errCorrupt}}
	colls, err := d.collections()
	if err != nil {
		return 0, nil, err
	}
	return gen, colls, nil
}

type snapDecoder struct {
	bindec.Decoder
	shared *frontmatter.Interner // for decodeData
}

func (d *snapDecoder) collections() ([]snapColl, error) {
	n := d.Count(4)
	colls := make([]snapColl, 0, n)
	for range n {
		c := snapColl{handle: d.Str(), dirMtime: d.Varint(), order: d.Str()}
		m := d.Count(9)
		if d.Err != nil {
			return nil, d.Err
		}
		// One allocation each for the collection's entries and index records.
		ents := make([]content.Entry, m)
		items := make([]indexed, m)
		c.items = make([]*indexed, m)
		for i := range m {
			e := &ents[i]
			e.Collection = c.handle
			e.Slug, e.Title, e.Status, e.Author = d.Str(), d.Str(), intern(d.Str()), d.Str()
			e.CreatedAt, e.UpdatedAt, e.Version = d.Str(), d.Str(), d.Str()
			items[i].mtime.Store(d.Varint())
			items[i].size = int64(d.Uvarint())
			items[i].raw = d.Str()
			if items[i].raw == "" {
				d.Fail("missing entry data")
			}
			if d.Err != nil {
				return nil, d.Err
			}
			if !content.ValidHandle(e.Slug) {
				d.Fail("invalid slug")
				return nil, d.Err
			}
			items[i].e = e
			c.items[i] = &items[i]
		}
		if !content.ValidHandle(c.handle) {
			d.Fail("invalid collection handle")
		}
		c.orders = d.orders(m)
		colls = append(colls, c)
	}
	if d.Err == nil && d.Off != len(d.S) {
		d.Fail("trailing bytes")
	}
	return colls, d.Err
}

// orders reads the orders of a collection of m entries: each must be a permutation of them.
func (d *snapDecoder) orders(m int) []snapOrder {
	n := d.Count(1 + m) // a key's length and a byte per position at least
	if n > maxOrders {
		d.Fail("too many orders")
	}
	if d.Err != nil || n == 0 {
		return nil
	}
	out := make([]snapOrder, n)
	seen := make([]uint64, (m+63)/64)
	for i := range out {
		o := &out[i]
		if o.key = d.Str(); o.key == "" && d.Err == nil {
			d.Fail("order without a key")
		}
		clear(seen)
		o.pos = make([]uint32, m)
		for j := range o.pos {
			p := d.Uvarint()
			if d.Err != nil {
				return nil
			}
			if p >= uint64(m) || seen[p/64]&(1<<(p%64)) != 0 {
				d.Fail("order is not a permutation of the entries")
				return nil
			}
			seen[p/64] |= 1 << (p % 64)
			o.pos[j] = uint32(p)
		}
	}
	return out
}

// dataField returns what decodeData(raw) holds under key, decoding only that value (the others
// are skipped); absent too when raw is corrupt, as decodeShared then gives the entry no custom
// fields.
func dataField(raw, key string) (any, bool) {
	d := snapDecoder{Decoder: bindec.Decoder{S: raw, Corrupt: errCorrupt}}
	at := -1
	for range d.Count(2) {
		if d.Str() == key && d.Err == nil {
			at = d.Off // the last of duplicate keys wins, as in mapValue
		}
		d.skipValue(1)
	}
	if d.Err != nil || d.Off != len(d.S) || at < 0 {
		return nil, false
	}
	d.Off = at
	v := d.value(1)
	return v, d.Err == nil
}

// skipValue reads past one value as value(depth) would read it, failing where it would.
func (d *snapDecoder) skipValue(depth int) {
	if depth > maxValueDepth {
		d.Fail("values nested too deeply")
		return
	}
	switch tag := d.Byte(); {
	case d.Err != nil:
	case tag == tagNil || tag == tagFalse || tag == tagTrue:
	case tag == tagInt:
		d.Varint()
	case tag == tagFloat:
		if len(d.S)-d.Off < 8 {
			d.Fail("truncated float")
			return
		}
		d.Off += 8
	case tag == tagString:
		d.Str()
	case tag == tagList:
		for range d.Count(1) {
			d.skipValue(depth + 1)
		}
	case tag == tagMap:
		for range d.Count(2) {
			d.Str()
			d.skipValue(depth + 1)
		}
	default:
		d.Fail(fmt.Sprintf("unknown value tag %d", tag))
	}
}

// decodeData decodes the data map of one entry, stored by encodeSnapshot, sharing repeated
// strings through shared (may be nil).
func decodeData(raw string, shared *frontmatter.Interner) (*content.Map, error) {
	d := snapDecoder{bindec.Decoder{S: raw, Corrupt: errCorrupt}, shared}
	m := d.mapValue(0)
	if d.Err == nil && d.Off != len(d.S) {
		d.Fail("trailing bytes after the data")
	}
	return m, d.Err
}

func (d *snapDecoder) mapValue(depth int) *content.Map {
	n := d.Count(2)
	m := content.NewMap(n)
	for range n {
		k := d.Str()
		v := d.value(depth + 1)
		if d.Err != nil {
			return m
		}
		m.Set(k, v) // a duplicate key (never written) keeps its first position
	}
	return m
}

func (d *snapDecoder) value(depth int) any {
	if depth > maxValueDepth {
		d.Fail("values nested too deeply")
		return nil
	}
	if d.Err != nil {
		return nil
	}
	if d.Off >= len(d.S) {
		d.Fail("truncated value")
		return nil
	}
	tag := d.S[d.Off]
	d.Off++
	switch tag {
	case tagNil:
		return nil
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagInt:
		return d.Varint()
	case tagFloat:
		if len(d.S)-d.Off < 8 {
			d.Fail("truncated float")
			return nil
		}
		var bits uint64
		for i := 7; i >= 0; i-- {
			bits = bits<<8 | uint64(d.S[d.Off+i])
		}
		d.Off += 8
		return math.Float64frombits(bits)
	case tagString:
		return d.shared.String(d.Str())
	case tagList:
		n := d.Count(1)
		l := make([]any, n)
		for i := range l {
			l[i] = d.value(depth + 1)
		}
		return l
	case tagMap:
		return d.mapValue(depth)
	}
	d.Fail(fmt.Sprintf("unknown value tag %d", tag))
	return nil
}

// intern returns the constant for a status, so list scans compare a pointer instead of loading
// each entry's status from the snapshot buffer.
func intern(status string) string {
	switch status {
	case content.StatusPublished:
		return content.StatusPublished
	case content.StatusDraft:
		return content.StatusDraft
	}
	return status
}
