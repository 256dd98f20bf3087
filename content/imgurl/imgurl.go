// Package imgurl holds the pure rules of image transform URLs: the parameters a request may carry
// (w, h, fit, fm, q), their one canonical form, named presets, and the HMAC signature that allows
// parameters no preset names. The assetfiles group checks requests with it; templates build URLs
// and srcset values with [Builder]. It needs the standard library only, so anything that builds
// URLs links no image code.
//
//	/assets/photos/cat.jpg?preset=thumb                      a configured preset
//	/assets/photos/cat.jpg?w=800&fm=webp&s=<signature>        parameters signed with the site's key
//
// Any other query parameter (a cache-busting v=, say) is ignored and not signed.
package imgurl

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// MaxDimension bounds the width and height a request may ask for, and of every derivative.
const MaxDimension = 4096

// DefaultQuality is the quality of lossy formats when q is not given.
const DefaultQuality = 80

// Fit modes: contain scales the image to fit inside w×h; cover fills w×h and crops the overflow
// evenly from both sides.
const (
	Contain = "contain"
	Cover   = "cover"
)

// Formats of derivatives.
const (
	WebP = "webp"
	JPEG = "jpeg"
	PNG  = "png"
)

// Params are the parameters of one transform. Zero values mean "not given".
type Params struct {
	Width   int    // w: 1..MaxDimension
	Height  int    // h: 1..MaxDimension
	Fit     string // fit: Contain (the default) or Cover
	Format  string // fm: WebP, JPEG or PNG; "" keeps the source's format (GIF becomes PNG)
	Quality int    // q: 1..100 for WebP and JPEG; "" means DefaultQuality
}

// Keys are the query parameters that make a request a transform.
var Keys = []string{"w", "h", "fit", "fm", "q", "preset", "s"}

// IsTransform reports whether a query asks for a transform (names one of Keys).
func IsTransform(q url.Values) bool {
	for _, k := range Keys {
		if _, ok := q[k]; ok {
			return true
		}
	}
	return false
}

// Validate checks p's values; the error message is safe to show a client.
func (p Params) Validate() error {
	for _, d := range []struct {
		name string
		v    int
	}{{"w", p.Width}, {"h", p.Height}} {
		if d.v < 0 || d.v > MaxDimension {
			return fmt.Errorf("%s must be between 1 and %d, not %d", d.name, MaxDimension, d.v)
		}
	}
	switch p.Fit {
	case "", Contain, Cover:
	default:
		return fmt.Errorf("fit must be cover or contain, not %q", p.Fit)
	}
	switch p.Format {
	case "", WebP, JPEG, PNG:
	default:
		return fmt.Errorf("fm must be webp, jpeg or png, not %q", p.Format)
	}
	if p.Quality < 0 || p.Quality > 100 {
		return fmt.Errorf("q must be between 1 and 100, not %d", p.Quality)
	}
	return nil
}

// Encode is the canonical query of p: the given parameters in a fixed order (w, h, fit, fm, q),
// defaults left out. Equal parameters always encode alike, so it keys caches and signatures.
func (p Params) Encode() string {
	var parts []string
	add := func(k, v string) { parts = append(parts, k+"="+v) }
	if p.Width > 0 {
		add("w", strconv.Itoa(p.Width))
	}
	if p.Height > 0 {
		add("h", strconv.Itoa(p.Height))
	}
	if p.Fit != "" && p.Fit != Contain {
		add("fit", p.Fit)
	}
	if p.Format != "" {
		add("fm", p.Format)
	}
	if p.Quality > 0 {
		add("q", strconv.Itoa(p.Quality))
	}
	return strings.Join(parts, "&")
}

// Parse reads w, h, fit, fm and q from a query (preset and s are the caller's). Each may be given
// once; numbers are plain decimal.
func Parse(q url.Values) (Params, error) {
	var p Params
	one := func(k string) (string, error) {
		if len(q[k]) > 1 {
			return "", fmt.Errorf("%s may be given only once", k)
		}
		return q.Get(k), nil
	}
	num := func(k string, dst *int, lo, hi int) error {
		s, err := one(k)
		if err != nil || !q.Has(k) {
			return err
		}
		n, err := strconv.Atoi(s)
		if err != nil || strings.ContainsAny(s, "+-") { // plain digits only
			return fmt.Errorf("%s must be a whole number, not %q", k, s)
		}
		if n < lo || n > hi {
			return fmt.Errorf("%s must be between %d and %d, not %d", k, lo, hi, n)
		}
		*dst = n
		return nil
	}
	if err := num("w", &p.Width, 1, MaxDimension); err != nil {
		return Params{}, err
	}
	if err := num("h", &p.Height, 1, MaxDimension); err != nil {
		return Params{}, err
	}
	if err := num("q", &p.Quality, 1, 100); err != nil {
		return Params{}, err
	}
	var err error
	if p.Fit, err = one("fit"); err != nil {
		return Params{}, err
	}
	if p.Format, err = one("fm"); err != nil {
		return Params{}, err
	}
	if p.Format == "jpg" {
		p.Format = JPEG
	}
	return p, p.Validate()
}

// ParsePresetQuery reads a preset's definition in query form ("w=200&h=200&fit=cover&fm=webp"),
// as the environment variable of assets.transforms.presets gives it.
func ParsePresetQuery(s string) (Params, error) {
	q, err := url.ParseQuery(s)
	if err != nil {
		return Params{}, fmt.Errorf("not a query: %w", err)
	}
	for k := range q {
		if !slices.Contains(Keys[:5], k) {
			return Params{}, fmt.Errorf("unknown parameter %q (known: w, h, fit, fm, q)", k)
		}
	}
	return Parse(q)
}

// SignatureLen is the length of a signature as it appears in a URL (128 bits, base64url).
const SignatureLen = 22

// MinKeyLen is the shortest signing key accepted.
const MinKeyLen = 32

// Sign returns the signature of a transform of the asset at assetPath (relative to the assets
// folder, unescaped): HMAC-SHA256 with key over the path and p's canonical query, truncated to
// 128 bits, base64url without padding.
func Sign(key []byte, assetPath string, p Params) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(assetPath))
	m.Write([]byte{0})
	m.Write([]byte(p.Encode()))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:16])
}

// Verify reports whether sig is the signature of p for assetPath, in constant time.
func Verify(key []byte, assetPath string, p Params, sig string) bool {
	if len(key) == 0 || len(sig) != SignatureLen {
		return false
	}
	return hmac.Equal([]byte(sig), []byte(Sign(key, assetPath, p)))
}

// Errors of Builder.
var (
	ErrNoKey         = errors.New("imgurl: no signing key configured (assets.transforms.signingKey) and no preset matches")
	ErrUnknownPreset = errors.New("imgurl: unknown preset")
)

// Builder builds transform URLs for templates. The zero value builds preset-free, unsigned
// nothing: set Key to sign, Presets to name presets.
type Builder struct {
	// Prefix is where the assets are served, "/assets/" when empty (a CDN origin may precede it).
	Prefix  string
	Key     []byte
	Presets map[string]Params
}

func (b Builder) base(assetPath string) string {
	prefix := b.Prefix
	if prefix == "" {
		prefix = "/assets/"
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	segs := strings.Split(strings.TrimPrefix(assetPath, "/"), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return prefix + strings.Join(segs, "/")
}

// Preset returns the URL of the named preset of the asset at assetPath.
func (b Builder) Preset(assetPath, name string) (string, error) {
	if _, ok := b.Presets[name]; !ok {
		return "", fmt.Errorf("%w %q", ErrUnknownPreset, name)
	}
	return b.base(assetPath) + "?preset=" + url.QueryEscape(name), nil
}

// Signed returns the signed URL of p for the asset at assetPath.
func (b Builder) Signed(assetPath string, p Params) (string, error) {
	if len(b.Key) == 0 {
		return "", ErrNoKey
	}
	if err := p.Validate(); err != nil {
		return "", err
	}
	q := p.Encode()
	if q != "" {
		q += "&"
	}
	return b.base(assetPath) + "?" + q + "s=" + Sign(b.Key, strings.TrimPrefix(assetPath, "/"), p), nil
}

// URL returns a URL for p: the preset that has exactly these parameters, if one does (first by
// name), or else a signed URL.
func (b Builder) URL(assetPath string, p Params) (string, error) {
	names := make([]string, 0, len(b.Presets))
	for n := range b.Presets {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if b.Presets[n].Encode() == p.Encode() {
			return b.Preset(assetPath, n)
		}
	}
	return b.Signed(assetPath, p)
}

// SrcSet returns a srcset value with one candidate per width ("URL 400w, URL 800w"): p with Width
// set to each (and Height scaled to keep p's aspect ratio when p has both), through URL.
func (b Builder) SrcSet(assetPath string, p Params, widths ...int) (string, error) {
	var out []string
	for _, w := range widths {
		q := p
		q.Width = w
		if p.Width > 0 && p.Height > 0 {
			q.Height = max(1, (p.Height*w+p.Width/2)/p.Width)
		}
		u, err := b.URL(assetPath, q)
		if err != nil {
			return "", err
		}
		out = append(out, u+" "+strconv.Itoa(w)+"w")
	}
	return strings.Join(out, ", "), nil
}

// PresetSrcSet returns a srcset value of the named presets, each described by its width (a
// preset without a width is an error: srcset needs one).
func (b Builder) PresetSrcSet(assetPath string, names ...string) (string, error) {
	var out []string
	for _, n := range names {
		u, err := b.Preset(assetPath, n)
		if err != nil {
			return "", err
		}
		w := b.Presets[n].Width
		if w == 0 {
			return "", fmt.Errorf("imgurl: preset %q has no width for srcset", n)
		}
		out = append(out, u+" "+strconv.Itoa(w)+"w")
	}
	return strings.Join(out, ", "), nil
}
