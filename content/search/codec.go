package search

import (
	"cms/content/internal/bindec"
	"encoding/binary"
	"errors"
	"io"
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
func (ix *Index) Encode(dst []byte) []byte { return ix.encode(dst, nil) }

// WriteTo writes the index's encoding to w in pieces of some 64 KB and returns how many bytes it
// wrote: the encoding of a large index (tens of MB at 100,000 documents) is never held whole.
// With io.Discard it measures the encoding.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	var n int64
	var err error
	flush := func(b []byte) []byte {
		if err == nil && len(b) > 0 {
			var m int
			m, err = w.Write(b)
			n += int64(m)
		}
		return b[:0]
	}
	buf := ix.encode(make([]byte, 0, writeChunk+4<<10), func(b []byte) []byte {
		if len(b) >= writeChunk {
			return flush(b)
		}
		return b
	})
	flush(buf)
	return n, err
}

// writeChunk is the size of the pieces WriteTo writes.
const writeChunk = 64 << 10

// encode appends the encoding to dst, handing it to flush (which returns what to append to
// next) after each document and each term when flush is not nil.
func (ix *Index) encode(dst []byte, flush func([]byte) []byte) []byte {
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
		for tid := range termIDs(d.terms) {
			ts = append(ts, tnum[tid])
		}
		slices.Sort(ts)
		dst = binary.AppendUvarint(dst, uint64(len(ts)))
		prev := uint32(0)
		for _, t := range ts {
			dst = binary.AppendUvarint(dst, uint64(t-prev))
			prev = t
		}
		if flush != nil {
			dst = flush(dst)
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
		if flush != nil {
			dst = flush(dst)
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
	d := decoder{bindec.Decoder{S: raw, Corrupt: errCorrupt}}
	ix := New()
	nt := d.Count(3)
	total := d.Count(2)
	nd := d.Count(6)
	if d.Err != nil {
		return nil, d.Err
	}
	// One arena each; every slice is capped at its length, so an append after decoding copies
	// rather than runs into its neighbour.
	idArena := make([]uint32, total)
	tfArena := make([]uint16, total)
	ix.docs = make([]doc, nd)
	used := 0
	for i := range nd {
		key, tag := d.Str(), d.Str()
		lenT, lenB := d.Uvarint(), d.Uvarint()
		pub := d.Byte()
		k := d.Count(1)
		if d.Err != nil {
			return nil, d.Err
		}
		if key == "" || lenT > 1<<31 || lenB > 1<<31 || pub > 1 || used+k > total {
			return nil, d.Fail("bad document")
		}
		if _, dup := ix.ids[key]; dup {
			return nil, d.Fail("duplicate document")
		}
		used += k
		// The term ids are stored as packTerms packs them (renumbered as decoded: term i of the
		// data is term i here), so a document's list is the data itself.
		start := d.Off
		prev := uint64(0)
		for j := range k {
			delta := d.Uvarint()
			t := prev + delta
			if d.Err != nil {
				return nil, d.Err
			}
			if (j > 0 && delta == 0) || t >= uint64(nt) {
				return nil, d.Fail("bad term id")
			}
			prev = t
		}
		terms := d.S[start:d.Off]
		ix.ids[key] = uint32(i)
		ix.docs[i] = doc{key: key, tag: tag, lenT: uint32(lenT), lenB: uint32(lenB), public: pub == 1, terms: terms}
		ix.sumT += int64(lenT)
		ix.sumB += int64(lenB)
	}
	if used != total {
		return nil, d.Fail("documents' terms differ from the posting count")
	}
	ix.n = nd
	ix.terms = make([]term, 0, nt)
	used = 0
	for i := range nt {
		text := d.Str()
		np := d.Count(2)
		if d.Err != nil {
			return nil, d.Err
		}
		if text == "" || len(text) > MaxTokenLen*4 || !utf8.ValidString(text) {
			return nil, d.Fail("bad term")
		}
		if _, dup := ix.dict[text]; dup || np == 0 || used+np > total {
			return nil, d.Fail("duplicate or empty term, or more postings than counted")
		}
		t := term{text: text, ids: idArena[used : used+np : used+np], tf: tfArena[used : used+np : used+np]}
		used += np
		prev := uint64(0)
		for j := range np {
			delta, tf := d.Uvarint(), d.Uvarint()
			id := prev + delta
			if d.Err != nil {
				return nil, d.Err
			}
			if (j > 0 && delta == 0) || id >= uint64(nd) || tf > 0xffff {
				return nil, d.Fail("bad posting")
			}
			t.ids[j], t.tf[j] = uint32(id), uint16(tf)
			prev = id
		}
		ix.dict[text] = uint32(i)
		ix.terms = append(ix.terms, t)
	}
	if used != total {
		return nil, d.Fail("postings differ from their count")
	}
	if d.Err == nil && d.Off != len(d.S) {
		return nil, d.Fail("trailing bytes")
	}
	return ix, d.Err
}

type decoder struct{ bindec.Decoder }
