package imgurl_test

import (
	"net/url"
	"strings"
	"testing"

	"cms/content/imgurl"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		query   string
		want    string // canonical form
		wantErr string
	}{
		{"w=200", "w=200", ""},
		{"h=100&w=200&fit=cover&fm=webp&q=70", "w=200&h=100&fit=cover&fm=webp&q=70", ""},
		{"w=0200&fit=contain", "w=200", ""},
		{"fm=jpg", "fm=jpeg", ""},
		{"w=4096&h=4096", "w=4096&h=4096", ""},
		{"w=4097", "", "w must be between 1 and 4096"},
		{"h=0", "", "h must be between 1 and 4096"},
		{"w=-5", "", "w must be a whole number"},
		{"w=%2B5", "", "w must be a whole number"},
		{"w=1e3", "", "w must be a whole number"},
		{"w=", "", "w must be a whole number"},
		{"w=1&w=2", "", "w may be given only once"},
		{"q=101", "", "q must be between 1 and 100"},
		{"fit=fill", "", "fit must be cover or contain"},
		{"fm=gif", "", "fm must be webp, jpeg or png"},
	} {
		q, _ := url.ParseQuery(c.query)
		p, err := imgurl.Parse(q)
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("Parse(%s) error = %v, want %q", c.query, err, c.wantErr)
		case c.wantErr == "" && err != nil:
			t.Errorf("Parse(%s): %v", c.query, err)
		case c.wantErr == "" && p.Encode() != c.want:
			t.Errorf("Parse(%s) = %s, want %s", c.query, p.Encode(), c.want)
		}
	}
}

func TestPresetQuery(t *testing.T) {
	t.Parallel()
	if p, err := imgurl.ParsePresetQuery("w=200&h=200&fit=cover&fm=webp"); err != nil || p.Encode() != "w=200&h=200&fit=cover&fm=webp" {
		t.Errorf("ParsePresetQuery = %v, %v", p, err)
	}
	for _, bad := range []string{"s=abc", "preset=x", "width=3", "w=99999"} {
		if _, err := imgurl.ParsePresetQuery(bad); err == nil {
			t.Errorf("ParsePresetQuery(%s) accepted", bad)
		}
	}
}

// A signature holds for exactly its path and parameters, and only under its key.
func TestSignVerify(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", 32))
	p := imgurl.Params{Width: 800, Format: imgurl.WebP}
	sig := imgurl.Sign(key, "photos/cat.jpg", p)
	if len(sig) != imgurl.SignatureLen {
		t.Fatalf("signature %q has length %d", sig, len(sig))
	}
	if !imgurl.Verify(key, "photos/cat.jpg", p, sig) {
		t.Fatal("own signature refused")
	}
	for name, ok := range map[string]bool{
		"other path":   imgurl.Verify(key, "photos/dog.jpg", p, sig),
		"other width":  imgurl.Verify(key, "photos/cat.jpg", imgurl.Params{Width: 801, Format: imgurl.WebP}, sig),
		"other format": imgurl.Verify(key, "photos/cat.jpg", imgurl.Params{Width: 800}, sig),
		"other key":    imgurl.Verify([]byte(strings.Repeat("j", 32)), "photos/cat.jpg", p, sig),
		"no key":       imgurl.Verify(nil, "photos/cat.jpg", p, sig),
		"truncated":    imgurl.Verify(key, "photos/cat.jpg", p, sig[:21]),
		"empty":        imgurl.Verify(key, "photos/cat.jpg", p, ""),
	} {
		if ok {
			t.Errorf("%s: signature accepted", name)
		}
	}
}

func TestBuilder(t *testing.T) {
	t.Parallel()
	key := []byte(strings.Repeat("k", 32))
	thumb := imgurl.Params{Width: 200, Height: 200, Fit: imgurl.Cover, Format: imgurl.WebP}
	b := imgurl.Builder{Key: key, Presets: map[string]imgurl.Params{"thumb": thumb, "w400": {Width: 400, Format: imgurl.WebP}, "w800": {Width: 800, Format: imgurl.WebP}}}

	if u, err := b.Preset("a b/c.jpg", "thumb"); err != nil || u != "/assets/a%20b/c.jpg?preset=thumb" {
		t.Errorf("Preset = %q, %v", u, err)
	}
	if _, err := b.Preset("c.jpg", "nope"); err == nil {
		t.Error("unknown preset built")
	}
	// URL prefers a preset with exactly the parameters, else signs.
	if u, _ := b.URL("c.jpg", thumb); u != "/assets/c.jpg?preset=thumb" {
		t.Errorf("URL of the thumb parameters = %q", u)
	}
	u, err := b.URL("c.jpg", imgurl.Params{Width: 300, Format: imgurl.WebP})
	if err != nil {
		t.Fatal(err)
	}
	parsed, _ := url.Parse(u)
	q := parsed.Query()
	p, err := imgurl.Parse(q)
	if err != nil || parsed.Path != "/assets/c.jpg" || !imgurl.Verify(key, "c.jpg", p, q.Get("s")) {
		t.Errorf("signed URL %q does not verify (%v)", u, err)
	}
	// srcset: widths scale the height along; presets give their widths.
	ss, err := b.SrcSet("c.jpg", imgurl.Params{Width: 400, Height: 200, Fit: imgurl.Cover}, 200, 800)
	if err != nil || !strings.Contains(ss, "?w=200&h=100&fit=cover&s=") || !strings.Contains(ss, " 200w, /assets/c.jpg?w=800&h=400&fit=cover&s=") || !strings.HasSuffix(ss, " 800w") {
		t.Errorf("SrcSet = %q, %v", ss, err)
	}
	if ss, err := b.PresetSrcSet("c.jpg", "w400", "w800"); err != nil || ss != "/assets/c.jpg?preset=w400 400w, /assets/c.jpg?preset=w800 800w" {
		t.Errorf("PresetSrcSet = %q, %v", ss, err)
	}
	// Without a key only presets can be built.
	nokey := imgurl.Builder{Prefix: "https://cdn.example.com/assets", Presets: b.Presets}
	if _, err := nokey.URL("c.jpg", imgurl.Params{Width: 300}); err == nil {
		t.Error("unsigned URL built without a key")
	}
	if u, _ := nokey.URL("c.jpg", thumb); u != "https://cdn.example.com/assets/c.jpg?preset=thumb" {
		t.Errorf("URL with a prefix = %q", u)
	}
	if !imgurl.IsTransform(url.Values{"preset": {"x"}}) || imgurl.IsTransform(url.Values{"v": {"3"}}) {
		t.Error("IsTransform wrong")
	}
}

// FuzzParse: any query either fails or gives parameters that validate and whose canonical form
// parses back to the same parameters.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"w=200&h=100&fit=cover&fm=webp&q=70", "w=0200", "fm=jpg", "w=-1", "q=101&q=1", "h=%2B5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := url.ParseQuery(s)
		if err != nil {
			return
		}
		p, err := imgurl.Parse(q)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Parse(%q) = %+v, which does not validate: %v", s, p, err)
		}
		q2, _ := url.ParseQuery(p.Encode())
		if p2, err := imgurl.Parse(q2); err != nil || p2.Encode() != p.Encode() {
			t.Fatalf("canonical %q of %q parses to %+v, %v", p.Encode(), s, p2, err)
		}
	})
}
