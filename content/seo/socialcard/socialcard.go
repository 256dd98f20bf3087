// Package socialcard draws the generated social images of seo.socialImages: a 1200×630 PNG card
// with a page's title and its site's name, for pages whose metadata names no image of their own.
package socialcard

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The card's size: what Open Graph and X/Twitter's summary_large_image show uncropped.
const (
	Width  = 1200
	Height = 630
)

// MaxTitle and MaxSite bound the text drawn, in characters; longer text ends in "…".
const (
	MaxTitle = 160
	MaxSite  = 60
)

// Card is what a social image shows.
type Card struct {
	Title string
	Site  string
}

var (
	background = color.RGBA{0x1f, 0x29, 0x37, 0xff}
	accent     = color.RGBA{0x3b, 0x82, 0xf6, 0xff}
	titleInk   = color.RGBA{0xff, 0xff, 0xff, 0xff}
	siteInk    = color.RGBA{0xcb, 0xd5, 0xe1, 0xff}
)

const margin = 80

// fonts are parsed once: the Go fonts are compiled in, so parsing cannot fail at run time
// other than by a broken build.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	b, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	r, err := opentype.Parse(goregular.TTF)
	return [2]*opentype.Font{b, r}, err
})

// Render draws c as a PNG. The title is wrapped to at most three lines, at a smaller size when it
// is long; what still does not fit ends in "…".
func Render(c Card) ([]byte, error) {
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	draw.Draw(img, img.Bounds(), image.NewUniform(background), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, Height-16, Width, Height), image.NewUniform(accent), image.Point{}, draw.Src)

	title := clip(strings.Join(strings.Fields(c.Title), " "), MaxTitle)
	size, lines, err := fit(fs[0], title)
	if err != nil {
		return nil, err
	}
	face, err := opentype.NewFace(fs[0], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	defer face.Close()
	lineHeight := int(size * 1.2)
	y := margin + int(size)
	for _, l := range lines {
		text(img, face, titleInk, margin, y, l)
		y += lineHeight
	}

	if site := clip(strings.Join(strings.Fields(c.Site), " "), MaxSite); site != "" {
		sf, err := opentype.NewFace(fs[1], &opentype.FaceOptions{Size: 36, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
		defer sf.Close()
		text(img, sf, siteInk, margin, Height-margin, site)
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// fit chooses the largest of a few sizes at which title wraps into at most three lines.
func fit(f *opentype.Font, title string) (float64, []string, error) {
	sizes := []float64{72, 60, 50}
	for i, size := range sizes {
		face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return 0, nil, err
		}
		lines, all := wrap(face, title, Width-2*margin, 3)
		face.Close()
		if all || i == len(sizes)-1 {
			return size, lines, nil
		}
	}
	return 0, nil, nil // not reached: the last size always returns
}

// wrap breaks s into at most max lines no wider than width; all is false when words were left
// out, and then the last line ends in "…".
func wrap(face font.Face, s string, width, max int) (lines []string, all bool) {
	limit := fixed.I(width)
	words := strings.Fields(s)
	var line string
	for i := 0; i < len(words); i++ {
		w := words[i]
		try := w
		if line != "" {
			try = line + " " + w
		}
		if font.MeasureString(face, try) <= limit {
			line = try
			continue
		}
		if line == "" { // one word wider than the card: break it, the rest goes on the next line
			head := cut(face, w, limit)
			if head == "" {
				_, n := utf8.DecodeRuneInString(w)
				head = w[:n]
			}
			if len(lines) == max-1 {
				return append(lines, ellipsis(face, head, limit)), false
			}
			lines = append(lines, head)
			words[i] = w[len(head):]
			i--
			continue
		}
		if len(lines) == max-1 {
			return append(lines, ellipsis(face, line, limit)), false
		}
		lines = append(lines, line)
		line = ""
		i--
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines, true
}

// cut returns the longest prefix of w that fits limit.
func cut(face font.Face, w string, limit fixed.Int26_6) string {
	for w != "" && font.MeasureString(face, w) > limit {
		_, n := utf8.DecodeLastRuneInString(w)
		w = w[:len(w)-n]
	}
	return w
}

// ellipsis ends s in "…", shortened until it fits limit.
func ellipsis(face font.Face, s string, limit fixed.Int26_6) string {
	for s != "" && font.MeasureString(face, s+"…") > limit {
		_, n := utf8.DecodeLastRuneInString(s)
		s = strings.TrimRight(s[:len(s)-n], " ")
	}
	return s + "…"
}

// clip bounds s to max characters.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:max-1]), " ") + "…"
}

func text(img draw.Image, face font.Face, ink color.Color, x, y int, s string) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(ink), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
