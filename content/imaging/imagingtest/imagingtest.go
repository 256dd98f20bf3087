// Package imagingtest builds test images: JPEGs with an EXIF orientation, and files whose header
// claims more pixels than they hold.
package imagingtest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
)

// Quadrant colours of Quadrants: top left, top right, bottom left, bottom right.
var (
	Red    = color.RGBA{220, 20, 20, 255}
	Green  = color.RGBA{20, 200, 20, 255}
	Blue   = color.RGBA{20, 20, 220, 255}
	Yellow = color.RGBA{230, 230, 20, 255}
)

// Quadrants returns a w×h image whose quarters are Red, Green (top), Blue and Yellow (bottom).
func Quadrants(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := Red
			switch {
			case x >= w/2 && y < h/2:
				c = Green
			case x < w/2 && y >= h/2:
				c = Blue
			case x >= w/2 && y >= h/2:
				c = Yellow
			}
			m.SetRGBA(x, y, c)
		}
	}
	return m
}

// Photo returns a w×h image with smooth gradients and fine detail, closer to a photograph than
// flat colours (for sizes and timings).
func Photo(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := uint32(1)
	for y := range h {
		for x := range w {
			seed = seed*1664525 + 1013904223
			n := uint8(seed >> 28) // a little noise
			m.Pix[m.PixOffset(x, y)+0] = uint8(x*255/w) ^ n
			m.Pix[m.PixOffset(x, y)+1] = uint8(y*255/h) + n
			m.Pix[m.PixOffset(x, y)+2] = uint8((x+y)*4) + n
			m.Pix[m.PixOffset(x, y)+3] = 255
		}
	}
	return m
}

// JPEG encodes m at quality 95 and, for orientation 1..8, inserts an EXIF APP1 segment right
// after the start marker whose IFD0 has that orientation and, when extra is not empty, an
// ImageDescription holding it (metadata a derivative must not carry).
func JPEG(m image.Image, orientation int, extra string) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 95}); err != nil {
		panic(err)
	}
	b := buf.Bytes()
	if orientation == 0 && extra == "" {
		return b
	}
	app1 := EXIF(orientation, extra)
	out := append([]byte{}, b[:2]...)
	out = append(out, app1...)
	return append(out, b[2:]...)
}

// EXIF returns an APP1 segment (marker included) with a big-endian TIFF IFD0 holding the
// orientation (0 = none) and an ImageDescription (when desc is not empty).
func EXIF(orientation int, desc string) []byte {
	be := binary.BigEndian
	var entries [][]byte
	n := 0
	if orientation > 0 {
		n++
	}
	if desc != "" {
		n++
	}
	ifdEnd := 8 + 2 + 12*n + 4 // where the description's bytes go
	if desc != "" {
		e := make([]byte, 12)
		be.PutUint16(e, 0x010E) // ImageDescription, ASCII
		be.PutUint16(e[2:], 2)
		be.PutUint32(e[4:], uint32(len(desc)+1))
		be.PutUint32(e[8:], uint32(ifdEnd))
		entries = append(entries, e)
	}
	if orientation > 0 {
		e := make([]byte, 12)
		be.PutUint16(e, 0x0112)
		be.PutUint16(e[2:], 3)
		be.PutUint32(e[4:], 1)
		be.PutUint16(e[8:], uint16(orientation))
		entries = append(entries, e)
	}
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08")
	tiff = be.AppendUint16(tiff, uint16(n))
	for _, e := range entries {
		tiff = append(tiff, e...)
	}
	tiff = append(tiff, 0, 0, 0, 0)
	if desc != "" {
		tiff = append(tiff, desc...)
		tiff = append(tiff, 0)
	}
	seg := append([]byte("Exif\x00\x00"), tiff...)
	out := []byte{0xFF, 0xE1}
	out = be.AppendUint16(out, uint16(len(seg)+2))
	return append(out, seg...)
}

// HugePNG returns a valid 1×1 PNG whose header then claims w×h pixels: DecodeConfig reports
// w×h, decoding fails.
func HugePNG(w, h int) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		panic(err)
	}
	b := buf.Bytes()
	// Signature (8), IHDR length (4), "IHDR" (4), width, height, ...; CRC over type and data.
	binary.BigEndian.PutUint32(b[16:], uint32(w))
	binary.BigEndian.PutUint32(b[20:], uint32(h))
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}
