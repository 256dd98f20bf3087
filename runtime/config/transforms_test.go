package config_test

import (
	"strings"
	"testing"

	"cms/content/imgurl"
	"cms/runtime/config"
)

func TestTransformsConfig(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("k", 32)
	c, warns, err := config.Load(site(t, `
assets:
  transforms:
    signingKey: `+key+`
    maxConcurrent: 3
    presets:
      thumb: {w: 200, h: 200, fit: cover, fm: webp}
      hero:
        w: 1600
        q: 70
`), env(nil))
	if err != nil || len(warns) != 0 {
		t.Fatalf("Load = %v, %v", warns, err)
	}
	tr := c.Assets.Transforms
	want := map[string]imgurl.Params{"thumb": {Width: 200, Height: 200, Fit: imgurl.Cover, Format: imgurl.WebP}, "hero": {Width: 1600, Quality: 70}}
	if tr.SigningKey != key || tr.MaxConcurrent != 3 || len(tr.Presets) != 2 || tr.Presets["thumb"] != want["thumb"] || tr.Presets["hero"] != want["hero"] {
		t.Errorf("transforms = %+v", tr)
	}
	// From the environment.
	c, _, err = config.Load(site(t, ""), env(map[string]string{"CMS_ASSETS_TRANSFORMS_PRESETS": "thumb:w=100&h=100&fit=cover; card:w=400&fm=webp"}))
	if err != nil || c.Assets.Transforms.Presets["card"] != (imgurl.Params{Width: 400, Format: imgurl.WebP}) || c.Assets.Transforms.Presets["thumb"].Height != 100 {
		t.Errorf("presets from the environment = %+v, %v", c.Assets.Transforms.Presets, err)
	}
	// Defaults: no presets, no key (so no transforms at all), two at a time.
	c, _, _ = config.Load(site(t, ""), env(nil))
	if c.Assets.Transforms.Presets != nil || c.Assets.Transforms.SigningKey != "" || c.Assets.Transforms.MaxConcurrent != 2 {
		t.Errorf("defaults = %+v", c.Assets.Transforms)
	}
}

func TestTransformsConfigInvalid(t *testing.T) {
	t.Parallel()
	for yaml, want := range map[string]string{
		"assets:\n  transforms:\n    signingKey: short\n":                       "assets.transforms.signingKey: must be at least 32 characters",
		"assets:\n  transforms:\n    maxConcurrent: 0\n":                        "assets.transforms.maxConcurrent: must be between 1 and 64",
		"assets:\n  transforms:\n    presets:\n      big: {w: 5000}\n":          "preset big: w must be between 1 and 4096",
		"assets:\n  transforms:\n    presets:\n      odd: {w: 10, width: 3}\n":  `preset odd: unknown parameter "width"`,
		"assets:\n  transforms:\n    presets:\n      signed: {w: 10, s: abc}\n": `unknown parameter "s"`,
		"assets:\n  transforms:\n    presets:\n      t: {fit: fill}\n":          "fit must be cover or contain",
		"assets:\n  transforms:\n    presets:\n      t: 200\n":                  "preset t must be a mapping",
		"assets:\n  transforms:\n    presets:\n      \"bad name\": {w: 10}\n":   "must be a plain identifier",
		"assets:\n  transforms:\n    presets: [thumb]\n":                        "must be a mapping of preset names",
	} {
		_, _, err := config.Load(site(t, yaml), env(nil))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", yaml, err, want)
		}
	}
}
