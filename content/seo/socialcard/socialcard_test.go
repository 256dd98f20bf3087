package socialcard

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

func TestRender(t *testing.T) {
	t.Parallel()
	b, err := Render(Card{Title: "Hello World", Site: "Test Site"})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() != Width || r.Dy() != Height {
		t.Fatalf("size %v", r)
	}
	// The title is drawn in white in the upper part, the site name below it, nothing at all in
	// the corner.
	white := func(x0, y0, x1, y1 int) int {
		n := 0
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				if r, g, b, _ := img.At(x, y).RGBA(); r > 0xf000 && g > 0xf000 && b > 0xf000 {
					n++
				}
			}
		}
		return n
	}
	if n := white(margin, margin, Width-margin, margin+100); n < 500 {
		t.Errorf("title area has %d white pixels", n)
	}
	if n := white(Width-60, 0, Width, 60); n != 0 {
		t.Errorf("corner has %d white pixels", n)
	}
	other, err := Render(Card{Title: "Another Title", Site: "Test Site"})
	if err != nil || bytes.Equal(b, other) {
		t.Errorf("two titles drew the same image (err %v)", err)
	}
	again, _ := Render(Card{Title: "Hello World", Site: "Test Site"})
	if !bytes.Equal(b, again) {
		t.Error("the same card drew two different images")
	}
}

func TestWrap(t *testing.T) {
	t.Parallel()
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 72, DPI: 72})
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	width := Width - 2*margin
	cases := []struct {
		in        string
		lines     int
		all       bool
		lastEnds  string
		firstWord string
	}{
		{"Short", 1, true, "Short", "Short"},
		{"A title that is long enough to need a second line", 2, true, "", "A"},
		{strings.Repeat("word ", 60), 3, false, "…", "word"},
		{strings.Repeat("x", 400), 3, false, "…", "x"},
		{"", 0, true, "", ""},
	}
	for _, c := range cases {
		lines, all := wrap(face, c.in, width, 3)
		if len(lines) != c.lines || all != c.all {
			t.Errorf("%.30q: %d lines (all %v), want %d (%v): %q", c.in, len(lines), all, c.lines, c.all, lines)
			continue
		}
		for _, l := range lines {
			if font.MeasureString(face, l) > fixed.I(width) {
				t.Errorf("%.30q: line %q wider than the card", c.in, l)
			}
		}
		if c.lastEnds != "" && !strings.HasSuffix(lines[len(lines)-1], c.lastEnds) {
			t.Errorf("%.30q: last line %q", c.in, lines[len(lines)-1])
		}
	}
}

// Titles and site names are whatever editors write: any text draws a card, never a panic.
func FuzzRender(f *testing.F) {
	for _, s := range []string{"", "Hello", "\x00\xff", strings.Repeat("ü", 300), "a\u200bb\u202e c", "🙂 emoji"} {
		f.Add(s, "Site")
	}
	f.Fuzz(func(t *testing.T, title, site string) {
		b, err := Render(Card{Title: title, Site: site})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	})
}

func BenchmarkRender(b *testing.B) {
	for b.Loop() {
		if _, err := Render(Card{Title: "A title that is long enough to need a second line", Site: "Test Site"}); err != nil {
			b.Fatal(err)
		}
	}
}
