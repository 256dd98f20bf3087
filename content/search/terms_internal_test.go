package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// packTerms and termIDs round-trip ascending ids of any size, one to five bytes each.
func TestPackTerms(t *testing.T) {
	t.Parallel()
	for _, ids := range [][]uint32{nil, {0}, {0, 1, 2}, {5, 127, 128, 300, 16383, 16384, 1 << 21, 1<<32 - 1}} {
		got := slices.Collect(termIDs(packTerms(ids)))
		if !slices.Equal(got, ids) && !(len(got) == 0 && len(ids) == 0) {
			t.Errorf("%v: read back %v", ids, got)
		}
	}
	if n := len(packTerms([]uint32{1, 2, 3, 100, 120})); n != 5 {
		t.Errorf("five small ids packed into %d bytes, want 5", n)
	}
}

// With hundreds of terms (ids past one varint byte), removing and re-adding documents, before
// and after an encode and decode, leaves the index a fresh build of the same documents would be.
func TestManyTermsRemove(t *testing.T) {
	t.Parallel()
	doc := func(i int) string {
		var b strings.Builder
		for w := range 400 {
			fmt.Fprintf(&b, "w%dx%d ", (w*7+i)%600, w%3)
		}
		return b.String()
	}
	ix := New()
	for i := range 30 {
		ix.Add(fmt.Sprint("d", i), "", "t", doc(i), true)
	}
	dec, err := Decode(string(ix.Encode(nil)))
	if err != nil {
		t.Fatal(err)
	}
	fresh := New()
	for i := range 30 {
		if i%3 != 0 {
			fresh.Add(fmt.Sprint("d", i), "", "t", doc(i), true)
		}
	}
	for _, x := range []*Index{ix, dec} {
		for i := 0; i < 30; i += 3 {
			x.Remove(fmt.Sprint("d", i))
		}
		for _, q := range []string{"w1x1", "w599x2", "w300x0 w7x1", "w5"} {
			a, an := x.Search(Query{Text: q, Limit: 50})
			b, bn := fresh.Search(Query{Text: q, Limit: 50})
			if fmt.Sprint(a) != fmt.Sprint(b) || an != bn {
				t.Errorf("%q: after removes %v (%d), fresh %v (%d)", q, a, an, b, bn)
			}
		}
		for i := range x.terms {
			for _, id := range x.terms[i].ids {
				if x.docs[id].key == "" {
					t.Fatalf("term %q still lists a removed document", x.terms[i].text)
				}
			}
		}
	}
}
