package packed

import (
	"bytes"
	"strings"
	"testing"
)

func TestPackRoundTrip(t *testing.T) {
	entry := []byte(`{"data":{"title":"A post","html":"` + strings.Repeat("<p>Some words, some more words.</p>", 150) + `"}}`)
	tests := []struct {
		name    string
		in      []byte
		smaller bool // the packed form takes fewer bytes than the input
	}{
		{"empty", nil, false},
		{"one byte", []byte("x"), false},
		{"incompressible", []byte("\x8f\x01\xee\x52\x99\x10\x7a\xc3"), false},
		{"an entry", entry, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Pack(tc.in)
			if p.Len() != len(tc.in) {
				t.Fatalf("Len = %d, want %d", p.Len(), len(tc.in))
			}
			if tc.smaller && p.Size() >= len(tc.in)/2 {
				t.Errorf("packed %d bytes into %d, want less than half", len(tc.in), p.Size())
			}
			if !tc.smaller && p.Size() > len(tc.in) {
				t.Errorf("packed %d bytes into %d, more than the input", len(tc.in), p.Size())
			}
			for _, prefix := range [][]byte{nil, []byte(`{"data":[`), make([]byte, 3, 4096)} {
				out, err := p.AppendTo(bytes.Clone(prefix))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(out[:len(prefix)], prefix) || !bytes.Equal(out[len(prefix):], tc.in) {
					t.Fatalf("AppendTo(%q) = %q, want the prefix then the input", prefix, out)
				}
			}
		})
	}
}

// Pack keeps its own copy: the caller may reuse its buffer.
func TestPackCopies(t *testing.T) {
	for _, in := range [][]byte{[]byte(strings.Repeat("abc", 100)), []byte("\x8f\x01\xee")} {
		buf := bytes.Clone(in)
		p := Pack(buf)
		for i := range buf {
			buf[i] = 0
		}
		out, err := p.AppendTo(nil)
		if err != nil || !bytes.Equal(out, in) {
			t.Fatalf("after the input's buffer changed: %q, %v; want %q", out, err, in)
		}
	}
}

func FuzzPack(f *testing.F) {
	f.Add([]byte(`{"data":{"html":"<p>x</p>"}}`), []byte("pre"))
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, in, prefix []byte) {
		p := Pack(in)
		out, err := p.AppendTo(bytes.Clone(prefix))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, append(bytes.Clone(prefix), in...)) {
			t.Fatalf("round trip of %q after %q = %q", in, prefix, out)
		}
		if p.Size() > len(in) {
			t.Fatalf("packed %d bytes into %d", len(in), p.Size())
		}
	})
}

// Raw keeps the string as it is; Compress makes it smaller when it can, the same string.
func TestRawCompress(t *testing.T) {
	text := []byte(strings.Repeat(`{"title":"A post","html":"<p>words</p>"}`, 100))
	r := Raw(text)
	if r.Compressed() || r.Len() != len(text) || r.Size() != len(text) {
		t.Fatalf("Raw: compressed %v, len %d, size %d", r.Compressed(), r.Len(), r.Size())
	}
	c, ok := r.Compress()
	if !ok || !c.Compressed() || c.Size() >= len(text)/2 {
		t.Fatalf("Compress: ok %v, compressed %v, size %d of %d", ok, c.Compressed(), c.Size(), len(text))
	}
	if _, again := c.Compress(); again {
		t.Error("a compressed string compressed again")
	}
	for _, p := range []Bytes{r, c} {
		out, err := p.AppendTo([]byte("x"))
		if err != nil || string(out) != "x"+string(text) {
			t.Fatalf("AppendTo: %v, %.40q", err, out)
		}
	}
	if _, ok := Raw([]byte("\x8f\x01")).Compress(); ok {
		t.Error("an incompressible string compressed")
	}
	if b, ok := r.Raw(); !ok || string(b) != string(text) {
		t.Errorf("Raw of a string kept as it is: %v, %.40q", ok, b)
	}
	if b, ok := c.Raw(); ok || b != nil {
		t.Errorf("Raw of a compressed string: %v, %.40q", ok, b)
	}
}

// AppendRange gives the same bytes from a string kept as it is and compressed, and refuses a
// range outside the string.
func TestAppendRange(t *testing.T) {
	text := []byte(strings.Repeat(`{"data":{"title":"A post"},"seo":{}}`, 50))
	r := Raw(text)
	c, ok := r.Compress()
	if !ok {
		t.Fatal("the text did not compress")
	}
	tests := []struct {
		lo, hi int
		ok     bool
	}{{0, 0, true}, {0, len(text), true}, {8, 30, true}, {len(text), len(text), true},
		{-1, 3, false}, {5, 4, false}, {0, len(text) + 1, false}}
	for _, tt := range tests {
		for _, p := range []Bytes{r, c} {
			out, err := p.AppendRange([]byte("pre"), tt.lo, tt.hi)
			if !tt.ok {
				if err == nil || string(out) != "pre" {
					t.Errorf("compressed %v [%d:%d]: %.20q, %v; want an error and dst as it was", p.Compressed(), tt.lo, tt.hi, out, err)
				}
				continue
			}
			if want := "pre" + string(text[tt.lo:tt.hi]); err != nil || string(out) != want {
				t.Errorf("compressed %v [%d:%d]: %.40q, %v; want %.40q", p.Compressed(), tt.lo, tt.hi, out, err, want)
			}
		}
	}
}

// Shrink compresses like Compress and says what a value costs with the smaller string.
func TestShrink(t *testing.T) {
	text := []byte(strings.Repeat(`{"title":"A post"}`, 100))
	r := Raw(text)
	z, cost, ok := r.Shrink(1000 + int64(r.Size()))
	if !ok || !z.Compressed() || cost != 1000+int64(z.Size()) {
		t.Fatalf("Shrink: ok %v, compressed %v, cost %d; want 1000 + %d", ok, z.Compressed(), cost, z.Size())
	}
	if _, cost, ok := z.Shrink(77); ok || cost != 77 {
		t.Errorf("a compressed string shrank again: ok %v, cost %d", ok, cost)
	}
}
