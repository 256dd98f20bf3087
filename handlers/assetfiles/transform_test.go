package assetfiles_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	xwebp "golang.org/x/image/webp"

	"cms/content"
	"cms/content/contenttest"
	"cms/content/imaging"
	"cms/content/imaging/imagingtest"
	"cms/content/imgurl"
	"cms/handlers/assetfiles"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

var presets = map[string]imgurl.Params{
	"thumb": {Width: 40, Height: 40, Fit: imgurl.Cover, Format: imgurl.WebP},
	"small": {Width: 50},
}

// logCount counts the log records whose message is msg.
type logCount struct {
	mu  sync.Mutex
	msg string
	n   int
}

func (l *logCount) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCount) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.Message == l.msg {
		l.n++
	}
	return nil
}
func (l *logCount) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCount) WithGroup(string) slog.Handler      { return l }
func (l *logCount) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

type imgSite struct {
	h    http.Handler
	dir  string
	made *logCount // "derivative made" records: one per transform
	tr   *imaging.Transformer
}

// newImgSite writes images into a site's assets and serves them with transforms made by a
// Transformer on dir (writable: disk cache) and the test's presets and key (key nil: presets
// only).
func newImgSite(t testing.TB, key []byte, files map[string][]byte) imgSite {
	t.Helper()
	dir := contenttest.WriteSite(t, site)
	for name, data := range files {
		p := filepath.Join(dir, "public/assets", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return openImgSite(t, dir, key, dir)
}

func openImgSite(t testing.TB, dir string, key []byte, cacheDir string) imgSite {
	t.Helper()
	made := &logCount{msg: "derivative made"}
	log := slog.New(made)
	tr, err := imaging.New(imaging.Options{Dir: cacheDir, MemoryBytes: 1 << 20, NoSync: true, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	h, err := assetfiles.New(assetfiles.Deps{Store: contenttest.OpenStore(t, dir), Log: log, Transformer: tr, Presets: presets, SigningKey: key})
	if err != nil {
		t.Fatal(err)
	}
	return imgSite{h, dir, made, tr}
}

// signed returns the signed URL of a transform of the asset at p.
func signed(p, query string) string {
	params, err := imgurl.ParsePresetQuery(query)
	if err != nil {
		panic(err)
	}
	u, err := imgurl.Builder{Key: testKey}.Signed(p, params)
	if err != nil {
		panic(err)
	}
	return u
}

func decode(t *testing.T, ctype string, body []byte) image.Image {
	t.Helper()
	var m image.Image
	var err error
	switch ctype {
	case "image/webp":
		m, err = xwebp.Decode(bytes.NewReader(body))
	case "image/jpeg":
		m, err = jpeg.Decode(bytes.NewReader(body))
	case "image/png":
		m, err = png.Decode(bytes.NewReader(body))
	default:
		t.Fatalf("Content-Type %q", ctype)
	}
	if err != nil {
		t.Fatalf("decode %s: %v", ctype, err)
	}
	return m
}

func near(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	d := func(x uint32, y uint8) int { return max(int(x>>8)-int(y), int(y)-int(x>>8)) }
	return d(r, want.R) < 48 && d(g, want.G) < 48 && d(b, want.B) < 48
}

func gifOf(w, h int) []byte {
	var buf bytes.Buffer
	if err := gif.Encode(&buf, imagingtest.Quadrants(w, h), nil); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func pngOf(m image.Image) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Each EXIF orientation comes out upright: a stored 80×40 image whose quarters are red, green
// (top) and blue, yellow (bottom) is shown, per the EXIF definition of which side the stored
// first row and first column are, with its stored top-left (red) and top-right (green) corners
// at the listed corners of the derivative, and its sides swapped for 5 to 8.
func TestTransformOrientation(t *testing.T) {
	t.Parallel()
	const (
		tl = iota
		tr
		bl
		br
	)
	cases := []struct {
		o          int
		red, green int
		swapped    bool
	}{
		{1, tl, tr, false}, // row 0 top, column 0 left
		{2, tr, tl, false}, // row 0 top, column 0 right
		{3, br, bl, false}, // row 0 bottom, column 0 right
		{4, bl, br, false}, // row 0 bottom, column 0 left
		{5, tl, bl, true},  // row 0 left, column 0 top
		{6, tr, br, true},  // row 0 right, column 0 top
		{7, br, tr, true},  // row 0 right, column 0 bottom
		{8, bl, tl, true},  // row 0 left, column 0 bottom
	}
	// Small: scaled by Catmull-Rom alone; large: first shrunk by averaging blocks.
	sizes := []struct {
		name, query string
		w           int
	}{{"small", "w=40", 40}, {"large", "w=100", 100}}
	files := map[string][]byte{}
	for _, c := range cases {
		files[fmt.Sprintf("small-%d.jpg", c.o)] = imagingtest.JPEG(imagingtest.Quadrants(80, 40), c.o, "")
		files[fmt.Sprintf("large-%d.jpg", c.o)] = imagingtest.JPEG(imagingtest.Quadrants(800, 400), c.o, "")
	}
	s := newImgSite(t, testKey, files)
	for _, c := range cases {
		for _, size := range sizes {
			for _, fm := range []string{"png", "webp", "jpeg"} {
				w := get(s.h, "GET", signed(fmt.Sprintf("%s-%d.jpg", size.name, c.o), size.query+"&fm="+fm), nil)
				if w.Code != 200 {
					t.Fatalf("orientation %d: %d %s", c.o, w.Code, w.Body)
				}
				checkCorners(t, fmt.Sprintf("orientation %d %s %s", c.o, size.name, fm), decode(t, w.Header().Get("Content-Type"), w.Body.Bytes()), size.w, c.swapped, c.red, c.green)
			}
		}
	}
}

// checkCorners checks that m is w wide and half as high (or, swapped, twice as high) and that
// Red and Green are at the quarters named (0 top left, 1 top right, 2 bottom left, 3 bottom
// right).
func checkCorners(t *testing.T, name string, m image.Image, w int, swapped bool, red, green int) {
	t.Helper()
	b := m.Bounds()
	wantH := w / 2
	if swapped {
		wantH = w * 2
	}
	if b.Dx() != w || b.Dy() != wantH {
		t.Errorf("%s: %v, want %d×%d", name, b.Size(), w, wantH)
		return
	}
	at := func(k int) color.Color {
		x, y := b.Dx()/4, b.Dy()/4
		if k == 1 || k == 3 {
			x = b.Dx() * 3 / 4
		}
		if k >= 2 {
			y = b.Dy() * 3 / 4
		}
		return m.At(b.Min.X+x, b.Min.Y+y)
	}
	if !near(at(red), imagingtest.Red) || !near(at(green), imagingtest.Green) {
		t.Errorf("%s: red corner %v, green corner %v", name, at(red), at(green))
	}
}

// cover crops evenly from both sides, with and without the block-averaging shrink, from a
// source of odd width: the quarters of a 1001×500 (or 201×100) image, cropped to its centre
// square, are the quarters of the derivative.
func TestTransformCoverCrop(t *testing.T) {
	t.Parallel()
	s := newImgSite(t, testKey, map[string][]byte{
		"large.jpg": imagingtest.JPEG(imagingtest.Quadrants(1001, 500), 0, ""),
		"small.jpg": imagingtest.JPEG(imagingtest.Quadrants(201, 100), 0, ""),
	})
	for _, name := range []string{"large.jpg", "small.jpg"} {
		w := get(s.h, "GET", signed(name, "w=100&h=100&fit=cover&fm=png"), nil)
		if w.Code != 200 {
			t.Fatalf("%s: %d %s", name, w.Code, w.Body)
		}
		m := decode(t, "image/png", w.Body.Bytes())
		if m.Bounds().Size() != image.Pt(100, 100) {
			t.Fatalf("%s: %v", name, m.Bounds().Size())
		}
		for _, q := range []struct {
			x, y int
			c    color.RGBA
		}{{25, 25, imagingtest.Red}, {75, 25, imagingtest.Green}, {25, 75, imagingtest.Blue}, {75, 75, imagingtest.Yellow}} {
			if got := m.At(q.x, q.y); !near(got, q.c) {
				t.Errorf("%s: at %d,%d %v, want %v", name, q.x, q.y, got, q.c)
			}
		}
	}
}

// Sizes, fit modes and formats, as the derivative's header and decoded size show them.
func TestTransformTable(t *testing.T) {
	t.Parallel()
	s := newImgSite(t, testKey, map[string][]byte{
		"photo.jpg":        imagingtest.JPEG(imagingtest.Photo(400, 300), 0, ""),
		"logo.png":         pngOf(imagingtest.Quadrants(200, 100)),
		"anim.gif":         gifOf(120, 60),
		"pic.webp":         webpOf(t),
		"docs/my pic.jpeg": imagingtest.JPEG(imagingtest.Quadrants(100, 100), 0, ""),
	})
	for _, c := range []struct {
		target   string
		ctype    string
		w, h     int
		filename string
	}{
		{signed("photo.jpg", "w=200"), "image/jpeg", 200, 150, "photo.jpeg"},
		{signed("photo.jpg", "h=100"), "image/jpeg", 133, 100, "photo.jpeg"},
		{signed("photo.jpg", "w=200&h=200"), "image/jpeg", 200, 150, "photo.jpeg"},
		{signed("photo.jpg", "w=200&h=200&fit=cover"), "image/jpeg", 200, 200, "photo.jpeg"},
		{signed("photo.jpg", "w=100&h=300&fit=cover&fm=png"), "image/png", 100, 300, "photo.png"},
		{signed("photo.jpg", "w=800"), "image/jpeg", 400, 300, "photo.jpeg"},
		{signed("photo.jpg", "w=800&h=800&fit=cover"), "image/jpeg", 300, 300, "photo.jpeg"},
		{signed("photo.jpg", "w=120&fm=webp&q=50"), "image/webp", 120, 90, "photo.webp"},
		{signed("photo.jpg", "fm=png"), "image/png", 400, 300, "photo.png"},
		{signed("logo.png", "w=100"), "image/png", 100, 50, "logo.png"},
		{signed("logo.png", "w=100&fm=webp"), "image/webp", 100, 50, "logo.webp"},
		{signed("anim.gif", "w=60"), "image/png", 60, 30, "anim.png"},
		{signed("pic.webp", "w=16"), "image/webp", 16, 8, "pic.webp"},
		{signed("docs/my pic.jpeg", "w=10&h=20&fit=cover"), "image/jpeg", 10, 20, "my pic.jpeg"},
		{"/assets/photo.jpg?preset=thumb", "image/webp", 40, 40, "photo.webp"},
		{"/assets/photo.jpg?preset=small&v=2", "image/jpeg", 50, 38, "photo.jpeg"},
		{"/api/public" + signed("photo.jpg", "w=64&fm=png"), "image/png", 64, 48, "photo.png"},
	} {
		w := get(s.h, "GET", c.target, nil)
		if w.Code != 200 {
			t.Errorf("GET %s = %d %s", c.target, w.Code, w.Body)
			continue
		}
		hd := w.Header()
		if hd.Get("Content-Type") != c.ctype || hd.Get("Cache-Control") != "public, max-age=31536000, immutable" || hd.Get("ETag") == "" ||
			hd.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(hd.Get("Content-Security-Policy"), "sandbox") ||
			hd.Get("Content-Disposition") != `inline; filename="`+c.filename+`"` {
			t.Errorf("GET %s: headers %v", c.target, hd)
		}
		if b := decode(t, c.ctype, w.Body.Bytes()).Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Errorf("GET %s: %v, want %d×%d", c.target, b.Size(), c.w, c.h)
		}
	}
}

func webpOf(t testing.TB) []byte {
	t.Helper()
	// A WebP made by the service itself from a PNG: the decoder reads what the encoder writes.
	s := newImgSite(t, testKey, map[string][]byte{"q.png": pngOf(imagingtest.Quadrants(32, 16))})
	w := get(s.h, "GET", signed("q.png", "fm=webp"), nil)
	if w.Code != 200 {
		t.Fatalf("making a WebP: %d %s", w.Code, w.Body)
	}
	return w.Body.Bytes()
}

// Quality changes the size, and a derivative carries none of the source's metadata.
func TestTransformQualityAndMetadata(t *testing.T) {
	t.Parallel()
	s := newImgSite(t, testKey, map[string][]byte{"p.jpg": imagingtest.JPEG(imagingtest.Photo(300, 200), 6, "SECRET-GPS-47.3N")})
	sizes := map[string]int{}
	for _, q := range []string{"10", "95"} {
		for _, fm := range []string{"jpeg", "webp"} {
			w := get(s.h, "GET", signed("p.jpg", "w=200&fm="+fm+"&q="+q), nil)
			if w.Code != 200 {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			if body := w.Body.String(); strings.Contains(body, "SECRET-GPS") || strings.Contains(body, "Exif") {
				t.Errorf("%s q=%s keeps the source's EXIF", fm, q)
			}
			sizes[fm+q] = w.Body.Len()
		}
	}
	if sizes["jpeg10"] >= sizes["jpeg95"] || sizes["webp10"] >= sizes["webp95"] {
		t.Errorf("sizes by quality: %v", sizes)
	}
}

// Refusals: each in the error envelope with its status and code, and nothing made.
func TestTransformRefusals(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{
		"photo.jpg": imagingtest.JPEG(imagingtest.Quadrants(64, 48), 0, ""),
		"huge.png":  imagingtest.HugePNG(10000, 6000),
		"fake.jpg":  []byte("this is not a JPEG"),
	}
	s := newImgSite(t, testKey, files)
	presetsOnly := newImgSite(t, nil, files)
	otherKey := imgurl.Builder{Key: []byte("another key of at least 32 bytes!")}
	forged, _ := otherKey.Signed("photo.jpg", imgurl.Params{Width: 20})
	sigFor := func(target string) string { return target[strings.Index(target, "s="):] }
	for _, c := range []struct {
		name   string
		h      http.Handler
		target string
		status int
		code   string
	}{
		{"too wide", s.h, "/assets/photo.jpg?w=5000&s=x", 400, "BAD_REQUEST"},
		{"too tall", s.h, "/assets/photo.jpg?h=4097&s=x", 400, "BAD_REQUEST"},
		{"not a number", s.h, "/assets/photo.jpg?w=ten", 400, "BAD_REQUEST"},
		{"twice", s.h, "/assets/photo.jpg?w=10&w=20", 400, "BAD_REQUEST"},
		{"unknown fit", s.h, "/assets/photo.jpg?w=10&fit=fill", 400, "BAD_REQUEST"},
		{"unknown preset", s.h, "/assets/photo.jpg?preset=huge", 400, "UNKNOWN_PRESET"},
		{"preset and parameters", s.h, "/assets/photo.jpg?preset=thumb&w=4000", 400, "BAD_REQUEST"},
		{"missing signature", s.h, "/assets/photo.jpg?w=20", 403, "SIGNATURE_REQUIRED"},
		{"bad signature", s.h, "/assets/photo.jpg?w=20&s=AAAAAAAAAAAAAAAAAAAAAA", 403, "INVALID_SIGNATURE"},
		{"signature of another key", s.h, forged, 403, "INVALID_SIGNATURE"},
		{"signature of other parameters", s.h, "/assets/photo.jpg?w=21&" + sigFor(signed("photo.jpg", "w=20")), 403, "INVALID_SIGNATURE"},
		{"signature of another path", s.h, "/assets/huge.png?w=20&" + sigFor(signed("photo.jpg", "w=20")), 403, "INVALID_SIGNATURE"},
		{"no key: presets only", presetsOnly.h, signed("photo.jpg", "w=20"), 403, "SIGNATURE_REQUIRED"},
		{"over 50 megapixels", s.h, signed("huge.png", "w=20"), 422, "IMAGE_TOO_LARGE"},
		{"over 50 megapixels by preset", presetsOnly.h, "/assets/huge.png?preset=thumb", 422, "IMAGE_TOO_LARGE"},
		{"not an image by type", s.h, signed("docs/Grüße \"1\".pdf", "w=20"), 422, "UNSUPPORTED_IMAGE"},
		{"svg", s.h, "/assets/icon.svg?preset=thumb", 422, "UNSUPPORTED_IMAGE"},
		{"not an image by content", s.h, signed("fake.jpg", "w=20"), 422, "UNSUPPORTED_IMAGE"},
		{"missing file", s.h, "/assets/nope.jpg?preset=thumb", 404, "NOT_FOUND"},
		{"sidecar", s.h, "/assets/logo.png.meta.yaml?preset=thumb", 404, "NOT_FOUND"},
	} {
		w := get(c.h, "GET", c.target, nil)
		if w.Code != c.status || !strings.Contains(w.Body.String(), `"code":"`+c.code+`"`) {
			t.Errorf("%s: GET %s = %d %s, want %d %s", c.name, c.target, w.Code, w.Body, c.status, c.code)
		}
		if w.Header().Get("Cache-Control") == "public, max-age=31536000, immutable" {
			t.Errorf("%s: an error is cached for a year", c.name)
		}
	}
	if n := s.made.count() + presetsOnly.made.count(); n != 0 {
		t.Errorf("%d derivatives made by refused requests", n)
	}
}

// N concurrent requests for one derivative: one transform, every response the same.
func TestTransformSingleFlight(t *testing.T) {
	t.Parallel()
	s := newImgSite(t, testKey, map[string][]byte{"photo.jpg": imagingtest.JPEG(imagingtest.Photo(1200, 900), 0, "")})
	const n = 12
	bodies := make([]string, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			w := get(s.h, "GET", "/assets/photo.jpg?preset=thumb", nil)
			codes[i], bodies[i] = w.Code, w.Body.String()
		})
	}
	wg.Wait()
	for i := range n {
		if codes[i] != 200 || bodies[i] != bodies[0] {
			t.Fatalf("request %d: %d, same body %v", i, codes[i], bodies[i] == bodies[0])
		}
	}
	if got := s.made.count(); got != 1 {
		t.Errorf("%d transforms for %d concurrent requests, want 1", got, n)
	}
}

// A second request is a cache hit (no transform, same ETag, 304 on If-None-Match); a new process
// on the same site reads the derivative from .cms/derivatives/, and nothing is written into the
// assets folder.
func TestTransformCacheHit(t *testing.T) {
	t.Parallel()
	s := newImgSite(t, testKey, map[string][]byte{"photo.jpg": imagingtest.JPEG(imagingtest.Photo(320, 240), 0, "")})
	target := signed("photo.jpg", "w=100&fm=webp")
	first := get(s.h, "GET", target, nil)
	second := get(s.h, "GET", target, nil)
	etag := first.Header().Get("ETag")
	if first.Code != 200 || second.Code != 200 || second.Header().Get("ETag") != etag || second.Body.String() != first.Body.String() {
		t.Fatalf("first %d, second %d, ETags %q %q", first.Code, second.Code, etag, second.Header().Get("ETag"))
	}
	if w := get(s.h, "GET", target, http.Header{"If-None-Match": {etag}}); w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match = %d, want 304", w.Code)
	}
	if w := get(s.h, "GET", target, http.Header{"Range": {"bytes=0-3"}}); w.Code != http.StatusPartialContent || w.Body.String() != "RIFF" {
		t.Errorf("Range = %d %q, want 206 RIFF", w.Code, w.Body)
	}
	if w := get(s.h, "HEAD", target, nil); w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") != strconv.Itoa(first.Body.Len()) {
		t.Errorf("HEAD = %d, %d bytes, Content-Length %q", w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
	}
	if got := s.made.count(); got != 1 {
		t.Errorf("%d transforms for five requests, want 1", got)
	}
	s.tr.Wait() // the disk write follows the answer
	again := openImgSite(t, s.dir, testKey, s.dir)
	if w := get(again.h, "GET", target, nil); w.Code != 200 || w.Body.String() != first.Body.String() || w.Header().Get("Content-Type") != "image/webp" || again.made.count() != 0 {
		t.Errorf("after a restart: %d %q, %d transforms", w.Code, w.Header().Get("Content-Type"), again.made.count())
	}
	entries, _ := os.ReadDir(filepath.Join(s.dir, "public/assets"))
	for _, e := range entries {
		if e.Name() != "photo.jpg" && !strings.Contains(site, "public/assets/"+e.Name()) {
			t.Errorf("%s written into the assets folder", e.Name())
		}
	}
	if des, err := os.ReadDir(filepath.Join(s.dir, imaging.DerivativesDir)); err != nil || len(des) == 0 {
		t.Errorf("no derivatives on disk: %v", err)
	}
	// Changing the source changes the derivative (the key holds its size and time).
	if err := os.WriteFile(filepath.Join(s.dir, "public/assets/photo.jpg"), imagingtest.JPEG(imagingtest.Quadrants(320, 240), 0, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	if w := get(s.h, "GET", target, nil); w.Code != 200 || w.Header().Get("ETag") == etag || s.made.count() != 2 {
		t.Errorf("after the source changed: %d, ETag %q (was %q), %d transforms", w.Code, w.Header().Get("ETag"), etag, s.made.count())
	}
}

// A read-only site (no cache folder) writes nothing and keeps derivatives in memory.
func TestTransformReadOnly(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	if err := os.WriteFile(filepath.Join(dir, "public/assets/photo.jpg"), imagingtest.JPEG(imagingtest.Photo(200, 100), 0, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	s := openImgSite(t, dir, testKey, "")
	for range 2 {
		if w := get(s.h, "GET", "/assets/photo.jpg?preset=small", nil); w.Code != 200 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	if s.made.count() != 1 {
		t.Errorf("%d transforms, want 1 (the second from memory)", s.made.count())
	}
	if _, err := os.Stat(filepath.Join(dir, ".cms/derivatives")); err == nil {
		t.Error("a read-only transformer created .cms/derivatives")
	}
}

// The original file is still served as before when the query asks for no transform.
func TestNoTransformQuery(t *testing.T) {
	t.Parallel()
	jpg := imagingtest.JPEG(imagingtest.Quadrants(20, 20), 0, "")
	s := newImgSite(t, testKey, map[string][]byte{"photo.jpg": jpg})
	w := get(s.h, "GET", "/assets/photo.jpg?v=3", nil)
	if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), jpg) || w.Header().Get("Cache-Control") != "public, max-age=0, must-revalidate" {
		t.Errorf("GET with an unrelated query: %d, %d bytes", w.Code, w.Body.Len())
	}
}

// gatedStore holds every OpenAsset (which only a transform calls) until release is closed.
type gatedStore struct {
	assetfiles.Store
	opened  chan struct{}
	release chan struct{}
}

func (g gatedStore) OpenAsset(p string) (*os.File, content.AssetInfo, error) {
	g.opened <- struct{}{}
	<-g.release
	return g.Store.OpenAsset(p)
}

// With one transform running and one waiting for its slot, another different transform is
// refused at once: 503 TRANSFORMS_BUSY with Retry-After; the waiting one completes.
func TestTransformBusy(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site)
	for _, n := range []string{"a.jpg", "b.jpg", "c.jpg"} {
		if err := os.WriteFile(filepath.Join(dir, "public/assets", n), imagingtest.JPEG(imagingtest.Quadrants(32, 32), 0, ""), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := imaging.New(imaging.Options{MaxConcurrent: 1, MaxPending: 1})
	if err != nil {
		t.Fatal(err)
	}
	gs := gatedStore{contenttest.OpenStore(t, dir), make(chan struct{}, 3), make(chan struct{})}
	h, err := assetfiles.New(assetfiles.Deps{Store: gs, Transformer: tr, Presets: presets})
	if err != nil {
		t.Fatal(err)
	}
	codes := make(chan *httptest.ResponseRecorder, 3)
	go func() { codes <- get(h, "GET", "/assets/a.jpg?preset=small", nil) }()
	<-gs.opened // a's transform holds the only slot
	for _, n := range []string{"b.jpg", "c.jpg"} {
		go func() { codes <- get(h, "GET", "/assets/"+n+"?preset=small", nil) }()
	}
	busy := <-codes // one of b and c is refused while the other waits
	if busy.Code != http.StatusServiceUnavailable || busy.Header().Get("Retry-After") != "1" || !strings.Contains(busy.Body.String(), `"code":"TRANSFORMS_BUSY"`) {
		t.Errorf("busy: %d %v %s", busy.Code, busy.Header(), busy.Body)
	}
	close(gs.release)
	for range 2 {
		if w := <-codes; w.Code != 200 {
			t.Errorf("waiting transform: %d %s", w.Code, w.Body)
		}
	}
}
