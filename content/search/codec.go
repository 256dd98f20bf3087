package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"
)

// The encoded index, as fsstore keeps it in its search snapshot (which carries the version and
// checksum):
//
//	uvarint #terms | uvarint #postings in all | uvarint #docs
//	per document (ids renumbered 0..n-1 in id order): key | tag | uvarint title tokens |
//	        uvarint body tokens | byte public (0 or 1) | uvarint #terms | term ids, ascending,
//	        as uvarint deltas (the first from 0)
//	per term (ids renumbered likewise): text | uvarint #postings | per posting: uvarint id delta
//	        (the first from 0) | uvarint title count << 8 | body count
//	string: uvarint length | bytes
//
// Terms without postings are left out. Both sections are read front to back into three arenas
// (the documents' term lists, the postings' ids and counts): deriving the term lists from the
// postings instead wrote all over memory and took seconds at 100,000 documents.

// Encode appends the index's encoding to dst.
func (ix *Index) Encode(dst []byte) []byte {
	renum := make([]uint32, len(ix.docs))
	n := uint32(0)
	for id := range ix.docs {
		if ix.docs[id].key != "" {
			renum[id] = n
			n++
		}
	}
	tnum := make([]uint32, len(ix.terms))
	live, postings := uint32(0), 0
	for i := range ix.terms {
		if len(ix.terms[i].ids) > 0 {
			tnum[i] = live
			live++
			postings += len(ix.terms[i].ids)
		}
	}
	dst = binary.AppendUvarint(dst, uint64(live))
	dst = binary.AppendUvarint(dst, uint64(postings))
	dst = binary.AppendUvarint(dst, uint64(ix.n))
	var ts []uint32
	for id := range ix.docs {
		d := &ix.docs[id]
		if d.key == "" {
			continue
		}
		dst = appendStr(dst, d.key)
		dst = appendStr(dst, d.tag)
		dst = binary.AppendUvarint(dst, uint64(d.lenT))
		dst = binary.AppendUvarint(dst, uint64(d.lenB))
		if d.public {
			dst = append(dst, 1)
		} else {
			dst = append(dst, 0)
		}
		ts = ts[:0]
		for _, tid := range d.terms {
			ts = append(ts, tnum[tid])
		}
		slices.Sort(ts)
		dst = binary.AppendUvarint(dst, uint64(len(ts)))
		prev := uint32(0)
		for _, t := range ts {
			dst = binary.AppendUvarint(dst, uint64(t-prev))
			prev = t
		}
	}
	for i := range ix.terms {
		t := &ix.terms[i]
		if len(t.ids) == 0 {
			continue
		}
		dst = appendStr(dst, t.text)
		dst = binary.AppendUvarint(dst, uint64(len(t.ids)))
		prev := uint32(0)
		for j, id := range t.ids {
			nid := renum[id]
			dst = binary.AppendUvarint(dst, uint64(nid-prev))
			dst = binary.AppendUvarint(dst, uint64(t.tf[j]))
			prev = nid
		}
	}
	return dst
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

var errCorrupt = errors.New("search index is corrupt")

// Decode reads an index Encode wrote. Its strings share raw's memory. Anything inconsistent (a
// count larger than the data, ids out of order or range, a duplicate key or term) is an error,
// never a partly read index.
func Decode(raw string) (*Index, error) {
	d := decoder{s: raw}
	ix := New()
	nt := d.count(3)
	total := d.count(2)
	nd := d.count(6)
	if d.err != nil {
		return nil, d.err
	}
	// One arena each; every slice is capped at its length, so an append after decoding copies
	// rather than runs into its neighbour.
	termArena := make([]uint32, total)
	idArena := make([]uint32, total)
	tfArena := make([]uint16, total)
	ix.docs = make([]doc, nd)
	used := 0
	for i := range nd {
		key, tag := d.str(), d.str()
		lenT, lenB := d.uvarint(), d.uvarint()
		pub := d.byte()
		k := d.count(1)
		if d.err != nil {
			return nil, d.err
		}
		if key == "" || lenT > 1<<31 || lenB > 1<<31 || pub > 1 || used+k > total {
			return nil, d.fail("bad document")
		}
		if _, dup := ix.ids[key]; dup {
			return nil, d.fail("duplicate document")
		}
		terms := termArena[used : used+k : used+k]
		used += k
		prev := uint64(0)
		for j := range terms {
			delta := d.uvarint()
			t := prev + delta
			if d.err != nil {
				return nil, d.err
			}
			if (j > 0 && delta == 0) || t >= uint64(nt) {
				return nil, d.fail("bad term id")
			}
			terms[j] = uint32(t)
			prev = t
		}
		ix.ids[key] = uint32(i)
		ix.docs[i] = doc{key: key, tag: tag, lenT: uint32(lenT), lenB: uint32(lenB), public: pub == 1, terms: terms}
		ix.sumT += int64(lenT)
		ix.sumB += int64(lenB)
	}
	if used != total {
		return nil, d.fail("documents' terms differ from the posting count")
	}
	ix.n = nd
	ix.terms = make([]term, 0, nt)
	used = 0
	for i := range nt {
		text := d.str()
		np := d.count(2)
		if d.err != nil {
			return nil, d.err
		}
		if text == "" || len(text) > MaxTokenLen*4 || !utf8.ValidString(text) {
			return nil, d.fail("bad term")
		}
		if _, dup := ix.dict[text]; dup || np == 0 || used+np > total {
			return nil, d.fail("duplicate or empty term, or more postings than counted")
		}
		t := term{text: text, ids: idArena[used : used+np : used+np], tf: tfArena[used : used+np : used+np]}
		used += np
		prev := uint64(0)
		for j := range np {
			delta, tf := d.uvarint(), d.uvarint()
			id := prev + delta
			if d.err != nil {
				return nil, d.err
			}
			if (j > 0 && delta == 0) || id >= uint64(nd) || tf > 0xffff {
				return nil, d.fail("bad posting")
			}
			t.ids[j], t.tf[j] = uint32(id), uint16(tf)
			prev = id
		}
		ix.dict[text] = uint32(i)
		ix.terms = append(ix.terms, t)
	}
	if used != total {
		return nil, d.fail("postings differ from their count")
	}
	if d.err == nil && d.off != len(d.s) {
		return nil, d.fail("trailing bytes")
	}
	return ix, d.err
}

type decoder struct {
	s   string
	off int
	err error
}

func (d *decoder) fail(what string) error {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s at byte %d", errCorrupt, what, d.off)
	}
	return d.err
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.off >= len(d.s) {
			d.fail("truncated number")
			return 0
		}
		c := d.s[d.off]
		d.off++
		if c < 0x80 {
			if shift == 63 && c > 1 {
				break
			}
			return v | uint64(c)<<shift
		}
		v |= uint64(c&0x7f) << shift
	}
	d.fail("number overflows")
	return 0
}

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if d.off >= len(d.s) {
		d.fail("truncated")
		return 0
	}
	d.off++
	return d.s[d.off-1]
}

// count reads a count of elements of at least min bytes each, refusing one the data cannot hold.
func (d *decoder) count(min int) int {
	n := d.uvarint()
	if d.err == nil && n > uint64((len(d.s)-d.off)/min) {
		d.fail("count larger than the data")
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.s)-d.off) {
		d.fail("truncated string")
		return ""
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}
