package publicentries

import (
	"testing"

	"cms/content"
)

// TestCacheHoldsWhatItCounts: the cache keeps its own copy of a body, of exactly its length
// (a grown buffer's capacity is up to twice that), so the byte budget bounds the memory it
// holds and the caller may reuse its buffer.
func TestCacheHoldsWhatItCounts(t *testing.T) {
	t.Parallel()
	c := newCache[string](1 << 20)
	grown := make([]byte, 10_000, 20_000)
	grown[0] = 'a'
	c.put("list", 4, 1, grown, `"e"`)
	grown[0] = 'b' // the caller reuses its buffer
	body, _, ok := c.get("list", 1)
	if !ok || len(body) != 10_000 || cap(body) != 10_000 || body[0] != 'a' {
		t.Errorf("cached body: ok %v, len %d, cap %d, first byte %q; want an exact copy of what was put", ok, len(body), cap(body), body[:1])
	}
}

// An entry's cache version changes with its hash (whatever its form) and with the definitions.
func TestEntryVersion(t *testing.T) {
	t.Parallel()
	hex1 := "479dc76215d94854843bed5f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
	hex2 := "479dc76215d94855843bed5f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
	seen := map[uint64]string{}
	for _, h := range []string{hex1, hex2, "", "short", "not-hex-but-long-enough-xyz", "not-hex-but-long-enough-xyw"} {
		for _, defs := range []uint64{0, 1, 2} {
			v := entryVersion(h, defs)
			if other, ok := seen[v]; ok {
				t.Errorf("%q at %d has the version of %s", h, defs, other)
			}
			seen[v] = h
			if entryVersion(h, defs) != v {
				t.Errorf("%q at %d: not stable", h, defs)
			}
		}
	}
}

// The doorkeeper admits a key asked again within its window, not one asked again only after
// more requests than that (it would have left the cache before it was read).
func TestDoorkeeperWindow(t *testing.T) {
	t.Parallel()
	d := newDoorkeeper()
	if d.again("hot", 100) || !d.again("hot", 100) {
		t.Fatal("a key asked twice in a row is not admitted on its second request")
	}
	if d.again("paged", 100) {
		t.Fatal("a key admitted on its first request")
	}
	for i := range 150 { // more than the window
		d.again("other-"+string(rune('a'+i%26))+string(rune('a'+i/26)), 100)
	}
	if d.again("paged", 100) {
		t.Error("a key asked again after more requests than the window was admitted")
	}
	if !d.again("paged", 100) {
		t.Error("the same key asked once more at once was not admitted")
	}
	if got := admitWindow(0); got != 256 {
		t.Errorf("admitWindow(0) = %d, want 256", got)
	}
	if got := admitWindow(100); got != 800 {
		t.Errorf("admitWindow(100) = %d, want 800", got)
	}
}

// A cached encoding is valid for the record it was made from and for another record of the same
// file (an index rebuilt), not for another file's content or other definitions.
func TestEntryRefValidity(t *testing.T) {
	t.Parallel()
	c := newPackedCache[string](1 << 20)
	version := content.VersionOf([]byte("---\ntitle: A\n---\n"))
	m1 := &content.Entry{Slug: "a", Version: version}
	c.put("a", 1, entryRef{m1, 1}, []byte(`{"title":"A"}`), entryTags{etag: `"e"`})
	for _, tt := range []struct {
		name string
		ref  entryRef
		hit  bool
	}{
		{"the same record", entryRef{m1, 1}, true},
		{"another record of the same file", entryRef{&content.Entry{Slug: "a", Version: version}, 1}, true},
		{"another file", entryRef{&content.Entry{Slug: "a", Version: content.VersionOf([]byte("---\ntitle: B\n---\n"))}, 1}, false},
		{"other definitions", entryRef{m1, 2}, false},
	} {
		it, ok := c.get("a", tt.ref)
		var out []byte
		if ok {
			var err error
			if out, err = it.appendItem(nil); err != nil {
				t.Fatal(err)
			}
		}
		if ok != tt.hit || (ok && string(out) != `{"title":"A"}`) {
			t.Errorf("%s: hit %v (%q), want %v", tt.name, ok, out, tt.hit)
		}
		if !ok { // a miss drops the stale value: put it back for the next case
			c.put("a", 1, entryRef{m1, 1}, []byte(`{"title":"A"}`), entryTags{etag: `"e"`})
		}
	}
}
