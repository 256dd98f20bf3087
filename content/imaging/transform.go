// Package imaging makes derivatives of raster images: resized (Catmull-Rom), turned upright by
// their EXIF orientation, re-encoded as WebP, JPEG or PNG without metadata. [Transformer] keeps
// them in a bounded memory cache and, on a writable site, on disk under .cms/derivatives/, makes
// each at most once at a time (single flight) and a bounded number at once. The rules of the
// parameters and their URLs are content/imgurl's.
package imaging

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/color"
	stddraw "image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"math"

	"github.com/gen2brain/webp"
	"golang.org/x/image/draw"
	xwebp "golang.org/x/image/webp"

	"cms/content"
	"cms/content/imgurl"
)

// DefaultMaxPixels is the largest source image decoded: 50 megapixels (a 200 MB RGBA image).
const DefaultMaxPixels = 50_000_000

// webpMethod is libwebp's speed/size trade-off (0 fast .. 6 small): 2 makes files a few percent
// larger than the default 4 at about half the time (docs/assets.md has the figures).
const webpMethod = 2

// Error codes of refused transforms (422 in the error envelope).
const (
	CodeNotImage = "UNSUPPORTED_IMAGE" // not a JPEG, PNG, GIF or WebP file, or not decodable
	CodeTooLarge = "IMAGE_TOO_LARGE"   // more pixels than the limit
)

// Derivative is one transformed image.
type Derivative struct {
	Data        []byte
	ContentType string
	ETag        string // quoted strong ETag
}

// Transform decodes the image r holds and encodes p's derivative of it. Images over maxPixels
// (by their header, checked before decoding) and files that are not JPEG, PNG, GIF or WebP are
// Invalid errors with CodeTooLarge or CodeNotImage.
func Transform(r io.ReadSeeker, p imgurl.Params, maxPixels int64) ([]byte, string, error) {
	const op = "imaging.Transform"
	if err := p.Validate(); err != nil {
		return nil, "", &content.Error{Kind: content.Invalid, Op: op, Message: err.Error()}
	}
	var magic [16]byte
	n, _ := io.ReadFull(r, magic[:])
	format := sniff(magic[:n])
	if format == "" {
		return nil, "", notImage(op, nil)
	}
	rewind := func() error { _, err := r.Seek(0, io.SeekStart); return err }
	if err := rewind(); err != nil {
		return nil, "", err
	}
	cfg, err := decoders[format].config(bufio.NewReader(r))
	if err != nil {
		return nil, "", notImage(op, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return nil, "", &content.Error{Kind: content.Invalid, Op: op, Code: CodeTooLarge,
			Message: fmt.Sprintf("The image is %d×%d pixels; images over %d megapixels are not transformed", cfg.Width, cfg.Height, maxPixels/1_000_000)}
	}
	orientation := 1
	if format == "jpeg" {
		if err := rewind(); err != nil {
			return nil, "", err
		}
		head, _ := io.ReadAll(io.LimitReader(r, maxHead))
		orientation = Orientation(head)
	}
	if err := rewind(); err != nil {
		return nil, "", err
	}
	src, err := decoders[format].decode(bufio.NewReader(r))
	if err != nil {
		return nil, "", notImage(op, err)
	}
	out := Resize(src, orientation, p)
	if p.Format == "" {
		p.Format = map[string]string{"jpeg": imgurl.JPEG, "png": imgurl.PNG, "gif": imgurl.PNG, "webp": imgurl.WebP}[format]
	}
	data, err := encode(out, p)
	if err != nil {
		return nil, "", fmt.Errorf("%s: encode %s: %w", op, p.Format, err)
	}
	return data, "image/" + p.Format, nil
}

func notImage(op string, err error) error {
	return &content.Error{Kind: content.Invalid, Op: op, Code: CodeNotImage, Err: err,
		Message: "Only JPEG, PNG, GIF and WebP images can be transformed, and this file is not one that decodes"}
}

type decoder struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}

// decoders by format, called directly rather than through image.Decode so that what the package
// registers elsewhere never changes which decoder runs. WebP sources decode in pure Go
// (x/image/webp), outside the WebP encoder's WebAssembly memory.
var decoders = map[string]decoder{
	"jpeg": {jpeg.DecodeConfig, jpeg.Decode},
	"png":  {png.DecodeConfig, png.Decode},
	"gif":  {gif.DecodeConfig, gif.Decode},
	"webp": {xwebp.DecodeConfig, xwebp.Decode},
}

func sniff(b []byte) string {
	switch {
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return "jpeg"
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a")):
		return "gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// swaps reports whether an EXIF orientation turns the image by a quarter (width and height
// trade places).
func swaps(o int) bool { return o >= 5 && o <= 8 }

// Plan returns what of an upright image of w×h pixels p keeps (a centred rectangle: all of it,
// or for cover the part of the box's aspect ratio) and the size it is scaled to. Images are
// never enlarged, and no side exceeds imgurl.MaxDimension.
func Plan(w, h int, p imgurl.Params) (keep image.Rectangle, outW, outH int) {
	bw, bh := float64(p.Width), float64(p.Height)
	if p.Width == 0 {
		bw = math.Inf(1)
	}
	if p.Height == 0 {
		bh = math.Inf(1)
	}
	cw, ch := w, h
	cover := p.Fit == imgurl.Cover && p.Width > 0 && p.Height > 0
	if cover {
		if float64(w)*bh > float64(h)*bw { // wider than the box: crop the sides
			cw = max(1, min(w, int(math.Round(float64(h)*bw/bh))))
		} else {
			ch = max(1, min(h, int(math.Round(float64(w)*bh/bw))))
		}
	}
	x0, y0 := (w-cw)/2, (h-ch)/2
	keep = image.Rect(x0, y0, x0+cw, y0+ch)
	if cover && p.Width <= cw && p.Height <= ch {
		return keep, p.Width, p.Height // exactly the box, whatever rounding the crop took
	}
	scale := min(1, bw/float64(cw), bh/float64(ch), imgurl.MaxDimension/float64(cw), imgurl.MaxDimension/float64(ch))
	outW = max(1, int(math.Round(float64(cw)*scale)))
	outH = max(1, int(math.Round(float64(ch)*scale)))
	return keep, outW, outH
}

// Resize returns p's rendition of src, stored with EXIF orientation o, upright. It scales before
// turning, so only the small result is turned; the kept rectangle is centred, which maps to a
// centred rectangle of the stored image whatever the orientation.
func Resize(src image.Image, o int, p imgurl.Params) *image.RGBA {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if swaps(o) {
		w, h = h, w
	}
	keep, outW, outH := Plan(w, h, p)
	kw, kh, tw, th := keep.Dx(), keep.Dy(), outW, outH
	if swaps(o) {
		kw, kh, tw, th = kh, kw, th, tw
	}
	x0, y0 := b.Min.X+(b.Dx()-kw)/2, b.Min.Y+(b.Dy()-kh)/2
	from := image.Rect(x0, y0, x0+kw, y0+kh)
	// A photo shrunk by a large factor is first averaged in k×k blocks, so the Catmull-Rom pass
	// (whose taps grow with the factor) reduces by between 2 and 4: about 2.5 times faster for
	// 4000 to 800 pixels, and no visible difference.
	if y, ok := src.(*image.YCbCr); ok {
		if k := min(kw/tw, kh/th) / 2; k >= 2 {
			src = shrink(y, from, k)
			from = src.Bounds()
			kw, kh = from.Dx(), from.Dy()
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, tw, th))
	if tw == kw && th == kh {
		stddraw.Draw(dst, dst.Bounds(), src, from.Min, stddraw.Src)
	} else {
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, from, draw.Src, nil)
	}
	return orient(dst, o)
}

// orient turns an image stored with EXIF orientation o upright.
func orient(m *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return m
	}
	w, h := m.Rect.Dx(), m.Rect.Dy()
	ow, oh := w, h
	if swaps(o) {
		ow, oh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := range h {
		row := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for x := range w {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			copy(out.Pix[dy*out.Stride+4*dx:dy*out.Stride+4*dx+4], row[4*x:4*x+4])
		}
	}
	return out
}

// encode writes m in p's format. JPEG has no alpha: transparent parts are laid on white. WebP
// takes straight (not premultiplied) colours, so an image with transparency is converted first.
func encode(m *image.RGBA, p imgurl.Params) ([]byte, error) {
	var buf bytes.Buffer
	q := p.Quality
	if q == 0 {
		q = imgurl.DefaultQuality
	}
	var err error
	switch p.Format {
	case imgurl.JPEG:
		if !m.Opaque() {
			flat := image.NewRGBA(m.Rect)
			stddraw.Draw(flat, flat.Rect, image.NewUniform(color.White), image.Point{}, stddraw.Src)
			stddraw.Draw(flat, flat.Rect, m, m.Rect.Min, stddraw.Over)
			m = flat
		}
		err = jpeg.Encode(&buf, m, &jpeg.Options{Quality: q})
	case imgurl.PNG:
		err = png.Encode(&buf, m)
	case imgurl.WebP:
		var img image.Image = m
		if !m.Opaque() {
			n := image.NewNRGBA(m.Rect)
			stddraw.Draw(n, n.Rect, m, m.Rect.Min, stddraw.Src)
			img = n
		}
		err = webp.Encode(&buf, img, webp.Options{Quality: q, Method: webpMethod})
	default:
		err = fmt.Errorf("unknown format %q", p.Format)
	}
	return buf.Bytes(), err
}

// shrink returns the rectangle r of m reduced k times by averaging k×k blocks (the rest of r
// that does not fill a block is dropped). Chroma is averaged over the same blocks, sampled once
// per source chroma sample.
func shrink(m *image.YCbCr, r image.Rectangle, k int) *image.YCbCr {
	w, h := r.Dx()/k, r.Dy()/k
	out := image.NewYCbCr(image.Rect(0, 0, w, h), m.SubsampleRatio)
	for oy := range h {
		for ox := range w {
			sum := 0
			for j := range k {
				i0 := m.YOffset(r.Min.X+ox*k, r.Min.Y+oy*k+j)
				for _, v := range m.Y[i0 : i0+k] {
					sum += int(v)
				}
			}
			out.Y[oy*out.YStride+ox] = uint8((sum + k*k/2) / (k * k))
		}
	}
	sx, sy := subsample(m.SubsampleRatio)
	for ly := 0; ly < h; ly += sy {
		for lx := 0; lx < w; lx += sx {
			// The source pixels under output pixels lx..lx+sx, ly..ly+sy.
			x1, y1 := r.Min.X+min(lx+sx, w)*k, r.Min.Y+min(ly+sy, h)*k
			cb, cr, n := 0, 0, 0
			for y := r.Min.Y + ly*k; y < y1; y += sy {
				for x := r.Min.X + lx*k; x < x1; x += sx {
					c := m.COffset(x, y)
					cb += int(m.Cb[c])
					cr += int(m.Cr[c])
					n++
				}
			}
			c := out.COffset(lx, ly)
			out.Cb[c] = uint8((cb + n/2) / n)
			out.Cr[c] = uint8((cr + n/2) / n)
		}
	}
	return out
}

// subsample returns how many luma pixels one chroma sample covers across and down.
func subsample(r image.YCbCrSubsampleRatio) (int, int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return 2, 1
	case image.YCbCrSubsampleRatio420:
		return 2, 2
	case image.YCbCrSubsampleRatio440:
		return 1, 2
	case image.YCbCrSubsampleRatio411:
		return 4, 1
	case image.YCbCrSubsampleRatio410:
		return 4, 2
	}
	return 1, 1
}
