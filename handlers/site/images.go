package site

import (
	"fmt"
	"strings"

	"cms/content/imgurl"
)

// img returns the URL of a transform of an asset image: params are a preset's name as
// "preset=NAME", or transform parameters ("w=800&fm=webp": the configured preset with exactly
// these, else a URL signed with assets.transforms.signingKey). A transform the configuration
// does not allow is an error, so a page never links an image that would be refused.
func (f *funcs) img(assetPath, params string) (string, error) {
	if name, ok := strings.CutPrefix(params, "preset="); ok {
		u, err := f.s.Images.Preset(assetPath, name)
		if err != nil {
			return "", fmt.Errorf("img %q %q: %w", assetPath, params, err)
		}
		return u, nil
	}
	p, err := imgurl.ParsePresetQuery(params)
	if err != nil {
		return "", fmt.Errorf("img %q %q: %w", assetPath, params, err)
	}
	u, err := f.s.Images.URL(assetPath, p)
	if err != nil {
		return "", fmt.Errorf("img %q %q: %w", assetPath, params, err)
	}
	return u, nil
}

// srcset returns a srcset value for an asset image: with transform parameters and widths
// (`srcset "a.jpg" "fm=webp" 400 800`) one candidate per width, each a preset or a signed URL as
// img makes them; with preset names (`srcset "a.jpg" "preset=card-400" "preset=card-800"`) one
// candidate per preset, described by its width.
func (f *funcs) srcset(assetPath string, args ...any) (string, error) {
	if len(args) == 0 {
		return "", fmt.Errorf("srcset %q: give parameters and widths, or preset names", assetPath)
	}
	first, _ := args[0].(string)
	if strings.HasPrefix(first, "preset=") {
		names := make([]string, len(args))
		for i, a := range args {
			s, _ := a.(string)
			name, ok := strings.CutPrefix(s, "preset=")
			if !ok {
				return "", fmt.Errorf("srcset %q: every argument must be preset=NAME, not %v", assetPath, a)
			}
			names[i] = name
		}
		v, err := f.s.Images.PresetSrcSet(assetPath, names...)
		if err != nil {
			return "", fmt.Errorf("srcset %q: %w", assetPath, err)
		}
		return v, nil
	}
	params, ok := args[0].(string)
	if !ok || len(args) < 2 {
		return "", fmt.Errorf("srcset %q: give parameters (a string) and at least one width", assetPath)
	}
	p, err := imgurl.ParsePresetQuery(params)
	if err != nil {
		return "", fmt.Errorf("srcset %q %q: %w", assetPath, params, err)
	}
	widths := make([]int, len(args)-1)
	for i, a := range args[1:] {
		w, ok := a.(int)
		if !ok || w < 1 || w > imgurl.MaxDimension {
			return "", fmt.Errorf("srcset %q: widths must be whole numbers from 1 to %d, not %v", assetPath, imgurl.MaxDimension, a)
		}
		widths[i] = w
	}
	v, err := f.s.Images.SrcSet(assetPath, p, widths...)
	if err != nil {
		return "", fmt.Errorf("srcset %q %q: %w", assetPath, params, err)
	}
	return v, nil
}
