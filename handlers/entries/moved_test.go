package entries_test

import (
	"log/slog"
	"slices"
	"sync"
	"testing"

	"cms/content/contenttest"
	"cms/handlers/entries"
	"cms/handlers/web/webtest"
)

// TestMovedOnPublicURLChange: renaming a published entry reports its old and new public URLs
// (the SEO redirects make a 301 of them); drafts, unpublishing and unchanged URLs do not.
func TestMovedOnPublicURLChange(t *testing.T) {
	t.Parallel()
	dir := contenttest.WriteSite(t, site+`
-- content/collections/blog/live.md --
---
title: Live post
subtitle: s
status: published
---
-- content/collections/blog/wip.md --
---
title: Work in progress
subtitle: s
status: draft
---
`)
	var mu sync.Mutex
	var moves []string
	h, err := entries.New(entries.Deps{Store: contenttest.OpenStore(t, dir), Auth: newAuth(t), Log: slog.New(slog.DiscardHandler),
		Moved: func(from, to string) error {
			mu.Lock()
			defer mu.Unlock()
			moves = append(moves, from+" -> "+to)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	put := func(slug string, body map[string]any) {
		t.Helper()
		path := "/api/entries/blog/" + slug
		cur := decodeEntry(t, webtest.Do(t, h, webtest.Request{Path: path, Token: tokAdmin}))
		body["contentHash"] = cur.ContentHash
		if w := webtest.Do(t, h, webtest.Request{Method: "PUT", Path: path, Token: tokAdmin, Body: body}); w.Code != 200 {
			t.Fatalf("PUT %s: %d %s", path, w.Code, w.Body)
		}
	}
	put("live", map[string]any{"title": "Live post, retitled"})  // same URL
	put("live", map[string]any{"slug": "moved"})                 // a move
	put("wip", map[string]any{"slug": "wip-2"})                  // a draft has no public URL
	put("moved", map[string]any{"status": "draft", "slug": "x"}) // unpublished: not a move
	want := []string{"/blog/live -> /blog/moved"}
	if !slices.Equal(moves, want) {
		t.Errorf("moves = %q, want %q", moves, want)
	}
}
