package search

import (
	"encoding/binary"
	"iter"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"cms/content"
)

// Ranking constants: BM25F with the title counted TitleBoost times (k1 and b as usual).
const (
	k1         = 1.2
	b          = 0.75
	TitleBoost = 3.0
	// MaxQueryTerms bounds the words of a query that count; MaxExpansions the terms a prefix
	// (the last word) may stand for, the most frequent first; MinPrefix the letters it needs (a
	// single letter would stand for a large share of the index, on a public endpoint).
	MaxQueryTerms = 16
	MaxExpansions = 32
	MinPrefix     = 2
)

// Index is the inverted index of one collection's documents (entries, by slug). Add and Remove
// need exclusive access; Search may run concurrently with other searches.
type Index struct {
	dict  map[string]uint32 // term -> id
	terms []term            // by term id
	docs  []doc             // by doc id; key "" = free
	ids   map[string]uint32 // key -> doc id
	free  []uint32
	n     int
	sumT  int64 // title tokens of every document
	sumB  int64 // body tokens

	sortMu sync.Mutex
	sorted []uint32 // term ids ordered by text, for prefixes; nil when a term was added since

	// norms are the per-document length normalisations of BM25 (title boost included), valid
	// for normsAt; recomputed by the first search after a change.
	normMu  sync.Mutex
	norms   []docNorm
	normsAt uint64 // changes when norms were computed
	changes uint64 // Add and Remove calls

	accs sync.Pool // *accum
}

type docNorm struct{ t, b float32 }

type term struct {
	text string
	ids  []uint32 // ascending doc ids
	tf   []uint16 // per id: title count << 8 | body count, each at most 255
}

type doc struct {
	key        string
	tag        string // the caller's version of the document (a content hash)
	lenT, lenB uint32
	// terms are the document's term ids, so Remove need not tokenise again, packed (packTerms):
	// at four bytes an id they were a third of a 100,000-entry index.
	terms  string
	public bool
}

// packTerms encodes ascending term ids as uvarint deltas, a byte or two each.
func packTerms(ids []uint32) string {
	b := make([]byte, 0, len(ids)+len(ids)/2)
	prev := uint32(0)
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(id-prev))
		prev = id
	}
	return string(b)
}

// termIDs yields the term ids packTerms packed, ascending.
func termIDs(packed string) iter.Seq[uint32] {
	return func(yield func(uint32) bool) {
		id, shift, delta := uint32(0), 0, uint32(0)
		for i := 0; i < len(packed); i++ {
			c := packed[i]
			delta |= uint32(c&0x7f) << shift
			if c >= 0x80 {
				shift += 7
				continue
			}
			id += delta
			if !yield(id) {
				return
			}
			shift, delta = 0, 0
		}
	}
}

// New returns an empty index.
func New() *Index {
	return &Index{dict: map[string]uint32{}, ids: map[string]uint32{}}
}

// Len is the number of documents.
func (ix *Index) Len() int { return ix.n }

// Tag returns the tag document key was added with, and whether it is indexed.
func (ix *Index) Tag(key string) (string, bool) {
	id, ok := ix.ids[key]
	if !ok {
		return "", false
	}
	return ix.docs[id].tag, true
}

// Keys lists the indexed documents, in no order.
func (ix *Index) Keys() []string {
	out := make([]string, 0, ix.n)
	for k := range ix.ids {
		out = append(out, k)
	}
	return out
}

// Add indexes (or re-indexes) document key at version tag (the caller's, kept so a persisted
// index can be checked against the documents later). public marks documents a public search
// may return (published entries).
func (ix *Index) Add(key, tag, title, body string, public bool) {
	ix.Remove(key)
	ix.changes++
	counts := map[string]uint16{}
	var lenT, lenB uint32
	Tokens(title, func(t string, _, _ int) {
		lenT++
		if c := counts[t]; c>>8 < 255 {
			counts[t] = c + 1<<8
		}
	})
	Tokens(body, func(t string, _, _ int) {
		lenB++
		if c := counts[t]; c&0xff < 255 {
			counts[t] = c + 1
		}
	})
	var id uint32
	if n := len(ix.free); n > 0 {
		id, ix.free = ix.free[n-1], ix.free[:n-1]
	} else {
		id = uint32(len(ix.docs))
		ix.docs = append(ix.docs, doc{})
	}
	d := doc{key: key, tag: tag, lenT: lenT, lenB: lenB, public: public}
	tids := make([]uint32, 0, len(counts))
	for text, tf := range counts {
		tid, ok := ix.dict[text]
		if !ok {
			tid = uint32(len(ix.terms))
			ix.dict[text] = tid
			ix.terms = append(ix.terms, term{text: text})
			ix.sortMu.Lock()
			ix.sorted = nil
			ix.sortMu.Unlock()
		}
		t := &ix.terms[tid]
		i, _ := slices.BinarySearch(t.ids, id)
		t.ids = slices.Insert(t.ids, i, id)
		t.tf = slices.Insert(t.tf, i, tf)
		tids = append(tids, tid)
	}
	slices.Sort(tids)
	d.terms = packTerms(tids)
	ix.docs[id] = d
	ix.ids[key] = id
	ix.n++
	ix.sumT += int64(lenT)
	ix.sumB += int64(lenB)
}

// Remove drops document key, if indexed.
func (ix *Index) Remove(key string) {
	id, ok := ix.ids[key]
	if !ok {
		return
	}
	ix.changes++
	d := &ix.docs[id]
	for tid := range termIDs(d.terms) {
		t := &ix.terms[tid]
		if i, found := slices.BinarySearch(t.ids, id); found {
			t.ids = slices.Delete(t.ids, i, i+1)
			t.tf = slices.Delete(t.tf, i, i+1)
		}
	}
	ix.sumT -= int64(d.lenT)
	ix.sumB -= int64(d.lenB)
	*d = doc{}
	delete(ix.ids, key)
	ix.free = append(ix.free, id)
	ix.n--
}

// Result is one entry a store's search found: the indexed entry (without body), its score and
// its body as plain text at search time, for snippets.
type Result struct {
	Entry *content.Entry
	Score float64
	Text  string
}

// Hit is one matching document.
type Hit struct {
	Key   string
	Score float64
}

// Query is what Search looks for.
type Query struct {
	Text       string
	PublicOnly bool // only documents added as public
	DraftOnly  bool // only documents added as not public
	Offset     int
	Limit      int // 0 = every match
}

// Search returns the documents holding every word of q.Text (the last word also as a prefix,
// unless the text ends in a space or punctuation), best first, and how many matched.
func (ix *Index) Search(q Query) ([]Hit, int) {
	groups := ix.groups(q.Text)
	if len(groups) == 0 || ix.n == 0 {
		return []Hit{}, 0
	}
	// Rarest group first: later groups only visit documents the first one reached.
	slices.SortFunc(groups, func(a, b []uint32) int { return ix.df(a) - ix.df(b) })
	a := ix.getAccum()
	defer ix.putAccum(a)
	norms := ix.getNorms()
	for g, group := range groups {
		for _, tid := range group {
			t := &ix.terms[tid]
			idf := float32(math.Log(1 + (float64(ix.n)-float64(len(t.ids))+0.5)/(float64(len(t.ids))+0.5)))
			for i, id := range t.ids {
				c := a.cnt[id]
				if c != uint8(g) && c != uint8(g+1) {
					continue // missed an earlier word
				}
				if c == uint8(g) {
					if g == 0 {
						a.touched = append(a.touched, id)
					}
					a.cnt[id] = uint8(g + 1)
				}
				tf := t.tf[i]
				tn := float32(tf>>8)*norms[id].t + float32(tf&0xff)*norms[id].b
				a.score[id] += idf * tn * (k1 + 1) / (tn + k1)
			}
		}
	}
	want := uint8(len(groups))
	k := q.Offset + q.Limit
	top := make([]Hit, 0, min(max(k, 0), 1024))
	total := 0
	for _, id := range a.touched {
		if a.cnt[id] != want || (q.PublicOnly && !ix.docs[id].public) || (q.DraftOnly && ix.docs[id].public) {
			continue
		}
		total++
		h := Hit{Key: ix.docs[id].key, Score: float64(a.score[id])}
		if q.Limit <= 0 || len(top) < k {
			top = append(top, h)
			if q.Limit > 0 && len(top) == k {
				slices.SortFunc(top, better)
			}
			continue
		}
		if better(h, top[k-1]) < 0 {
			// Insert in order, dropping the worst (k is small: a page).
			i, _ := slices.BinarySearchFunc(top, h, better)
			copy(top[i+1:], top[i:k-1])
			top[i] = h
		}
	}
	slices.SortFunc(top, better)
	if q.Offset >= len(top) {
		return []Hit{}, total
	}
	return top[q.Offset:], total
}

// getNorms returns each document's BM25F length normalisation: TitleBoost / (1-b+b·len/avg) for
// the title, 1 / (1-b+b·len/avg) for the body. Computed once per state of the index rather than
// twice per posting.
func (ix *Index) getNorms() []docNorm {
	at := ix.changes
	ix.normMu.Lock()
	defer ix.normMu.Unlock()
	if ix.norms != nil && ix.normsAt == at {
		return ix.norms
	}
	avgT := float64(ix.sumT) / float64(max(ix.n, 1))
	avgB := float64(ix.sumB) / float64(max(ix.n, 1))
	if avgT == 0 {
		avgT = 1
	}
	if avgB == 0 {
		avgB = 1
	}
	ns := make([]docNorm, len(ix.docs))
	for id := range ix.docs {
		d := &ix.docs[id]
		ns[id] = docNorm{t: float32(TitleBoost / (1 - b + b*float64(d.lenT)/avgT)), b: float32(1 / (1 - b + b*float64(d.lenB)/avgB))}
	}
	ix.norms, ix.normsAt = ns, at
	return ns
}

// better orders hits by score, then key, so equal scores page stably.
func better(a, b Hit) int {
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return strings.Compare(a.Key, b.Key)
}

// groups turns a query into one group of term ids per word: the word's own term, or for the
// last word (unless followed by a separator) every term it is a prefix of. A word without any
// term makes the whole query match nothing.
func (ix *Index) groups(text string) [][]uint32 {
	var words []string
	Tokens(text, func(t string, _, _ int) {
		if len(words) < MaxQueryTerms && !slices.Contains(words, t) {
			words = append(words, t)
		}
	})
	if len(words) == 0 {
		return nil
	}
	r, _ := utf8.DecodeLastRuneInString(text)
	prefix := isWord(r)
	groups := make([][]uint32, 0, len(words))
	for i, w := range words {
		var g []uint32
		if tid, ok := ix.dict[w]; ok && len(ix.terms[tid].ids) > 0 {
			g = append(g, tid)
		}
		if prefix && i == len(words)-1 && utf8.RuneCountInString(w) >= MinPrefix {
			g = ix.expand(w, g)
		}
		if len(g) == 0 {
			return nil
		}
		groups = append(groups, g)
	}
	return groups
}

// expand adds to g the terms that start with p (p itself excluded), at most MaxExpansions,
// the most frequent first.
func (ix *Index) expand(p string, g []uint32) []uint32 {
	sorted := ix.sortedTerms()
	i, _ := slices.BinarySearchFunc(sorted, p, func(tid uint32, p string) int { return strings.Compare(ix.terms[tid].text, p) })
	var more []uint32
	for ; i < len(sorted) && strings.HasPrefix(ix.terms[sorted[i]].text, p); i++ {
		if tid := sorted[i]; ix.terms[tid].text != p && len(ix.terms[tid].ids) > 0 {
			more = append(more, tid)
		}
	}
	if len(more) > MaxExpansions {
		slices.SortFunc(more, func(a, b uint32) int { return len(ix.terms[b].ids) - len(ix.terms[a].ids) })
		more = more[:MaxExpansions]
	}
	return append(g, more...)
}

func (ix *Index) sortedTerms() []uint32 {
	ix.sortMu.Lock()
	defer ix.sortMu.Unlock()
	if ix.sorted == nil {
		s := make([]uint32, len(ix.terms))
		for i := range s {
			s[i] = uint32(i)
		}
		slices.SortFunc(s, func(a, b uint32) int { return strings.Compare(ix.terms[a].text, ix.terms[b].text) })
		ix.sorted = s
	}
	return ix.sorted
}

func (ix *Index) df(g []uint32) int {
	n := 0
	for _, tid := range g {
		n += len(ix.terms[tid].ids)
	}
	return n
}

// accum is a search's per-document scratch: scores and words matched, reset after use for
// the documents touched only.
type accum struct {
	score   []float32
	cnt     []uint8
	touched []uint32
}

func (ix *Index) getAccum() *accum {
	a, _ := ix.accs.Get().(*accum)
	if a == nil {
		a = &accum{}
	}
	if len(a.score) < len(ix.docs) {
		a.score = make([]float32, len(ix.docs)+len(ix.docs)/8)
		a.cnt = make([]uint8, len(a.score))
	}
	return a
}

func (ix *Index) putAccum(a *accum) {
	for _, id := range a.touched {
		a.score[id], a.cnt[id] = 0, 0
	}
	a.touched = a.touched[:0]
	ix.accs.Put(a)
}

// MemoryBytes estimates the index's heap use: postings, term texts and document records.
func (ix *Index) MemoryBytes() int64 {
	var n int64
	for i := range ix.terms {
		t := &ix.terms[i]
		n += int64(len(t.text)) + 16 + 24*2 + int64(cap(t.ids))*4 + int64(cap(t.tf))*2 + 40 // + map entry
	}
	for i := range ix.docs {
		n += 64 + int64(len(ix.docs[i].key)) + int64(len(ix.docs[i].terms)) + 40
	}
	return n
}
