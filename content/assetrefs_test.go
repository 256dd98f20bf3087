package content_test

import (
	"slices"
	"testing"

	"cms/content"
)

// A reference is the file's path as an asset field stores it, or its address alone or inside
// text, percent-encoded or not; a longer name that starts the same is not one.
func TestAssetRefText(t *testing.T) {
	t.Parallel()
	ref := content.NewAssetRef("photos/a b.png", "/assets")
	for s, want := range map[string]bool{
		"photos/a b.png":                 true,
		"assets::photos/a b.png":         true,
		"/assets/photos/a b.png":         true,
		"/assets/photos/a%20b.png":       true,
		"![x](/assets/photos/a%20b.png)": true,
		`<img src="https://example.com/assets/photos/a%20b.png?w=100">`: true,
		"/assets/photos/a%20b.png,/assets/c.png":                        true,
		"see /assets/photos/a%20b.png.":                                 true,
		"photos/a b.png.bak":                                            false,
		"/assets/photos/a%20b.png.bak":                                  false,
		"/assets/photos/a%20b.png/x":                                    false,
		"/assets/photos/a%20b.pngx":                                     false,
		"a b.png":                                                       false,
		"/media/photos/a%20b.png":                                       false,
		"":                                                              false,
	} {
		if got := ref.Text(s); got != want {
			t.Errorf("Text(%q) = %v, want %v", s, got, want)
		}
	}
}

// Fields finds references at any depth and names them by dotted path, in the data's order.
func TestAssetRefFields(t *testing.T) {
	t.Parallel()
	data := &content.Map{}
	data.Set("hero", "a.png")
	set := &content.Map{}
	set.Set("_type", "gallery")
	set.Set("images", []any{"b.png", "assets::a.png"})
	data.Set("blocks", []any{map[string]any{"text": "/assets/a.png"}, set})
	data.Set("count", 3)
	got := content.NewAssetRef("a.png", "/assets/").Fields(data, 0)
	if want := []string{"hero", "blocks.0.text", "blocks.1.images.1"}; !slices.Equal(got, want) {
		t.Errorf("Fields = %v, want %v", got, want)
	}
	if got := content.NewAssetRef("a.png", "/assets").Fields(data, 2); len(got) != 2 {
		t.Errorf("Fields with max 2 = %v", got)
	}
}
