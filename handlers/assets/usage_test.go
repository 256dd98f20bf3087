package assets_test

import (
	"log/slog"
	"net/http"
	"slices"
	"testing"

	"cms/content"
	"cms/content/contenttest"
	"cms/handlers/assets"
	"cms/handlers/web/webtest"
)

const usageSite = `
-- public/assets/photos/hero shot.png --
PNGDATA
-- public/assets/photos/hero shot.png.bak --
old
-- public/assets/unused.png --
PNGDATA
-- resources/collections/blog.yaml --
title: Blog
taxonomies: [tags]
-- resources/collections/secret.yaml --
title: Secret
-- resources/globals/site.yaml --
title: Site Settings
-- resources/taxonomies/tags.yaml --
title: Tags
-- content/collections/blog/field.md --
---
title: Asset field
image: photos/hero shot.png
---
Body.
-- content/collections/blog/sets.md --
---
title: In a replicator set
status: draft
blocks:
  - _type: text
    text: no picture here
  - _type: gallery
    images:
      - unused.png
      - assets::photos/hero shot.png
---
-- content/collections/blog/markdown.md --
---
title: Markdown field
intro: "See ![the hero](/assets/photos/hero%20shot.png) above."
---
-- content/collections/blog/backup.md --
---
title: Only the backup
image: photos/hero shot.png.bak
link: /assets/photos/hero shot.png.bak
---
-- content/collections/secret/hidden.md --
---
title: Hidden
image: photos/hero shot.png
---
-- content/globals/site.yaml --
logo: /assets/photos/hero shot.png
-- content/taxonomies/tags/news.yaml --
title: News
description: "<img src=\"https://example.com/assets/photos/hero%20shot.png\">"
-- users/admin.yaml --
email: admin@example.com
`

// Where used: entries (asset fields, fields inside sets, Markdown addresses), globals and terms
// that refer to a file, and never a file whose name only starts the same; documents the caller
// may not view are counted, not shown.
func TestAssetUsage(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, usageSite)
	auth := webtest.NewAuth(t)
	all := webtest.Token("all")
	blogOnly := webtest.Token("blog-only")
	auth.Add(all, "a", webtest.Role("all", webtest.Grant("assets", "view"), webtest.Grant("entries", "view"), webtest.Grant("globals", "view"), webtest.Grant("taxonomies", "view")))
	auth.Add(blogOnly, "b", webtest.Role("blog", webtest.Grant("assets", "view"), content.Permission{Resource: "entries", Scope: "blog", Actions: []string{"view"}}))
	auth.Add(other, "o", webtest.Role("other", webtest.Grant("globals", "view")))
	h, err := assets.New(assets.Deps{Store: contenttest.OpenStore(t, dir), Auth: auth, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	get := func(tok, p string) (assets.Usage, int) {
		t.Helper()
		w := webtest.Do(t, h, webtest.Request{Path: "/api/assets/usage?path=" + p, Token: tok})
		var body struct{ Data assets.Usage }
		if w.Code == http.StatusOK {
			webtest.DecodeJSON(t, w, &body)
		}
		return body.Data, w.Code
	}
	name := func(u content.AssetUse) string {
		return u.Kind + ":" + u.Collection + u.Taxonomy + u.Handle + "/" + u.Slug
	}

	u, code := get(all, "photos/hero%20shot.png")
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	want := map[string][]string{
		"entry:blog/field":    {"image"},
		"entry:blog/markdown": {"intro"},
		"entry:blog/sets":     {"blocks.1.images.1"},
		"entry:secret/hidden": {"image"},
		"global:site/":        {"logo"},
		"term:tags/news":      {"description"},
	}
	got := map[string][]string{}
	for _, x := range u.Uses {
		got[name(x)] = x.Fields
	}
	for k, f := range want {
		if !slices.Equal(got[k], f) {
			t.Errorf("%s: fields %v, want %v", k, got[k], f)
		}
	}
	for k := range got {
		if want[k] == nil {
			t.Errorf("%s listed, but it does not use the file", k)
		}
	}
	if u.Hidden != 0 || u.Truncated {
		t.Errorf("hidden %d truncated %v", u.Hidden, u.Truncated)
	}
	if i := slices.IndexFunc(u.Uses, func(x content.AssetUse) bool { return x.Slug == "sets" }); i < 0 || u.Uses[i].Title != "In a replicator set" || u.Uses[i].Status != "draft" {
		t.Errorf("the draft's title and status are missing: %+v", u.Uses)
	}

	// A caller who views the blog only sees its entries; the rest is a count.
	u, _ = get(blogOnly, "photos/hero%20shot.png")
	if len(u.Uses) != 3 || u.Hidden != 3 {
		t.Errorf("blog-only caller: %d uses shown, %d hidden; want 3 and 3: %+v", len(u.Uses), u.Hidden, u.Uses)
	}
	if u, _ := get(all, "unused.png"); len(u.Uses) != 1 || u.Uses[0].Slug != "sets" {
		t.Errorf("unused.png is used by %+v, want the replicator entry only", u.Uses)
	}
	for _, c := range []struct {
		tok, path string
		status    int
	}{
		{other, "unused.png", http.StatusForbidden},
		{"", "unused.png", http.StatusUnauthorized},
		{all, "missing.png", http.StatusNotFound},
		{all, "photos", http.StatusBadRequest},
		{all, "../users/admin.yaml", http.StatusBadRequest},
	} {
		if _, code := get(c.tok, c.path); code != c.status {
			t.Errorf("%s as %q: status %d, want %d", c.path, c.tok, code, c.status)
		}
	}
}
