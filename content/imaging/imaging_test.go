package imaging_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"cms/content"
	"cms/content/imaging"
	"cms/content/imaging/imagingtest"
	"cms/content/imgurl"
)

func TestOrientation(t *testing.T) {
	t.Parallel()
	plain := imagingtest.JPEG(imagingtest.Quadrants(8, 8), 0, "")
	for o := 1; o <= 8; o++ {
		if got := imaging.Orientation(imagingtest.JPEG(imagingtest.Quadrants(8, 8), o, "a description")); got != o {
			t.Errorf("orientation %d read as %d", o, got)
		}
	}
	// Little-endian TIFF, as most cameras write it.
	le := []byte("Exif\x00\x00II\x2a\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00\x06\x00\x00\x00\x00\x00\x00\x00")
	seg := append([]byte{0xFF, 0xE1}, binary.BigEndian.AppendUint16(nil, uint16(len(le)+2))...)
	withLE := append(append(append([]byte{}, plain[:2]...), append(seg, le...)...), plain[2:]...)
	app1 := imagingtest.EXIF(3, "")
	for name, c := range map[string]struct {
		data []byte
		want int
	}{
		"no EXIF":               {plain, 1},
		"little endian":         {withLE, 6},
		"not a JPEG":            {[]byte("\x89PNG\r\n\x1a\n"), 1},
		"empty":                 {nil, 1},
		"truncated segment":     {append([]byte{0xFF, 0xD8}, app1[:len(app1)-3]...), 1},
		"orientation 9":         {append([]byte{0xFF, 0xD8}, imagingtest.EXIF(9, "")...), 1},
		"after an APP0":         {append(append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 'J', 'F'}, app1...), 0xFF, 0xD9), 3},
		"after the image data":  {append([]byte{0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02}, app1...), 1},
		"fill bytes before one": {append([]byte{0xFF, 0xD8, 0xFF, 0xFF}, app1[1:]...), 3},
	} {
		if got := imaging.Orientation(c.data); got != c.want {
			t.Errorf("%s: orientation %d, want %d", name, got, c.want)
		}
	}
}

// FuzzOrientation feeds arbitrary bytes after a JPEG start: never a panic, always 1..8.
func FuzzOrientation(f *testing.F) {
	for o := range 9 {
		f.Add(imagingtest.EXIF(o, "x")[:])
	}
	f.Add([]byte{0xFF, 0xE1, 0x00, 0x10, 'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, b []byte) {
		if o := imaging.Orientation(append([]byte{0xFF, 0xD8}, b...)); o < 1 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
	})
}

func TestPlan(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		w, h   int
		p      string
		keep   image.Rectangle
		ow, oh int
	}{
		{400, 300, "w=200", image.Rect(0, 0, 400, 300), 200, 150},
		{400, 300, "h=100", image.Rect(0, 0, 400, 300), 133, 100},
		{400, 300, "w=200&h=200", image.Rect(0, 0, 400, 300), 200, 150},
		{400, 300, "w=200&h=200&fit=cover", image.Rect(50, 0, 350, 300), 200, 200},
		{400, 300, "w=100&h=300&fit=cover", image.Rect(150, 0, 250, 300), 100, 300},
		{300, 400, "w=300&h=100&fit=cover", image.Rect(0, 150, 300, 250), 300, 100},
		{400, 300, "w=800", image.Rect(0, 0, 400, 300), 400, 300},                       // never enlarged
		{400, 300, "w=800&h=800&fit=cover", image.Rect(50, 0, 350, 300), 300, 300},      // nor cropped to more
		{400, 300, "w=200&fit=cover", image.Rect(0, 0, 400, 300), 200, 150},             // one side: nothing to crop
		{8000, 6000, "fm=webp", image.Rect(0, 0, 8000, 6000), 4096, 3072},               // no side over 4096
		{1, 5000, "w=10", image.Rect(0, 0, 1, 5000), 1, 4096},                           // at least a pixel
		{5000, 10, "w=4096&h=4096&fit=cover", image.Rect(2495, 0, 2505, 10), 10, 10},    // a thin strip
		{3000, 4000, "w=800&h=600&fit=contain", image.Rect(0, 0, 3000, 4000), 450, 600}, // portrait in a landscape box
	} {
		p, err := imgurl.ParsePresetQuery(c.p)
		if err != nil {
			t.Fatal(err)
		}
		keep, ow, oh := imaging.Plan(c.w, c.h, p)
		if keep != c.keep || ow != c.ow || oh != c.oh {
			t.Errorf("Plan(%d×%d, %s) = %v %d×%d, want %v %d×%d", c.w, c.h, c.p, keep, ow, oh, c.keep, c.ow, c.oh)
		}
	}
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

func source(name string, data []byte) imaging.Source {
	return imaging.Source{Path: name, Size: int64(len(data)), ModTime: time.Unix(1700000000, 0), Open: func() (io.ReadSeekCloser, error) {
		return nopCloser{bytes.NewReader(data)}, nil
	}}
}

// Refused sources are Invalid errors with their codes, decided before decoding.
func TestTransformRefusals(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		data []byte
		code string
	}{
		"over 50 megapixels": {imagingtest.HugePNG(10000, 5001), imaging.CodeTooLarge},
		"not an image":       {[]byte("%PDF-1.7 not an image"), imaging.CodeNotImage},
		"truncated JPEG":     {imagingtest.JPEG(imagingtest.Quadrants(64, 64), 0, "")[:300], imaging.CodeNotImage},
		"lying PNG header":   {imagingtest.HugePNG(100, 100), imaging.CodeNotImage},
	} {
		_, _, err := imaging.Transform(bytes.NewReader(c.data), imgurl.Params{Width: 10}, imaging.DefaultMaxPixels)
		if ce, ok := err.(*content.Error); !ok || ce.Kind != content.Invalid || ce.Code != c.code {
			t.Errorf("%s: %v, want an Invalid %s error", name, err, c.code)
		}
	}
	// Exactly 50 megapixels is decoded (and then fails only because the file lies).
	_, _, err := imaging.Transform(bytes.NewReader(imagingtest.HugePNG(10000, 5000)), imgurl.Params{Width: 10}, imaging.DefaultMaxPixels)
	if ce, ok := err.(*content.Error); !ok || ce.Code != imaging.CodeNotImage {
		t.Errorf("50 MP: %v, want a decode error", err)
	}
}

// A writable site keeps derivatives under .cms/derivatives/ (never beside the assets), written
// atomically; a new Transformer on the same folder serves them without making them again.
func TestDiskCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jpg := imagingtest.JPEG(imagingtest.Quadrants(64, 48), 0, "")
	p := imgurl.Params{Width: 32, Format: imgurl.WebP}
	first, err := imaging.New(imaging.Options{Dir: dir, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { first.Close() }) // before the folder is removed
	d, err := first.Get(context.Background(), source("a.jpg", jpg), p)
	if err != nil || d.ContentType != "image/webp" {
		t.Fatalf("Get: %v %v", d, err)
	}
	first.Wait() // the disk write follows the answer
	var files []string
	filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	key := imaging.Key(source("a.jpg", jpg), p)
	if want := imaging.DerivativesDir + "/" + key[:2] + "/" + key; len(files) != 1 || files[0] != want {
		t.Fatalf("files = %v, want only %s", files, want)
	}
	second, err := imaging.New(imaging.Options{Dir: dir, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	d2, err := second.Get(context.Background(), source("a.jpg", jpg), p)
	if err != nil || !bytes.Equal(d2.Data, d.Data) || d2.ContentType != "image/webp" || d2.ETag != d.ETag || second.Made() != 0 {
		t.Errorf("from disk: %v, made %d", err, second.Made())
	}
	// A changed source (another size or time) is a new derivative.
	changed := source("a.jpg", jpg)
	changed.ModTime = changed.ModTime.Add(time.Second)
	if _, err := second.Get(context.Background(), changed, p); err != nil || second.Made() != 1 {
		t.Errorf("changed source: %v, made %d", err, second.Made())
	}
}

// Without a folder (a read-only site) derivatives stay in memory, within the budget.
func TestMemoryBound(t *testing.T) {
	t.Parallel()
	const budget = 64 << 10
	tr, err := imaging.New(imaging.Options{MemoryBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	jpg := imagingtest.JPEG(imagingtest.Photo(300, 200), 0, "")
	var made int64
	for w := 100; w < 300; w += 10 {
		d, err := tr.Get(context.Background(), source("a.jpg", jpg), imgurl.Params{Width: w, Format: imgurl.PNG})
		if err != nil {
			t.Fatal(err)
		}
		made += int64(len(d.Data))
		if st := tr.Cache().Stats(); st.Bytes > budget {
			t.Fatalf("cache holds %d bytes, budget %d", st.Bytes, budget)
		}
	}
	st := tr.Cache().Stats()
	if made < 2*budget || st.Entries == 0 {
		t.Fatalf("test made %d bytes of derivatives, cache holds %d entries: not a test of the bound", made, st.Entries)
	}
	t.Logf("made %d bytes, cache holds %d in %d entries", made, st.Bytes, st.Entries)
}

// A file in the derivatives folder that is not an image this package writes is never served: it
// is made again.
func TestDiskCacheServesOnlyImages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jpg := imagingtest.JPEG(imagingtest.Quadrants(16, 16), 0, "")
	p := imgurl.Params{Width: 8, Format: imgurl.PNG}
	key := imaging.Key(source("a.jpg", jpg), p)
	planted := filepath.Join(dir, imaging.DerivativesDir, key[:2], key)
	if err := os.MkdirAll(filepath.Dir(planted), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planted, []byte("<html><script>alert(1)</script>"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := imaging.New(imaging.Options{Dir: dir, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	d, err := tr.Get(context.Background(), source("a.jpg", jpg), p)
	if err != nil || d.ContentType != "image/png" || tr.Made() != 1 {
		t.Errorf("Get = %v, %v, made %d; want a PNG made anew", d, err, tr.Made())
	}
}

// WebP encodes run side by side (each in its own WebAssembly instance), as MaxConcurrent > 1
// lets them.
func TestConcurrentWebP(t *testing.T) {
	t.Parallel()
	jpg := imagingtest.JPEG(imagingtest.Photo(300, 200), 0, "")
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for range 2 {
				if _, ctype, err := imaging.Transform(bytes.NewReader(jpg), imgurl.Params{Width: 100, Format: imgurl.WebP}, imaging.DefaultMaxPixels); err != nil || ctype != "image/webp" {
					t.Error(ctype, err)
				}
			}
		})
	}
	wg.Wait()
}

// FuzzResize: any image size, orientation and box gives an upright image of Plan's size, with
// the sides swapped for orientations 5 to 8, from RGBA and YCbCr (4:2:0) sources alike.
func FuzzResize(f *testing.F) {
	f.Add(uint16(80), uint16(40), uint8(6), uint16(20), uint16(0), true, false)
	f.Add(uint16(1001), uint16(3), uint8(1), uint16(7), uint16(3), false, true)
	f.Fuzz(func(t *testing.T, w, h uint16, o uint8, bw, bh uint16, cover, ycbcr bool) {
		w, h = w%1200+1, h%1200+1
		p := imgurl.Params{Width: int(bw % 300), Height: int(bh % 300)}
		if cover {
			p.Fit = imgurl.Cover
		}
		r := image.Rect(3, 5, 3+int(w), 5+int(h)) // not at the origin, as a sub-image would be
		var src image.Image = image.NewRGBA(r)
		if ycbcr {
			src = image.NewYCbCr(r, image.YCbCrSubsampleRatio420)
		}
		orientation := int(o % 10)
		got := imaging.Resize(src, orientation, p).Bounds()
		uw, uh := int(w), int(h)
		if orientation >= 5 && orientation <= 8 {
			uw, uh = uh, uw
		}
		_, ow, oh := imaging.Plan(uw, uh, p)
		if got != image.Rect(0, 0, ow, oh) {
			t.Fatalf("%d×%d orientation %d %s: %v, want %d×%d", w, h, orientation, p.Encode(), got, ow, oh)
		}
	})
}
